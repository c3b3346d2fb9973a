import { connect, type Socket } from 'node:net';

export interface SocketAnswer {
  /** Everything the server sent before it closed the connection or the wait ended. */
  text: string;
  /** The status of the first response, or null if none arrived. */
  status: number | null;
  /** How the exchange ended. */
  ended: 'closed' | 'waited';
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and collects the answer until the
 * server closes the connection or `waitMs` passes. No HTTP client in the way: hostile request
 * lines reach the server as written.
 */
export function exchange(url: string, bytes: string | Buffer, waitMs = 5_000): Promise<SocketAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    const finish = (ended: SocketAnswer['ended']) => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ text, status: status ? Number(status) : null, ended });
    };
    const timer = setTimeout(() => finish('waited'), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => finish('closed'));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? finish('closed') : reject(error)));
    socket.write(bytes);
  });
}

/** Opens a connection and keeps it open; resolves once connected. What the server sends is read and dropped. */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    // A paused socket never sees the server's FIN behind unread bytes, so 'close' would not come.
    socket.resume();
    socket.once('error', reject);
  });
}

/** Resolves when the server closes this socket, with the milliseconds it took; rejects after `limitMs`. */
export function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve(0);
    const timer = setTimeout(() => reject(new Error(`the server kept the socket open for ${limitMs} ms`)), limitMs);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

/** The head and body of a response read from raw text. */
export function headersOf(text: string): Record<string, string> {
  const head = text.split('\r\n\r\n', 1)[0] ?? '';
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

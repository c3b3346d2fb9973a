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

/**
 * A connection from `localAddress` (any of 127.0.0.0/8 on loopback) that never closes its own
 * side, as an attacker's does: the server's FIN alone does not end it (allowHalfOpen). What
 * the server sends is read and dropped.
 */
export function openHalfOpen(url: string, localAddress: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress, allowHalfOpen: true }, () => {
      // From here on a reset is how the server closes it, which the caller watches for with 'close'.
      socket.off('error', reject).on('error', () => {});
      resolve(socket);
    });
    socket.resume();
    socket.once('error', reject);
  });
}

/**
 * Resolves when the server has destroyed this half-open socket, with the milliseconds it took;
 * rejects after `limitMs`. A server that resets the connection is seen at once. A FIN says only
 * that the server ended its side: after it, `probe` (when given) is written every 100 ms, which
 * a destroyed connection answers with a reset ('close') while a connection the server still
 * holds takes it in silence. An empty line makes a harmless probe: a server ignores it before a
 * request line (RFC 9112 section 2.2).
 */
export function destroyedWithin(socket: Socket, limitMs: number, probe: string | null): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve(0);
    let prober: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      clearInterval(prober);
      reject(new Error(`the server still held the socket after ${limitMs} ms`));
    }, limitMs);
    socket.on('error', () => {});
    socket.once('end', () => {
      if (probe !== null) prober = setInterval(() => socket.writable && socket.write(probe), 100);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      clearInterval(prober);
      resolve(Date.now() - started);
    });
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

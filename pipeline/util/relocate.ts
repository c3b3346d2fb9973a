/**
 * Text written for the build's base URL with every occurrence of it replaced by the origin the
 * client used: the tools and the change feed read records whose addresses were written at build
 * time (http/origin.ts says which origin a request names). A client's own text that quotes the
 * build's address is rewritten too, which names the same document on this server.
 */
export function relocate(text: string, from: string, to: string): string {
  return from === to || from === '' ? text : text.split(from).join(to);
}

/** Where an answer's addresses are rewritten: from the build's base URL to the client's origin. */
export interface Relocation {
  from: string;
  to: string;
}

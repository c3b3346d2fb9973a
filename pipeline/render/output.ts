/**
 * One file of dist/. Most bodies are fixed strings; a body that shows when its content last
 * changed (`generated_at`, a date line) is a function of that stamp, so the build can render it
 * with the previous stamp first and keep that stamp when nothing else changed.
 */
export interface RenderedFile {
  path: string;
  kind: string;
  body: string | ((stamp: string) => string);
}

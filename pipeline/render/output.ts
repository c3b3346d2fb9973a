/**
 * One file of dist/. Most bodies are fixed strings; a body that shows when its content last
 * changed (`generated_at`, a date line) is a function of that stamp, so the build can render it
 * with the previous stamp first and keep that stamp when nothing else changed.
 */
export interface RenderedFile {
  path: string;
  kind: string;
  body: string | ((stamp: string) => string);
  /**
   * For a body that renews itself with time (security.txt's expiry): the first moment (epoch ms)
   * a build would render it anew, given the stamp it was last rendered with. A build from the
   * same inputs is byte for byte the same until the earliest of these (publish/build-fingerprint.ts).
   */
  renewsAt?: (stamp: string) => number;
}

// How much one verify_signature call may ask for. Real Web Bot Auth requests carry one or two
// signatures of under 200 bytes each and a Signature-Input of under 400; directories publish a
// handful of keys. The limits are far above that and keep the worst input to a few
// milliseconds: one SHA-256 per directory key (the thumbprints) and one Ed25519 verify.

/** Bytes of a raw HTTP request head (nginx's default large header buffer is 8 KiB; 16 KiB leaves room). */
export const MAX_HEAD_BYTES = 16_384;

/** Header lines read from a raw request head. */
export const MAX_HEAD_LINES = 200;

/** Bytes of the Signature or the Signature-Input header. */
export const MAX_SIGNATURE_FIELD_BYTES = 4096;

/** Bytes of the Signature-Agent header. */
export const MAX_AGENT_BYTES = 2048;

/** Signatures (labels) one request may carry; the first tagged web-bot-auth is the one checked. */
export const MAX_SIGNATURES = 8;

/** Bytes of a target URI. */
export const MAX_URI_BYTES = 8192;

/** Bytes of an inline key directory. */
export const MAX_DIRECTORY_BYTES = 65_536;

/** Keys in an inline key directory. */
export const MAX_DIRECTORY_KEYS = 64;

/**
 * Seconds a signature's `created` may lie ahead of this server's clock, and its `expires`
 * behind it, before it is refused: clocks differ by a little, and RFC 9421 7.2.4 leaves the
 * tolerance to the verifier.
 */
export const CLOCK_SKEW_SECONDS = 60;

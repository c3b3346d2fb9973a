// An agent that signs requests with an implementation that is not the verifier's: Cloudflare's
// web-bot-auth package (0.1.x), whose RFC 9421 signature base comes from its own pinned
// http-message-sig 0.2 (the verifier uses the rewritten 0.3) and whose key ids come from
// jsonwebkey-thumbprint (the verifier computes RFC 7638 itself). Keys are fresh Ed25519 pairs
// made with WebCrypto for each agent.
import { directoryResponseHeaders, signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';

export interface TestAgent {
  /** The public half, as a key directory lists it. */
  publicJwk: JsonWebKey;
  /** The key id web-bot-auth computed: the JWK thumbprint. */
  keyid: string;
  /** A key directory holding this agent's key (and any others given). */
  directory(...others: TestAgent[]): string;
  /**
   * The Signature and Signature-Input headers a directory server sends with its response,
   * signed with this agent's key (web-bot-auth's directoryResponseHeaders: @authority;req only).
   */
  signDirectory(url: string, created: Date, expires: Date): Promise<{ signature: string; signatureInput: string }>;
  /** The Signature and Signature-Input headers for a request. */
  sign(
    request: { url: string; method?: string; headers?: Record<string, string> },
    options?: SignOptions,
  ): Promise<{ signature: string; signatureInput: string }>;
}

export interface SignOptions {
  /** Seconds from now; default -10 and +300. */
  created?: number;
  expires?: number;
  components?: string[];
}

export async function testAgent(): Promise<TestAgent> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const signer = await Ed25519Signer.fromJWK(privateJwk);
  const agent: TestAgent = {
    publicJwk: { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x },
    keyid: signer.keyid,
    directory: (...others) => JSON.stringify({ keys: [agent, ...others].map((a) => a.publicJwk) }),
    async signDirectory(url, created, expires) {
      const request = { method: 'GET', url, headers: new Headers() };
      const headers = await directoryResponseHeaders({ request, response: { status: 200, headers: new Headers() } }, [signer], { created, expires });
      return { signature: headers.Signature, signatureInput: headers['Signature-Input'] };
    },
    async sign(request, options = {}) {
      const now = Date.now();
      const headers = await signatureHeaders({ method: request.method ?? 'GET', url: request.url, headers: request.headers ?? {} }, signer, {
        created: new Date(now + (options.created ?? -10) * 1000),
        expires: new Date(now + (options.expires ?? 300) * 1000),
        ...(options.components ? { components: options.components } : {}),
      });
      return { signature: headers.Signature, signatureInput: headers['Signature-Input'] };
    },
  };
  return agent;
}

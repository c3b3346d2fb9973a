import type { CrawlerView } from '../../model/model.ts';
import type { Classifier } from '../classify/index.ts';
import type { ClientEntry } from '../classify/clients.ts';
import type { VisitorLookup } from '../../log/types.ts';
import type { PrefixIndex } from '../verify/index.ts';
import type { MirroredAgent } from '../signatures/mirror.ts';

// One registry of tools (docs/PRINCIPLES.md, principle 2): every HTTP tool endpoint, its .json spec and
// .html form, every MCP server's tools/list and tools/call, and the A2A skills come from it.

/** A tool parameter. The input JSON Schema, the HTTP query parsing and the validation are all derived from it. */
export interface ParamSpec {
  name: string;
  kind: 'string' | 'list';
  required: boolean;
  description: string;
  /** The accepted form, quoted in every 400 about this parameter. */
  accepted: string;
  /** Strings: the largest accepted size in UTF-8 bytes. */
  maxBytes?: number;
  /** Lists: the most items per call. */
  maxItems?: number;
  /** Lists: the largest accepted item in UTF-8 bytes. */
  maxItemBytes?: number;
  /** Lists given as one string are split on this: commas, line breaks, or for addresses commas and white space (net/address-list.ts). */
  split?: 'comma' | 'addresses' | 'lines';
  /** The only values accepted; published as a JSON Schema enum, so a model need not read them out of prose. */
  values?: readonly string[];
  /** How to send the parameter over HTTP, shown beside the description on the HTTP surfaces only (a model calling the MCP tool passes plain text). */
  http?: string;
  /** Strings: an empty value is a value, not a mistake (an empty robots.txt allows everything, RFC 9309 2.2). */
  emptyIsValue?: boolean;
  default?: string | string[];
  example?: string;
  /** Strings: a value of the accepted size that is still not in the accepted form; the reason, or null. */
  formProblem?: (value: string) => string | null;
}

export interface PublishedPolicy {
  id: string;
  title: string;
  directive: string;
  /** The rule that picks the crawlers (by category and/or stance); absent for a policy naming none. */
  select?: { categories?: string[]; stances?: string[] };
  rationale: string;
  caveats: string[];
  crawlers: { slug: string; robots_token: string; respects_robots_txt: string; note: string | null }[];
  /** The robots.txt fragment exactly as /robots/{id}.txt publishes it. */
  fragment: string;
}

/** One policy of /data/policy-accuracy.json, as far as the tools read it. */
export interface PublishedAccuracy {
  id: string;
  cannot_enforce: { slug: string; robots_token: string | null; why: string }[];
  servers: ({ server: string } & Record<string, unknown>)[];
}

export interface SourceSummary {
  id: string;
  operator: string;
  crawlers: string[];
  scope: 'crawlers' | 'network';
  state: string;
  ipv4_count: number;
  ipv6_count: number;
  endpoint: string;
  confirmed_at: string | null;
}

/** Everything the tools read, built once per published tree from its documents. */
export interface ToolData {
  baseUrl: string;
  crawlers: CrawlerView[];
  bySlug: ReadonlyMap<string, CrawlerView>;
  aiCategories: ReadonlySet<string>;
  categories: { id: string; label: string; ai: boolean }[];
  policies: PublishedPolicy[];
  /** Each policy's server config as published, by "<policy> <server>". */
  serverConfigs: ReadonlyMap<string, string>;
  /** The policies of /data/policy-accuracy.json. */
  accuracy: readonly PublishedAccuracy[];
  sources: SourceSummary[];
  classifier: Classifier;
  /** Non-crawler HTTP clients (/data/clients.json). */
  clients: ClientEntry[];
  prefixes: PrefixIndex;
  /** The key directories the index mirrors (/signature-agents/index.json). */
  signatureAgents: MirroredAgent[];
}

/** Who is calling, for whoami; filled by the transport, never from parameters; given only to a tool that answers for its caller. */
export interface Caller {
  userAgent: string | null;
  address: string | null;
  /** What the request log knows of the caller's address before this request; absent: no log. */
  history?: CallerHistory;
  /** The request's own HTTP Message Signature headers (null each when not sent); absent: the transport has no request headers (the CLI). */
  signatureHeaders?: { signature: string | null; signatureInput: string | null; signatureAgent: string | null };
}

export interface ToolContext {
  data: ToolData;
  caller: Caller;
}

export type ToolInput = Record<string, string | string[] | undefined>;

/** A parameter's validated value: lists are arrays, everything else one string. */
type ValueOf<Kind extends ParamSpec['kind']> = Kind extends 'list' ? string[] : string;

/**
 * The validated input of a tool with these parameters, keyed by their names, so that a tool
 * reading a parameter it does not declare fails the type check. Absent optional parameters
 * are undefined (required ones never are once validateInput has passed).
 */
type InputOf<Params extends readonly ParamSpec[]> = { readonly [P in Params[number] as P['name']]?: ValueOf<P['kind']> };

/**
 * One tool. `Output` is what `run` returns and `summarize` reads, so a tool's summary is
 * checked against its own output; the registry holds tools of every output type as
 * ToolDefinition<unknown> (the methods are declared as methods, which TypeScript compares
 * bivariantly, so each tool keeps its own type inside its module).
 */
export interface ToolDefinition<Output = unknown, Params extends readonly ParamSpec[] = readonly ParamSpec[]> {
  /** MCP tool name, e.g. classify_user_agent. */
  name: string;
  /** HTTP path segment under /tools/, e.g. classify-ua; null for MCP-only tools. */
  path: string | null;
  title: string;
  description: string;
  params: Params;
  /** The parameter a POST's raw body fills (robots.txt tools); absent when POST is not accepted. */
  postBody?: string;
  /** True when the tool answers for real with no parameters (example, whoami). */
  runsWithoutParams?: boolean;
  /**
   * True when the answer describes the calling request (whoami). Only such a tool is given the
   * caller; every other one sees an anonymous caller, so its answer cannot depend on who asks.
   * Its HTTP answer is private and undated, so no other caller's validators match it (docs/API.md §5.2).
   */
  answersForCaller?: boolean;
  /** True when the tool reads `caller.history`: only then does the transport ask the request log (whoami). Requires answersForCaller. */
  readsCallerHistory?: boolean;
  outputSchema: Record<string, unknown>;
  examples: { description: string; input: ToolInput }[];
  /**
   * Pure. A tool whose work needs an asynchronous API (WebCrypto's verify, in verify_signature)
   * returns a Promise, and its Output is that Promise; the runner awaits every answer.
   */
  run(input: InputOf<Params>, context: ToolContext): Output;
  /** A few sentences for a person or a model: the text part of MCP and A2A answers. */
  summarize(output: Awaited<Output>): string;
  /**
   * One line per item of an answer about many items (addresses), printed by the command line
   * after the summary, so each item's verdict can be read (and grepped) on its own.
   */
  itemLines?(output: Awaited<Output>): string[];
}

/** A tool with its input type taken from its parameters and its output type from `run`, so neither needs a cast. */
export function defineTool<const Params extends readonly ParamSpec[], Output>(tool: ToolDefinition<Output, Params>): ToolDefinition<Output, Params> {
  return tool;
}

/** The request log's view of a caller, looked up by the transport (the log stays out of tool threads). */
export interface CallerHistory {
  log: 'ok' | 'unavailable' | 'off';
  /** Why the log cannot say; null when it can. */
  reason: string | null;
  /** What the log says of the caller's address today; null when the log cannot say. */
  visitor: VisitorLookup | null;
}

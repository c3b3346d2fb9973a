import type { SiteSettings } from '../records/types.ts';
import type { Answer, Route } from '../routes.ts';
import type { ToolRunner } from '../tools/registry/runner.ts';
import type { LogViews, Visits } from './request-log.ts';
import type { DocumentStore } from './store.ts';

// What an answerer is given. The route table says how each path is answered (`answer.by`);
// each kind has one answerer, in the module that owns it, and handler.ts maps kinds to them.

/** The parts of the service, put together once by createApp. */
export interface Service {
  store: DocumentStore;
  site: SiteSettings;
  runner: ToolRunner;
  visits: Visits;
  views: LogViews;
  /** The client's address as the transport saw it, or null. */
  addressOf: (request: Request) => string | null;
}

/** A request once the handler has resolved its path. */
export interface Asked {
  request: Request;
  url: URL;
  /** The stored path (an alias resolved). */
  path: string;
  route: Route | undefined;
  /** The canonical address to name in the Link header, null when the request used it. */
  canonical: string | null;
  /** The head of the change feed, named in the Link header. */
  cursor: number;
  headers: Record<string, string>;
  /** The site as this client reached it: base_url is the origin it used (http/origin.ts). */
  here: SiteSettings;
}

export type Answerer<K extends Answer['by']> = (how: Extract<Answer, { by: K }>, asked: Asked, service: Service) => Promise<Response>;

/** One answerer per kind: a kind without one does not compile. */
export type Answerers = { [K in Answer['by']]: Answerer<K> };

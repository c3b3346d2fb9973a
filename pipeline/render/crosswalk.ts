// /data/crosswalk.json: every name of each peer dataset, mapped to the record that covers it or
// to the stated reason the index leaves it out. Built from the copies the repository keeps
// (records/peers.yaml, records/excluded.yaml, records/corpus/), so a build never reaches a peer.
//
// How a name is placed depends on what the peer gives:
//   - ai.robots.txt gives robots.txt names: a name is placed when a record answers to it (its
//     token, name, substring, an honoured token or an alias, ignoring case; records/peers.ts);
//     otherwise records/excluded.yaml says why, or it is unplaced.
//   - crawler-user-agents, well-known-bots and device-detector give real headers: a name is placed
//     on the records classify-ua names for its headers, or on the named clients (software, not one
//     operator's crawler) when no crawler matches; otherwise it is unplaced.
//   - isbot gives regex patterns and no headers: a pattern is run over every real bot header the
//     repository keeps (the three peers' and the records' own) and placed like a name with those
//     headers. A pattern with no literal name in it (`\(\)`, `^[\w\-]+/[\w]+$`) or whose headers
//     name more than GENERIC_LIMIT crawlers (`bots?`, `scan`, `\.com\b`) is a heuristic, not a
//     bot's name: it is counted as generic, not as placed.
// An unplaced name is a gap of the index, counted and listed, never hidden.

import type { Model } from '../model/model.ts';
import { buildClassifier, classify, type Classifier } from '../tools/classify/classify.ts';
import { PEERS_SOURCE, WELL_KNOWN_BOTS_SOURCE } from '../records/corpus.ts';
import { list as isbotPatterns } from 'isbot';
import { createRequire } from 'node:module';
import { namesOf } from '../records/peers.ts';
import { compareText } from '../util/compare.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { href } from '../paths.ts';
import { clientEntries } from './clients.ts';
import type { RenderedFile } from './output.ts';

interface Entry {
  name: string;
  /** Crawler slugs that cover it, most often one. */
  crawlers: string[];
  /** Named clients (records/clients.yaml) its headers are, when no crawler covers it. */
  clients: string[];
  /** Why the index leaves it out (records/excluded.yaml), or null. */
  reason: string | null;
  note: string | null;
  /** A pattern that matches the headers of many crawlers: a heuristic, not a bot's name (isbot only). */
  generic: boolean;
}

/** More crawlers than this behind one isbot pattern's headers make it a heuristic (see above). */
const GENERIC_LIMIT = 3;

const ISBOT_VERSION = (createRequire(import.meta.url)('isbot/package.json') as { version: string }).version;

const placed = (e: Entry) => !e.generic && e.crawlers.length > 0;

/** What classify-ua names for each of the headers: the crawlers, else the clients. */
function namedBy(classifier: Classifier, headers: readonly string[]): { crawlers: string[]; clients: string[] } {
  const crawlers = new Set<string>();
  const clients = new Set<string>();
  for (const header of headers) {
    const answer = classify(classifier, header);
    if (answer.matched) crawlers.add(answer.crawler.slug);
    else if (answer.client !== null) clients.add(answer.client.id);
  }
  return { crawlers: [...crawlers].sort(compareText), clients: crawlers.size > 0 ? [] : [...clients].sort(compareText) };
}

function summary(entries: readonly Entry[]) {
  const rest = entries.filter((e) => !placed(e) && !e.generic);
  return {
    names: entries.length,
    placed: entries.filter(placed).length,
    generic: entries.filter((e) => e.generic).length,
    clients: rest.filter((e) => e.clients.length > 0).length,
    excluded: rest.filter((e) => e.reason !== null).length,
    unplaced: rest.filter((e) => e.clients.length === 0 && e.reason === null).length,
  };
}

/** Whether a regex source holds a literal of two letters or digits outside escapes and character classes. */
function namesSomething(pattern: string): boolean {
  return /[A-Za-z0-9]{2,}/.test(pattern.replace(/\\./g, ' ').replace(/\[(?:\\.|[^\]])*\]/g, ' '));
}

/** isbot's patterns, each placed through the real bot headers it matches (see above). */
function isbotEntries(classifier: Classifier, headers: readonly string[]): Entry[] {
  return isbotPatterns.map((pattern) => {
    const regex = new RegExp(pattern, 'i');
    const named = namedBy(
      classifier,
      headers.filter((header) => regex.test(header)),
    );
    const literal = namesSomething(pattern);
    const generic = !literal || named.crawlers.length > GENERIC_LIMIT;
    const note = !literal ? 'names nothing: a shape of header, not a name' : generic ? `matches the headers of ${named.crawlers.length} crawlers` : null;
    return { name: pattern, ...named, reason: null, note, generic };
  });
}

/** One crosswalk per build's model: /data/coverage.json and the home page read its counts too. */
const built = new WeakMap<Model, ReturnType<typeof buildCrosswalk>>();

export function crosswalk(model: Model): ReturnType<typeof buildCrosswalk> {
  let walk = built.get(model);
  if (walk === undefined) {
    walk = buildCrosswalk(model);
    built.set(model, walk);
  }
  return walk;
}

function buildCrosswalk(model: Model) {
  const classifier = buildClassifier(model.crawlers, clientEntries(model));
  const answersTo = new Map<string, string[]>();
  for (const c of model.crawlers) for (const name of namesOf(c)) answersTo.set(name, [...new Set([...(answersTo.get(name) ?? []), c.slug])]);
  const excluded = new Map(model.peers.standing.excluded.map((e) => [e.name, e]));
  const aiList: Entry[] = model.peers.names.map((name) => {
    const why = excluded.get(name);
    return { name, crawlers: answersTo.get(name.toLowerCase()) ?? [], clients: [], reason: why?.reason ?? null, note: why?.note ?? null, generic: false };
  });
  const peerPatterns: Entry[] = model.corpus.peer_patterns.map((entry) => ({
    name: entry.pattern,
    ...namedBy(classifier, entry.instances),
    reason: null,
    note: null,
    generic: false,
  }));
  const wellKnown: Entry[] = model.corpus.well_known_bots.map((entry) => ({
    name: entry.id,
    ...namedBy(classifier, entry.instances),
    reason: null,
    note: entry.instances.length === 0 ? 'the entry gives no header' : null,
    generic: false,
  }));
  const byBotName = new Map<string, string[]>();
  for (const bot of model.corpus.bots.bots) byBotName.set(bot.name, [...(byBotName.get(bot.name) ?? []), bot.user_agent]);
  const bots: Entry[] = [...byBotName]
    .sort(([a], [b]) => compareText(a, b))
    .map(([name, headers]) => ({ name, ...namedBy(classifier, headers), reason: null, note: null, generic: false }));
  const ownHeaders = model.crawlers.flatMap((c) =>
    [c.user_agent_example, ...c.variants.map((v) => v.user_agent_example)].filter((h): h is string => h !== null),
  );
  const everyBotHeader = [
    ...new Set([
      ...model.corpus.bots.bots.map((b) => b.user_agent),
      ...model.corpus.peer_instances,
      ...model.corpus.well_known_bots.flatMap((e) => e.instances),
      ...ownHeaders,
    ]),
  ];
  const peer = (id: string, title: string, source: Record<string, string | number>, how: string, entries: Entry[]) => ({
    id,
    title,
    source,
    how,
    counts: summary(entries),
    entries,
  });
  return {
    note: 'Each name of each peer dataset, mapped to the crawler records that cover it, to the named clients its headers are (software, not one operator’s crawler), or to the reason the index leaves it out; an unplaced name is a gap of the index. Recomputed at every build from the copies kept in the repository.',
    peers: [
      peer(
        'ai-robots-txt',
        'ai.robots.txt (robots.json)',
        { url: model.peers.source.url, retrieved: model.peers.source.retrieved },
        'A robots.txt name is placed on the records that answer to it (token, name, substring, honoured token or alias, ignoring case); records/excluded.yaml gives the reason for a name left out.',
        aiList,
      ),
      peer(
        'crawler-user-agents',
        'monperrus/crawler-user-agents',
        { ...PEERS_SOURCE },
        'A pattern is placed on the records classify-ua names for its real headers (instances).',
        peerPatterns,
      ),
      peer(
        'well-known-bots',
        'arcjet/well-known-bots',
        { ...WELL_KNOWN_BOTS_SOURCE },
        'An entry is placed on the records classify-ua names for its real headers (instances.accepted).',
        wellKnown,
      ),
      peer(
        'isbot',
        'isbot (patterns)',
        { package: 'isbot', version: ISBOT_VERSION, licence: 'Unlicense' },
        `A pattern is placed on the records classify-ua names for the real bot headers it matches (the peers' and the records' own, ${everyBotHeader.length} distinct); one whose headers name more than ${GENERIC_LIMIT} crawlers is a heuristic, counted as generic.`,
        isbotEntries(classifier, everyBotHeader),
      ),
      peer(
        'device-detector-bots',
        'matomo device-detector, bot fixtures',
        model.corpus.bots.sources[0] ?? {},
        'A bot name is placed on the records classify-ua names for its real headers.',
        bots,
      ),
    ],
  };
}

export function renderCrosswalk(model: Model): RenderedFile[] {
  return [{ path: href('crosswalk'), kind: 'data', body: canonicalJson(crosswalk(model)) }];
}

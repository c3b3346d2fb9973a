// Cross-check against a peer dataset (monperrus/crawler-user-agents): real headers collected
// by another project must be classified as the crawler they were collected for.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildClassifier, classify } from './classify.ts';
import { BROWSER_USER_AGENTS } from '../browser-user-agents.ts';
import { peerEntries, realCrawlers, type PeerEntry } from '../../../test/support/classify-data.ts';
import type { CrawlerView } from '../../model/model.ts';

const crawlers = realCrawlers();
const classifier = buildClassifier(crawlers);
const indexed = crawlers.filter((c) => c.user_agent_substring !== null && c.user_agent_example !== null);
const peers = peerEntries();

/**
 * Peer instances that carry one of our substrings but belong to a different record, with the
 * record they belong to. Empty today: every instance checked resolves to its crawler or a more
 * specific sibling. Add an entry only with a reason; a listed instance that stops occurring fails.
 */
const BELONGS_ELSEWHERE = new Map<string, { slug: string; reason: string }>();

function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null; // A peer pattern our engine cannot read is the peer's business; it is counted, not checked.
  }
}

interface Check {
  crawler: CrawlerView;
  peerPattern: string;
  instance: string;
}

/** Each (crawler, peer instance) pair the cross-check covers. */
function checks(entries: readonly PeerEntry[]): { list: Check[]; invalidPatterns: number } {
  const compiled = entries.map((e) => ({ entry: e, re: compile(e.pattern) }));
  const list: Check[] = [];
  for (const crawler of indexed) {
    for (const { entry, re } of compiled) {
      if (re === null || !re.test(crawler.user_agent_example!)) continue;
      for (const instance of entry.instances) {
        if (instance.includes(crawler.user_agent_substring!)) list.push({ crawler, peerPattern: entry.pattern, instance });
      }
    }
  }
  return { list, invalidPatterns: compiled.filter((c) => c.re === null).length };
}

describe('classify: crawler-user-agents peer dataset', () => {
  const { list } = checks(peers);

  it('covers a meaningful number of peer headers', () => {
    assert.ok(list.length >= 100, `only ${list.length} peer instances were checked; the cross-check has gone vacuous`);
  });

  it('classifies each peer header as its crawler or a more specific sibling of the same operator', () => {
    const failures: string[] = [];
    for (const { crawler, peerPattern, instance } of list) {
      const answer = classify(classifier, instance);
      const got = answer.matched ? answer.crawler : null;
      if (got?.slug === crawler.slug) continue;
      const expectedElsewhere = BELONGS_ELSEWHERE.get(instance);
      if (got !== null && expectedElsewhere?.slug === got.slug) continue;
      // A sibling is acceptable only when it is more specific: its substring is longer than this
      // crawler's, or its own example carries this crawler's substring (classify.ts rules 2-3),
      // and this crawler was seen in the same header and outranked.
      if (answer.matched && answer.crawler.operator_slug === crawler.operator_slug) {
        const own = crawler.user_agent_substring!;
        const moreSpecific = answer.matched_substring.length > own.length || (classifier.embeds.get(answer.crawler.slug)?.has(own) ?? false);
        if (moreSpecific && answer.other_matches.some((o) => o.slug === crawler.slug)) continue;
      }
      failures.push(
        `${crawler.slug} (substring ${JSON.stringify(crawler.user_agent_substring)}, peer pattern /${peerPattern}/): ${JSON.stringify(instance)} -> ${got?.slug ?? 'unmatched'}`,
      );
    }
    assert.deepEqual(failures, [], `${failures.length} of ${list.length} peer headers misclassified:\n${failures.join('\n')}`);
  });

  it('still needs every listed exception', () => {
    const instances = new Set(list.map((c) => c.instance));
    for (const [instance, { slug }] of BELONGS_ELSEWHERE) {
      assert.ok(instances.has(instance), `exception no longer exercised: ${instance}`);
      const answer = classify(classifier, instance);
      assert.equal(answer.matched ? answer.crawler.slug : null, slug, instance);
    }
  });
});

describe('classify: our substrings against browser headers', () => {
  it('finds no substring of ours inside any browser header', () => {
    const hits = BROWSER_USER_AGENTS.flatMap((ua) =>
      crawlers
        .filter((c) => c.user_agent_substring !== null && ua.includes(c.user_agent_substring))
        .map((c) => `${c.slug} (${JSON.stringify(c.user_agent_substring)}) in ${ua}`),
    );
    assert.deepEqual(hits, []);
  });
});

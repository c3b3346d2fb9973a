import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { buildClassifier, classify } from '../pipeline/tools/classify/classify.ts';
import type { ClientEntry } from '../pipeline/tools/classify/clients.ts';
import { alternatives } from '../pipeline/render/server/accuracy.ts';
import { realCrawlers } from './support/classify-data.ts';
import { REPO } from './support/project.ts';

// People are never crawlers: classify-ua and every regex of /data/ua-regex.json, run over every
// real browser and app header of records/corpus/ (records/corpus/README.md gives where each came
// from: user-agents, top-user-agents, matomo device-detector's app fixtures), name none of them.
// The same figures, and the recall on device-detector's real bot headers, are published in
// /data/policy-accuracy.json at every build; this file recomputes them from the committed index
// by its own route and holds the two to each other.

const read = <T>(path: string): T => JSON.parse(readFileSync(`${REPO}${path}`, 'utf8')) as T;
const browsers = read<{ user_agents: string[] }>('records/corpus/browsers.json').user_agents;
const apps = read<{ user_agents: string[] }>('records/corpus/apps.json').user_agents;
const bots = read<{ bots: { user_agent: string; category: string | null }[] }>('records/corpus/bots.json').bots;
const clients = read<{ clients: ClientEntry[] }>('dist/data/clients.json').clients;
const regexes = read<{ all: string; by_category: Record<string, string> }>('dist/data/ua-regex.json');
const published = read<{
  recognition: {
    false_matches: Record<'browsers' | 'apps', { tested: number; classified_as_crawler: number; ua_regex_all_matched: number }>;
    bots: { tested: number; as_crawler: number; as_client: number; unidentified: number };
  };
}>('dist/data/policy-accuracy.json').recognition;

const classifier = buildClassifier(realCrawlers(), clients);

describe("people's headers are never taken for crawlers", () => {
  test(`the corpus holds at least 1,700 real browser and app headers (${browsers.length + apps.length})`, () => {
    assert.ok(browsers.length + apps.length >= 1_700);
    assert.ok(apps.length >= 1_000, 'the apps alone: messengers, editors, media players');
  });

  for (const [name, headers] of [
    ['browser', browsers],
    ['app', apps],
  ] as const) {
    test(`classify-ua names no crawler for any of the ${headers.length} ${name} headers`, () => {
      const named = headers.flatMap((ua) => {
        const answer = classify(classifier, ua);
        return answer.matched ? [`${answer.crawler.slug} <- ${ua}`] : [];
      });
      assert.deepEqual(named, []);
    });

    test(`no regex of /data/ua-regex.json matches any of the ${name} headers`, () => {
      // Every pattern of \`all\` is in one category's regex (below), so the category regexes
      // cover it; run alone, the one large alternation costs V8 about 0.7 ms a header.
      const matched = Object.entries(regexes.by_category).flatMap(([set, source]) => {
        const regex = new RegExp(source, 'i');
        return headers.filter((ua) => regex.test(ua)).map((ua) => `${set} <- ${ua}`);
      });
      assert.deepEqual(matched, []);
    });

    test(`/data/policy-accuracy.json publishes the same: ${headers.length} ${name} headers tested, none matched`, () => {
      const figures = published.false_matches[name === 'browser' ? 'browsers' : 'apps'];
      assert.deepEqual(figures, { ...figures, tested: headers.length, classified_as_crawler: 0, ua_regex_all_matched: 0 });
    });
  }

  test('the regex `all` joins exactly the patterns of the category regexes', () => {
    const parts = (source: string) => new Set(alternatives(source) ?? [source]);
    const fromCategories = new Set(Object.values(regexes.by_category).flatMap((source) => (source === '[^\\s\\S]' ? [] : [...parts(source)])));
    assert.deepEqual([...parts(regexes.all)].sort(), [...fromCategories].sort());
  });

  test("the app headers that share a crawler's token are told apart by the crawler's full forms", () => {
    // The WhatsApp app and WhatsApp's link preview both send WhatsApp/<version>; only the preview is a crawler.
    assert.equal(classify(classifier, 'WhatsApp/2.17.427 Android/7.0 Device/motorola-Moto_C_Plus').matched, false);
    const preview = classify(classifier, 'WhatsApp/2.19.258 A');
    assert.ok(preview.matched && preview.crawler.slug === 'whatsapp');
    assert.ok(apps.includes('WhatsApp/2.17.427 Android/7.0 Device/motorola-Moto_C_Plus'), 'the app header is in the corpus');
  });
});

describe('real bot headers are identified (recall)', () => {
  const answers = bots.map((bot) => classify(classifier, bot.user_agent));
  const asCrawler = answers.filter((a) => a.matched).length;
  const asClient = answers.filter((a) => !a.matched && a.client !== null).length;

  test(`/data/policy-accuracy.json publishes the recall recomputed here: ${asCrawler} as crawlers and ${asClient} as clients of ${bots.length}`, () => {
    assert.deepEqual(published.bots, {
      ...published.bots,
      tested: bots.length,
      as_crawler: asCrawler,
      as_client: asClient,
      unidentified: bots.length - asCrawler - asClient,
    });
  });

  test('at least half of the real bot headers are named, as a crawler or a client (703 of 1,341 when this was written)', () => {
    assert.ok(asCrawler + asClient >= 700, `${asCrawler + asClient} of ${bots.length}`);
  });
});

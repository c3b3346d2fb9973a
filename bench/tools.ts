// The tools' hot paths, each beside a baseline measured in the same run on the same input.
import { readFileSync } from 'node:fs';
import { isbot } from 'isbot';
import type { CrawlerView } from '../pipeline/model/model.ts';
import { buildClassifier, classify } from '../pipeline/tools/classify/index.ts';
import { evaluateMany, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import { benchFile } from './tools/robots.bench.ts';
import { benchChecksInARow, benchSingleCheck, robotsParser } from './tools/single-check.bench.ts';
import { benchVerify } from './tools/verify.bench.ts';
import { benchLogWrites } from './tools/log-write.bench.ts';
import { READ_EVERY_MS } from '../pipeline/node/threaded-log.ts';
import { BROWSER_USER_AGENTS } from '../pipeline/tools/browser-user-agents.ts';
import { fastest } from './figure.ts';

export interface Figure {
  task: string;
  ours: string;
  baseline: string;
  ratio: string;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

export function toolFigures(root: string): Figure[] {
  const figures: Figure[] = [];

  // What one question costs: a real file parsed and one path checked (bench/single-check.test.ts
  // checks that both answer alike on the whole corpus).
  const single = benchSingleCheck();
  figures.push({
    task: `robots.txt: ${single.checks} single checks (a real file parsed + 1 path, ${single.files} files)`,
    ours: ms(single.ours_ms),
    baseline: `${ms(single.theirs_ms)} (robots-parser)`,
    ratio: `${(single.theirs_ms / single.ours_ms).toFixed(2)}x`,
  });

  const inARow = benchChecksInARow();
  figures.push({
    task: `robots.txt: ${inARow.checks.toLocaleString('en')} single checks in a row (as a server answers them)`,
    ours: ms(inARow.ours_ms),
    baseline: `${ms(inARow.theirs_ms)} (robots-parser)`,
    ratio: `${(inARow.theirs_ms / inARow.ours_ms).toFixed(2)}x`,
  });

  const file = benchFile();
  const paths = Array.from({ length: 200 }, (_, i) => `/section${i % 40}/page${i}.html?x=${i}`);
  const ours = fastest(5, () => evaluateMany(parseRobotsTxt(file), 'GPTBot', paths));
  const theirs = fastest(5, () => {
    const robots = robotsParser('https://example.org/robots.txt', file);
    for (const path of paths) robots.isAllowed(`https://example.org${path}`, 'GPTBot');
  });
  figures.push({
    task: `robots.txt: parse ${Math.round(file.length / 1024)} KiB + evaluate 200 paths`,
    ours: ms(ours),
    baseline: `${ms(theirs)} (robots-parser)`,
    ratio: `${(theirs / ours).toFixed(2)}x`,
  });

  const agents = JSON.parse(readFileSync(`${root}/dist/data/agents.json`, 'utf8')) as { crawlers: CrawlerView[] };
  const classifier = buildClassifier(agents.crawlers);
  const headers = [...agents.crawlers.flatMap((c) => (c.user_agent_example ? [c.user_agent_example] : [])), ...BROWSER_USER_AGENTS];
  const batch = Array.from({ length: 20_000 }, (_, i) => headers[i % headers.length]!);
  const classified = fastest(3, () => {
    for (const ua of batch) classify(classifier, ua);
  });
  const isbotOnly = fastest(3, () => {
    for (const ua of batch) isbot(ua);
  });
  figures.push({
    task: `classify 20,000 User-Agents (crawler examples and browsers)`,
    ours: `${ms(classified)} (full answer)`,
    baseline: `${ms(isbotOnly)} (isbot's regex, yes/no only)`,
    ratio: `${(isbotOnly / classified).toFixed(2)}x`,
  });

  for (const result of benchVerify(20)) {
    figures.push({
      task: result.name,
      ours: ms(result.ms),
      baseline: `${ms(result.baseline_ms)} (linear scan with ipaddr.js)`,
      ratio: `${(result.baseline_ms / result.ms).toFixed(2)}x`,
    });
  }
  const log = benchLogWrites();
  figures.push({
    task:
      `request log: ${log.rows.toLocaleString('en')} rows written on its thread in batches of ${READ_EVERY_MS} ms, from ${log.addresses.toLocaleString('en')} addresses ` +
      `(from 1 address: ${ms(log.oneAddressMs)})`,
    ours: ms(log.manyAddressesMs),
    baseline: `${ms(log.baselineMs)} (better-sqlite3 INSERTs, no index)`,
    ratio: `${(log.baselineMs / log.manyAddressesMs).toFixed(2)}x`,
  });
  return figures;
}

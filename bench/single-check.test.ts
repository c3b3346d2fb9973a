import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { evaluate, evaluateMany, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import { BENCH_ORIGIN, BENCH_TOKENS, benchCorpus, robotsParser } from './tools/single-check.bench.ts';

// What npm run bench times beside robots-parser must be the same answers: every check of the
// bench corpus (real files, paths from their own rules) is allowed or disallowed alike by both,
// and one path asked alone (read in file order) gets the verdict it gets among all the file's
// paths (read longest rule first). Timings are printed by the bench, never tested.

test('the bench corpus: this evaluator and robots-parser give the same verdict on every check', () => {
  const differ: string[] = [];
  let checks = 0;
  for (const { file, text, paths } of benchCorpus()) {
    const ours = parseRobotsTxt(text);
    const theirs = robotsParser(`${BENCH_ORIGIN}/robots.txt`, text);
    for (const token of BENCH_TOKENS)
      for (const path of paths) {
        checks += 1;
        if (evaluate(ours, token, path).allowed !== theirs.isAllowed(`${BENCH_ORIGIN}${path}`, token)) differ.push(`${file} ${token} ${path}`);
      }
  }
  assert.ok(checks > 1000, `${checks} checks`);
  assert.deepEqual(differ, []);
});

test("the bench corpus: a path asked alone gets the same whole verdict as among all of its file's paths", () => {
  for (const { file, text, paths } of benchCorpus()) {
    for (const token of BENCH_TOKENS) {
      const together = evaluateMany(parseRobotsTxt(text), token, paths);
      // Another parse: what one path's search remembers must not answer for the other.
      const alone = parseRobotsTxt(text);
      for (const [i, path] of paths.entries()) assert.deepEqual(evaluate(alone, token, path), together[i], `${file} ${token} ${path}`);
    }
  }
});

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { lintTool } from '../pipeline/tools/definitions/lint-robots-txt.ts';
import { mergePolicyTool } from '../pipeline/tools/definitions/merge-policy.ts';
import { POLICY_IDS } from '../pipeline/records/types.ts';
import type { ToolData } from '../pipeline/tools/registry/index.ts';
import { FIXTURES, REPO } from './support/project.ts';
import { publishedToolData } from './support/tool-data.ts';

// A ready-made policy never makes a real robots.txt worse by the project's own linter: every
// policy as published (dist/robots/{id}.txt) is appended to, and merged into, every real file
// in test/fixtures/robots/ (README.md there gives each copy's source), and the linter's errors
// and warnings are compared with the file's own.

const ROBOTS = join(FIXTURES, 'robots');
const FILES = readdirSync(ROBOTS).filter((f) => f.endsWith('.txt'));
const caller = { userAgent: null, address: null };

let data: ToolData;
before(async () => {
  data = await publishedToolData(REPO);
});

type Finding = { line: number | null; severity: string; code: string; message: string };
const lint = (robots: string) => lintTool.run({ robots_txt: robots }, { data, caller }).findings as Finding[];
const serious = (findings: readonly Finding[]) => findings.filter((f) => f.severity !== 'info');
const fragment = (policy: string) => readFileSync(join(REPO, 'dist', 'robots', `${policy}.txt`), 'utf8');
const described = (f: Finding) => `line ${f.line} ${f.severity} ${f.code}: ${f.message}`;

test('the real files are many and varied enough to test against', () => {
  assert.ok(FILES.length >= 12, `${FILES.length} files`);
});

test('each policy alone lints with no error or warning', () => {
  for (const policy of POLICY_IDS) assert.deepEqual(serious(lint(fragment(policy))).map(described), [], policy);
});

for (const file of FILES) {
  test(`${file}: appending any policy adds no error or warning, except a second group for a crawler the file already names`, () => {
    const own = readFileSync(join(ROBOTS, file), 'utf8');
    const ownLines = own.split('\n').length - (own.endsWith('\n') ? 1 : 0);
    const before = serious(lint(own)).map(described);
    for (const policy of POLICY_IDS) {
      const after = serious(lint(`${own}${own.endsWith('\n') ? '' : '\n'}\n${fragment(policy)}`));
      assert.deepEqual(
        after.filter((f) => f.line !== null && f.line <= ownLines).map(described),
        before.filter((f) => !f.startsWith('line null')),
        `${file} + ${policy}: the file's own lines lint as before`,
      );
      // Only the file can hold the first group: what parsers that stop at it do is why merge_policy exists.
      const added = after.filter((f) => f.line === null || f.line > ownLines);
      const unexplained = added.filter((f) => f.code !== 'duplicate-group' || Number(/group at line (\d+)/.exec(f.message)?.[1]) > ownLines);
      assert.deepEqual(unexplained.map(described), [], `${file} + ${policy}`);
    }
  });

  test(`${file}: merging any policy with merge_policy adds no error or warning`, () => {
    const own = readFileSync(join(ROBOTS, file), 'utf8');
    const count = (findings: readonly Finding[]) => {
      const byCode = new Map<string, number>();
      for (const f of serious(findings)) byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
      return Object.fromEntries([...byCode].sort());
    };
    const before = count(lint(own));
    for (const policy of POLICY_IDS) {
      const merged = mergePolicyTool.run({ robots_txt: own, policy }, { data, caller }).robots_txt;
      assert.deepEqual(count(lint(merged)), before, `${file} + ${policy}`);
    }
  });
}

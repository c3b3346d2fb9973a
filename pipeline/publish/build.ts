import { join } from 'node:path';
import {
  buildLedger,
  ledgerJson,
  ledgerText,
  LEDGER_JSON,
  LEDGER_TXT,
  fileEtagOf,
  parsePreviousLedger,
  stampFiles,
  type StampedFile,
} from '../ledger/ledger.ts';
import { etagOf } from '../util/sha256.ts';
import { buildModel, modelChangesAt, type Model } from '../model/model.ts';
import { checkRecords } from '../records/check.ts';
import { readRecordFiles } from '../records/load.ts';
import { readCorpus } from '../records/corpus.ts';
import type { Problem } from '../records/types.ts';
import { renderByModule, type RendererRun } from '../render/index.ts';
import type { RenderedFile } from '../render/output.ts';
import { findRoute } from '../routes.ts';
import { describeErrors, readSchemas, validatorFor } from '../schema/ajv.ts';
import { readDirectoryState, readMirrorState } from '../state/mirror.ts';
import { readCheckedTimes } from '../state/checked.ts';
import { eventsSincePublished, readEventLog, writeEventLog } from '../state/events.ts';
import { writeDist, type DistFile } from './write-dist.ts';
import { BuildError } from '../records/build-error.ts';
import { describePlan, planDistRecovery, recoverDist } from './recover-dist.ts';
import { readTextIfExists } from '../util/read-if-exists.ts';
import { buildInputs } from './build-inputs.ts';

export { BuildError };

export interface BuildOptions {
  root: string;
  distDir?: string;
  baseUrl?: string;
  /** The time written for content that changed in this build; injected so tests are repeatable. */
  now?: string;
  log?: (line: string) => void;
  /** Render and validate everything, report what would change, write nothing. */
  dryRun?: boolean;
}

export interface BuildResult {
  model: Model;
  files: DistFile[];
  written: boolean;
  /** Paths added, changed or removed compared with the previous ledger (the ledger files excluded). */
  changed: string[];
  /** Each renderer that ran, with the paths it made: what a route's `writtenBy` must name (test/outputs.test.ts). */
  renderers: RendererRun[];
  /**
   * The first moment (ISO 8601) a build from the same inputs would write different bytes, as
   * time alone changes what it renders (a key flagged as expiring, security.txt renewed); null
   * when nothing rendered depends on the time.
   */
  rendersSameUntil: string | null;
}

/** The earliest time the model or a self-renewing body would render differently (see BuildResult). */
function rendersSameUntil(model: Model, rendered: readonly RenderedFile[], stamped: readonly StampedFile[]): string | null {
  const stampOf = new Map(stamped.map((file) => [file.path, file.entry.last_modified]));
  const renewals = rendered.flatMap((file) => {
    const stamp = stampOf.get(file.path);
    return file.renewsAt === undefined || stamp === undefined ? [] : [file.renewsAt(stamp)];
  });
  const times = [modelChangesAt(model), ...renewals].filter((time): time is number => time !== null && Number.isFinite(time));
  return times.length === 0 ? null : new Date(Math.min(...times)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Every rendered JSON document must satisfy the schema its route promises before anything is
 * written; a JSON document with no route (so no promised shape) is a fault too.
 */
function outputProblems(files: readonly { path: string; kind: string; bytes: Uint8Array }[]): Problem[] {
  const decoder = new TextDecoder();
  return files.flatMap((file) => {
    if (!file.path.endsWith('.json')) return [];
    const schema = findRoute(file.path)?.schema;
    if (!schema) return [{ file: `dist${file.path}`, path: '/', message: 'no route in pipeline/routes.ts names an output schema for this JSON document' }];
    const validate = validatorFor(`outputs/${schema}.schema.json`);
    return validate(JSON.parse(decoder.decode(file.bytes))) ? [] : describeErrors(validate.errors).map((e) => ({ file: `dist${file.path}`, ...e }));
  });
}

/** Puts dist/ back in order after a stopped build; the previous ledger is then read from it. */
async function recoveredDist(distDir: string, log: (line: string) => void): Promise<string> {
  const recovered = await recoverDist(distDir);
  if (recovered) log(recovered);
  return distDir;
}

/** A dry run changes nothing, so it reads the previous ledger from where a recovery would take it. */
async function plannedDist(distDir: string, log: (line: string) => void): Promise<string> {
  const plan = await planDistRecovery(distDir);
  const action = describePlan(plan);
  if (action) log(`dry run: a build would first recover from a stopped build (${action})`);
  return plan.restore?.path ?? distDir;
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  const distDir = options.distDir ?? join(options.root, 'dist');
  const now = options.now ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  const inputs = buildInputs(options.root);
  log('reading records');
  const checked = checkRecords(await readRecordFiles(inputs.records, options.root));
  if (!checked.ok) throw new BuildError(checked.problems);
  const records = options.baseUrl ? { ...checked.records, site: { ...checked.records.site, base_url: options.baseUrl.replace(/\/+$/, '') } } : checked.records;

  const { corpus, problems: corpusProblems } = await readCorpus(join(inputs.records, 'corpus'), options.root);
  if (corpus === null) throw new BuildError(corpusProblems);

  const mirror = {
    lists: await readMirrorState(inputs.mirror),
    directories: await readDirectoryState(inputs.directories),
    checked: await readCheckedTimes(inputs.checked),
    now,
  };
  const eventsPath = inputs.events;
  let events = await readEventLog(eventsPath);
  const draft = buildModel(records, mirror, events, readSchemas(), corpus);
  events = await eventsSincePublished(events, draft, { root: options.root, distDir, baseUrl: records.site.base_url, now });
  const model = { ...draft, log: events };
  log(`model: ${model.crawlers.length} crawlers, ${model.operators.length} operators, ${model.sources.length} sources, change cursor ${events.head}`);

  // A build killed mid-swap may have left no dist/; put the tree back first, or the previous
  // ledger is lost and every document's last_modified becomes now.
  const previousDir = options.dryRun ? await plannedDist(distDir, log) : await recoveredDist(distDir, log);
  // No ledger yet is a first build; a ledger that cannot be read stops the build, since reading it as absent would reset every date.
  const previousText = await readTextIfExists(join(previousDir, LEDGER_JSON));
  const { entries: previous, warning } = parsePreviousLedger(previousText);
  if (warning) log(`warning: ${warning}`);
  const byModule = renderByModule(model, now);
  const renderers = byModule.map(({ module, render, files }) => ({ module, render, paths: files.map((f) => f.path) }));
  const renderedFiles = byModule.flatMap(({ files }) => files);
  const stamped = stampFiles(renderedFiles, previous, now);
  const ledger = buildLedger(stamped, now);
  const encoder = new TextEncoder();
  const ledgerFiles = [
    { path: LEDGER_JSON, kind: 'ledger', bytes: encoder.encode(ledgerJson(ledger)) },
    { path: LEDGER_TXT, kind: 'ledger-text', bytes: encoder.encode(ledgerText(ledger, model.site.name)) },
  ];
  const all = [...stamped.map(({ path, kind, bytes }) => ({ path, kind, bytes })), ...ledgerFiles];

  const invalid = outputProblems(all);
  if (invalid.length > 0) throw new BuildError(invalid);

  const rendered = new Set(stamped.map((f) => f.path));
  const removed = [...previous.keys()].filter((path) => !rendered.has(path));
  const changed = [...stamped.filter((f) => fileEtagOf(previous.get(f.path)) !== etagOf(f.bytes)).map((f) => f.path), ...removed].sort();
  const files = all.map(({ path, bytes }) => ({ path, bytes }));
  const until = rendersSameUntil(model, renderedFiles, stamped);
  if (!options.dryRun && (await writeEventLog(eventsPath, events))) log(`recorded change events up to cursor ${events.head} in state/events.json`);
  if (options.dryRun) {
    log(`dry run: ${changed.length} of ${files.length} files would change`);
    return { model, files, written: false, changed, renderers, rendersSameUntil: until };
  }
  const written = await writeDist(distDir, files);
  log(written ? `wrote ${files.length} files (${changed.length} changed) to ${distDir}` : `no change: ${distDir} already holds these ${files.length} files`);
  return { model, files, written, changed, renderers, rendersSameUntil: until };
}

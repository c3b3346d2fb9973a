import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildLedger, ledgerJson, ledgerText, LEDGER_JSON, LEDGER_TXT, parsePreviousLedger, stampFiles } from '../ledger/ledger.ts';
import { etagOf } from '../ledger/etag.ts';
import { buildModel, type Model } from '../model/model.ts';
import { checkRecords, formatProblem } from '../records/check.ts';
import { readRecordFiles } from '../records/load.ts';
import type { Problem } from '../records/types.ts';
import { renderAll, schemaForFile } from '../render/index.ts';
import { describeErrors, validatorFor } from '../schema/ajv.ts';
import { readMirrorState } from './mirror-state.ts';
import { writeDist, type DistFile } from './write-dist.ts';

export interface BuildOptions {
  root: string;
  distDir?: string;
  baseUrl?: string;
  /** The time written for content that changed in this build; injected so tests are repeatable. */
  now?: string;
  log?: (line: string) => void;
}

export interface BuildResult {
  model: Model;
  files: DistFile[];
  written: boolean;
  changed: string[];
}

export class BuildError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map(formatProblem).join('\n')}`);
  }
}

/** Every rendered JSON document must satisfy its output schema before anything is written. */
function outputProblems(files: readonly { path: string; kind: string; bytes: Uint8Array }[]): Problem[] {
  const decoder = new TextDecoder();
  return files.flatMap((file) => {
    const schema = schemaForFile(file.kind, file.path);
    if (!schema) return [];
    const validate = validatorFor(schema);
    return validate(JSON.parse(decoder.decode(file.bytes))) ? [] : describeErrors(validate.errors).map((e) => ({ file: `dist${file.path}`, ...e }));
  });
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  const distDir = options.distDir ?? join(options.root, 'dist');
  const now = options.now ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  log('reading records');
  const checked = checkRecords(await readRecordFiles(join(options.root, 'records'), options.root));
  if (!checked.ok) throw new BuildError(checked.problems);
  const records = options.baseUrl ? { ...checked.records, site: { ...checked.records.site, base_url: options.baseUrl.replace(/\/+$/, '') } } : checked.records;

  const mirror = await readMirrorState(join(options.root, 'state', 'mirror'));
  const model = buildModel(records, mirror);
  log(`model: ${model.crawlers.length} crawlers, ${model.operators.length} operators, ${model.sources.length} sources`);

  const previousText = await readFile(join(distDir, LEDGER_JSON), 'utf8').catch(() => null);
  const previous = parsePreviousLedger(previousText);
  const stamped = stampFiles(renderAll(model), previous, now);
  const ledger = buildLedger(stamped, now);
  const encoder = new TextEncoder();
  const ledgerFiles = [
    { path: LEDGER_JSON, kind: 'ledger', bytes: encoder.encode(ledgerJson(ledger)) },
    { path: LEDGER_TXT, kind: 'ledger-text', bytes: encoder.encode(ledgerText(ledger, model.site.name)) },
  ];
  const all = [...stamped.map(({ path, kind, bytes }) => ({ path, kind, bytes })), ...ledgerFiles];

  const invalid = outputProblems(all);
  if (invalid.length > 0) throw new BuildError(invalid);

  const changed = stamped.filter((f) => previous.get(f.path)?.etag !== etagOf(f.bytes)).map((f) => f.path);
  const files = all.map(({ path, bytes }) => ({ path, bytes }));
  const written = await writeDist(distDir, files);
  log(written ? `wrote ${files.length} files (${changed.length} changed) to ${distDir}` : `no change: ${distDir} already holds these ${files.length} files`);
  return { model, files, written, changed };
}

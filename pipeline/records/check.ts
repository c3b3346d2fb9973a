import { describeErrors, validatorFor } from '../schema/ajv.ts';
import { checkCitations } from './checks/citations.ts';
import { checkClients } from './checks/clients.ts';
import { checkDirectories } from './checks/directories.ts';
import { checkHeaderLinks } from './checks/header-links.ts';
import { checkPeers } from './checks/peers.ts';
import { checkOtherNames } from './checks/other-names.ts';
import { checkLifecycle } from './checks/lifecycle.ts';
import { checkProductTokens } from './checks/product-token.ts';
import { checkReferences } from './checks/references.ts';
import { checkUnique } from './checks/unique.ts';
import { checkUserAgents } from './checks/user-agents.ts';
import { checkSpecificSubstrings } from './checks/specific-substring.ts';
import { toRecordSet, type LoadedFiles } from './load.ts';
import type { Problem, RecordFile, RecordSet } from './types.ts';

export function schemaProblems(files: readonly RecordFile[]): Problem[] {
  return files.flatMap((file) => {
    const validate = validatorFor(`records/${file.schema}.schema.json`);
    return validate(file.data) ? [] : describeErrors(validate.errors).map((error) => ({ file: file.file, ...error }));
  });
}

function semanticProblems(records: RecordSet, files: readonly RecordFile[]): Problem[] {
  return [
    ...checkUnique(records),
    ...checkReferences(records, files),
    ...checkDirectories(records),
    ...checkProductTokens(records),
    ...checkUserAgents(records),
    ...checkSpecificSubstrings(records),
    ...checkOtherNames(records),
    ...checkLifecycle(records),
    ...checkCitations(records),
    ...checkHeaderLinks(records),
    ...checkClients(records),
    ...checkPeers(records),
  ];
}

export type CheckResult = { ok: true; records: RecordSet } | { ok: false; problems: Problem[] };

/**
 * Schema first: semantic checks read fields that only a valid record is sure to have, so they
 * run once every file is valid. Every problem is collected, none thrown.
 */
export function checkRecords(loaded: LoadedFiles): CheckResult {
  const early = [...loaded.problems, ...schemaProblems(loaded.files)];
  if (early.length > 0) return { ok: false, problems: early };
  const records = toRecordSet(loaded.files);
  const problems = semanticProblems(records, loaded.files);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, records };
}

export function formatProblem(problem: Problem): string {
  return `${problem.file}: ${problem.path}: ${problem.message}`;
}

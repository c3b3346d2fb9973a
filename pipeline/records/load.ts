import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import type { DirectoryRow, Problem, RecordFile, RecordSchemaName, RecordSet, SourceRow } from './types.ts';
import type { SourcesSchema } from './schema-types.ts';
import { compareText } from '../util/compare.ts';

const SINGLE_FILES: ReadonlyArray<[string, RecordSchemaName]> = [
  ['site.yaml', 'site'],
  ['categories.yaml', 'categories'],
  ['policies.yaml', 'policies'],
  ['sources.yaml', 'sources'],
  ['clients.yaml', 'clients'],
  ['peers.yaml', 'peers'],
  ['excluded.yaml', 'excluded'],
];

const FOLDERS: ReadonlyArray<[string, RecordSchemaName]> = [
  ['crawlers', 'crawler'],
  ['operators', 'operator'],
];

export interface LoadedFiles {
  files: RecordFile[];
  /** YAML that could not be read or parsed: reported like any other problem, never thrown. */
  problems: Problem[];
}

/** Reads every record file under `dir`. The root is kept so that messages show repo-relative paths. */
export async function readRecordFiles(dir: string, root = process.cwd()): Promise<LoadedFiles> {
  const files: RecordFile[] = [];
  const problems: Problem[] = [];
  const show = (path: string) => relative(root, path) || path;

  const readOne = async (path: string, schema: RecordSchemaName) => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      problems.push({ file: show(path), path: '', message: `cannot read: ${(error as Error).message}` });
      return;
    }
    try {
      files.push({ file: show(path), schema, data: parse(text, { prettyErrors: true, uniqueKeys: true }) as unknown });
    } catch (error) {
      problems.push({ file: show(path), path: '', message: `not valid YAML: ${(error as Error).message.split('\n')[0]}` });
    }
  };

  for (const [name, schema] of SINGLE_FILES) await readOne(join(dir, name), schema);
  for (const [folder, schema] of FOLDERS) {
    const names = (await readdir(join(dir, folder))).filter((name) => name.endsWith('.yaml')).sort();
    for (const name of names) await readOne(join(dir, folder, name), schema);
  }
  return { files, problems };
}

/** Assembles validated files into a RecordSet. Call only after checkRecords found no problem. */
export function toRecordSet(files: readonly RecordFile[]): RecordSet {
  const of = <T>(schema: RecordSchemaName): T[] => files.filter((f) => f.schema === schema).map((f) => f.data as T);
  const single = <T>(schema: RecordSchemaName): T => {
    const found = of<T>(schema)[0];
    if (found === undefined) throw new Error(`records: no ${schema} file`);
    return found;
  };
  const sources = [...single<SourcesSchema>('sources')].sort((a, b) => compareText(a.id, b.id));
  const bySlug = <T extends { slug: string }>(list: T[]) => [...list].sort((a, b) => compareText(a.slug, b.slug));
  return {
    site: single('site'),
    crawlers: bySlug(of('crawler')),
    operators: bySlug(of('operator')),
    categories: single('categories'),
    policies: single('policies'),
    sources: sources.filter((row): row is SourceRow => !('kind' in row)),
    directories: sources.filter((row): row is DirectoryRow => 'kind' in row),
    clients: [...single<RecordSet['clients']>('clients')].sort((a, b) => compareText(a.id, b.id)),
    peers: single('peers'),
    excluded: single('excluded'),
  };
}

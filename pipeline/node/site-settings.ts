// The server's site settings (records/site.yaml), checked against their schema before it serves.
//
// Parsing YAML and compiling the schema's validator cost a start about a tenth of a second on
// Node 20, each time for the same few lines. So the settings a check passed are kept in the
// project's .cache/, under a digest of the file's bytes and of the schema's, and read back as
// JSON while neither changes; any other file is checked again. Where .cache/ cannot be written,
// every start checks.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteSettings } from '../records/types.ts';

const SITE_SCHEMA = 'records/site.schema.json';
// Two folders below the project, as schema/ajv.ts finds the schemas.
const SITE_SCHEMA_FILE = fileURLToPath(new URL(`../../schemas/${SITE_SCHEMA}`, import.meta.url));

interface Kept {
  key: string;
  settings: SiteSettings;
}

/** The settings in `<root>/records/site.yaml`; throws, naming the file and each field, where they break the schema. */
export async function readSite(root: string): Promise<SiteSettings> {
  const file = join(root, 'records', 'site.yaml');
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    throw new Error(
      `${file} does not exist: the server reads the site's settings there, so --root must name a project folder holding records/site.yaml and dist/`,
    );
  });
  const key = createHash('sha256').update(bytes).update('\0').update(readFileSync(SITE_SCHEMA_FILE)).digest('hex');
  const keptFile = join(root, '.cache', 'site-settings.json');
  const kept = readKept(keptFile);
  if (kept?.key === key) return kept.settings;
  const settings = await checked(file, bytes.toString('utf8'));
  keep(keptFile, { key, settings });
  return settings;
}

/** Parsed and validated; the parser and the validator are loaded only here. */
async function checked(file: string, text: string): Promise<SiteSettings> {
  const [{ parse }, { describeErrors, selfContainedValidator }] = await Promise.all([import('yaml'), import('../schema/ajv.ts')]);
  const data = parse(text) as unknown;
  const validate = selfContainedValidator(SITE_SCHEMA);
  if (!validate(data))
    throw new Error(
      `${file}: ${describeErrors(validate.errors)
        .map((e) => `${e.path} ${e.message}`)
        .join('; ')}`,
    );
  return data as SiteSettings;
}

function readKept(file: string): Kept | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Kept;
  } catch {
    return null;
  }
}

function keep(file: string, kept: Kept): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    // Renamed into place, so that a start reading it meanwhile sees the old file or the new one whole.
    const written = `${file}.${process.pid}.tmp`;
    writeFileSync(written, JSON.stringify(kept));
    renameSync(written, file);
  } catch {
    // A read-only .cache/: the next start checks again.
  }
}

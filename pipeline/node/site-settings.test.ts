import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { readSite } from './site-settings.ts';

// The server checks records/site.yaml with the site schema compiled on its own (a cold start
// does not register every schema): a file that breaks it still stops the start with the field named.
test('readSite returns valid settings and refuses a site.yaml that breaks its schema, naming the file and the field', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'site-settings-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'records'));
  const settings = parse(await readFile(fileURLToPath(new URL('../../records/site.yaml', import.meta.url)), 'utf8')) as Record<string, unknown>;
  await writeFile(join(root, 'records', 'site.yaml'), stringify(settings));
  assert.equal((await readSite(root)).base_url, settings['base_url']);
  await writeFile(join(root, 'records', 'site.yaml'), stringify({ ...settings, base_url: 42 }));
  await assert.rejects(readSite(root), /site\.yaml: \/base_url must be string/);
});

test('settings a check passed are read back from .cache/ while the file and its schema stand; any change is checked again', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'site-settings-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'records'));
  const site = join(root, 'records', 'site.yaml');
  const settings = parse(await readFile(fileURLToPath(new URL('../../records/site.yaml', import.meta.url)), 'utf8')) as Record<string, unknown>;
  await writeFile(site, stringify(settings));
  await readSite(root);
  const keptFile = join(root, '.cache', 'site-settings.json');
  const kept = JSON.parse(await readFile(keptFile, 'utf8')) as { key: string; settings: Record<string, unknown> };
  assert.deepEqual(kept.settings, settings);
  // What is kept is what the next start reads, unchecked: a changed copy under the same key shows it.
  await writeFile(keptFile, JSON.stringify({ key: kept.key, settings: { ...settings, name: 'Read back' } }));
  assert.equal((await readSite(root)).name, 'Read back');
  // Another file (here one that breaks the schema) has another key, and is checked.
  await writeFile(site, stringify({ ...settings, base_url: 42 }));
  await assert.rejects(readSite(root), /site\.yaml: \/base_url must be string/);
  // A kept file that is not JSON is no answer either.
  await writeFile(site, stringify(settings));
  await writeFile(keptFile, '{ not json');
  assert.equal((await readSite(root)).name, settings['name']);
});

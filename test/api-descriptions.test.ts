import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { parse } from 'yaml';
import type { RunningServer } from '../pipeline/node/server.ts';
import { EXTENSION_PREFIX } from '../pipeline/render/swagger.ts';
import { serveTree } from './support/served.ts';
import { REPO } from './support/project.ts';

// The API descriptions as the tools people use read them: fetched from the running server over
// a socket, then parsed by swagger-parser (OpenAPI 3.1 and Swagger 2.0), linted by Redocly's
// recommended rules and turned into TypeScript by openapi-typescript.

const run = promisify(execFile);
type Json = Record<string, unknown>;

let server: RunningServer;
let scratch: string;
const served = new Map<string, string>();

before(async () => {
  server = await serveTree(REPO);
  scratch = await mkdtemp(join(tmpdir(), 'api-descriptions-'));
  for (const path of ['/openapi.json', '/openapi.yaml', '/swagger.json']) {
    const response = await fetch(server.url + path);
    assert.equal(response.status, 200, path);
    served.set(path, await response.text());
  }
});
after(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

const openapi = () => JSON.parse(served.get('/openapi.json')!) as Json;
const swagger = () => JSON.parse(served.get('/swagger.json')!) as Json;
/** /openapi.yaml parsed once (half a megabyte of YAML takes the parser most of a second); each caller gets its own copy. */
let yamlForm: Json | undefined;
const openapiYaml = () => structuredClone((yamlForm ??= parse(served.get('/openapi.yaml')!) as Json));

test('/openapi.yaml is the same object as /openapi.json', () => {
  assert.deepEqual(openapiYaml(), openapi());
});

test('swagger-parser validates the OpenAPI 3.1 document, its YAML form and the Swagger 2.0 conversion', async () => {
  for (const [path, document] of [
    ['/openapi.json', openapi()],
    ['/openapi.yaml', openapiYaml()],
    ['/swagger.json', swagger()],
  ] as const) {
    await assert.doesNotReject(SwaggerParser.validate(document as never), path);
  }
});

interface LintReport {
  problems: { severity: string; ruleId: string; message: string }[];
}

test('Redocly lint (recommended rules) finds no error in either description', async () => {
  const described = [
    ['/openapi.json', 'openapi.json'],
    ['/swagger.json', 'swagger.json'],
  ] as const;
  const files = described.map(([, name]) => join(scratch, name));
  for (const [index, [path]] of described.entries()) await writeFile(files[index]!, served.get(path)!);
  // One run lints both files (starting the CLI is most of a lint's CPU). Exit status 1 means
  // errors were found; the JSON report says which.
  const result = await run(join(REPO, 'node_modules', '.bin', 'redocly'), ['lint', ...files, '--format=json', '--max-problems=5000'], {
    cwd: scratch,
    maxBuffer: 64 * 1024 * 1024,
    // Redocly CLI otherwise reaches out to redocly.com after each run (usage telemetry, and a
    // check for a newer version); tests never leave this machine.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  // With several files, the report is one JSON object per file, in the order given, printed
  // back to back ("}{" on a line of its own between them).
  const reports = JSON.parse(`[${result.stdout.replace(/^\}\{$/gm, '},{')}]`) as LintReport[];
  assert.equal(reports.length, described.length, result.stdout.slice(0, 500));
  for (const [index, [path]] of described.entries()) {
    const errors = reports[index]!.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(
      errors.map((e) => `${e.ruleId}: ${e.message}`),
      [],
      path,
    );
  }
});

test('openapi-typescript turns the description into types that compile under strict TypeScript', async () => {
  const types = astToString(await openapiTS(openapi() as never));
  assert.match(types, /"\/data\/agents\.json"/);
  const file = join(scratch, 'api.d.ts');
  await writeFile(file, types);
  // The generated file is checked in full; TypeScript's own ES2022 library is read but not
  // checked again (skipDefaultLibCheck), and the DOM library, which the types do not use, is left
  // out: checking those was most of this test's time.
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, lib: ['lib.es2022.d.ts'], types: [] });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diagnostics, []);
});

/** Every (path, method, status) and every (path, method, parameter) of a description. */
function surface(document: Json, body: 'requestBody' | 'in-body'): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      for (const status of Object.keys(op['responses'] as Json)) out.push(`${method} ${path} -> ${status}`);
      for (const p of (op['parameters'] as { name: string; in: string }[]) ?? [])
        out.push(`${method} ${path} ${p.in === 'body' ? 'body' : `${p.in}:${p.name}`}`);
      if (body === 'requestBody' && op['requestBody']) out.push(`${method} ${path} body`);
    }
  }
  return out.sort();
}

test('the Swagger 2.0 conversion carries every operation, status and parameter', () => {
  assert.deepEqual(surface(swagger(), 'in-body'), surface(openapi(), 'requestBody'));
  assert.equal(swagger()['swagger'], '2.0');
  const info = swagger()['info'] as Json;
  assert.equal(info['version'], (openapi()['info'] as Json)['version']);
});

/** The inverse of the schema conversion: restore carried keywords, drop their approximations, map refs back. */
function restore(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(restore);
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Json;
  const carried = new Set(
    Object.keys(schema)
      .filter((k) => k.startsWith(EXTENSION_PREFIX))
      .map((k) => k.slice(EXTENSION_PREFIX.length)),
  );
  const approximations = new Set([
    ...(carried.has('type') ? ['type', 'x-nullable'] : []),
    ...(carried.has('const') ? ['enum'] : []),
    ...(carried.has('examples') ? ['example'] : []),
    ...(carried.has('exclusiveMinimum') ? ['minimum'] : []),
    ...(carried.has('exclusiveMaximum') ? ['maximum'] : []),
  ]);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith(EXTENSION_PREFIX)) out[key.slice(EXTENSION_PREFIX.length)] = restore(value);
    else if (approximations.has(key)) continue;
    else if (key === '$ref' && typeof value === 'string') out[key] = value.replace('#/definitions/', '#/components/schemas/');
    else out[key] = restore(value);
  }
  return out;
}

test('the conversion is faithful: every OpenAPI 3.1 schema is rebuilt exactly from its Swagger 2.0 form', () => {
  const original = (openapi()['components'] as Json)['schemas'] as Json;
  const converted = swagger()['definitions'] as Json;
  assert.deepEqual(Object.keys(converted).sort(), Object.keys(original).sort());
  for (const name of Object.keys(original)) assert.deepEqual(restore(converted[name]), original[name], name);
  // And it is not a copy: 2.0 has no type lists, const or oneOf, so some schema must have been rewritten.
  assert.ok(JSON.stringify(converted).includes(`"${EXTENSION_PREFIX}type"`));
  assert.ok(JSON.stringify(converted).includes('"x-nullable":true'));
});

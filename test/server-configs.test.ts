// The committed server configs, checked by the real servers (Debian's packages): each must load,
// and nginx and HAProxy must give every sampled header the verdict that /data/policy-accuracy.json
// computed for it in JavaScript, so the published figures are the servers' own. Every server
// runs from a temporary folder on 127.0.0.1 and is stopped by the pid this file started.
import { strict as assert } from 'node:assert';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { Agent } from 'node:http';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIALECTS, type Dialect, type ServerId } from '../pipeline/render/server/dialects.ts';
import { REPO } from './support/project.ts';
import { check, findBinary, freePort, startServer } from './support/real-servers.ts';

const DIST = join(REPO, 'dist');
const policies = (JSON.parse(await readFile(join(DIST, 'data/agents.json'), 'utf8')) as { policies: { id: string }[] }).policies.map((p) => p.id);
const sources = (JSON.parse(await readFile(join(DIST, 'data/ip-sources.json'), 'utf8')) as { sources: { id: string }[] }).sources.map((s) => s.id);
const agents = JSON.parse(await readFile(join(DIST, 'data/agents.json'), 'utf8')) as { crawlers: { user_agent_example: string | null }[] };
const browsers = (JSON.parse(await readFile(join(REPO, 'records/corpus/browsers.json'), 'utf8')) as { user_agents: string[] }).user_agents;
const peers = (JSON.parse(await readFile(join(REPO, 'records/corpus/crawler-user-agents.json'), 'utf8')) as { instances: string[] }[]).flatMap(
  (e) => e.instances,
);

const dialect = (id: ServerId): Dialect => DIALECTS.find((d) => d.id === id)!;
// Each policy's JSON names its four config files (server_configs): the servers below load the
// files those links name, so a reader following them gets what was checked here.
const linked = new Map(
  await Promise.all(
    policies.map(
      async (policy) =>
        [
          policy,
          (JSON.parse(await readFile(join(DIST, 'policy', `${policy}.json`), 'utf8')) as { server_configs: Record<ServerId, string> }).server_configs,
        ] as const,
    ),
  ),
);
const configPath = (id: ServerId, policy: string): string => join(DIST, new URL(linked.get(policy)![id]).pathname);
const variable = (policy: string): string => `crawler_index_${policy.replaceAll('-', '_')}`;

// Every crawler example, every 20th browser and every 5th peer header: about 1,100 requests a server.
const SAMPLE = [
  ...agents.crawlers.flatMap((c) => (c.user_agent_example === null ? [] : [c.user_agent_example])),
  ...browsers.filter((_, i) => i % 20 === 0),
  ...peers.filter((ua, i) => i % 5 === 0 && /^[\x20-\x7e]+$/.test(ua)),
];

/** What the JavaScript evaluation (the accuracy table's) says for each policy, as "1"/"0". */
async function expectedVerdicts(id: ServerId): Promise<Map<string, string>> {
  const verdicts = new Map<string, string>();
  const regexes = await Promise.all(
    policies.map(async (policy) =>
      dialect(id)
        .extract(await readFile(configPath(id, policy), 'utf8'))
        .map((p) => new RegExp(p, 'i')),
    ),
  );
  for (const ua of SAMPLE) verdicts.set(ua, regexes.map((list) => (list.some((r) => r.test(ua)) ? '1' : '0')).join(','));
  return verdicts;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function get(port: number, path: string, userAgent: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'user-agent': userAgent } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** Sends the whole sample, eight at a time, and lists every header whose verdict differs. */
async function disagreements(port: number, expected: Map<string, string>): Promise<string[]> {
  const list = [...expected];
  const wrong: string[] = [];
  for (let i = 0; i < list.length; i += 8) {
    const answers = await Promise.all(list.slice(i, i + 8).map(([ua]) => get(port, '/verdicts', ua)));
    answers.forEach((answer, j) => {
      const [ua, want] = list[i + j]!;
      if (answer.body.trim() !== want) wrong.push(`${JSON.stringify(ua)}: server ${answer.body.trim()}, JavaScript ${want}`);
    });
  }
  return wrong;
}

async function scratch(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crawler-index-servers-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const BROWSER = browsers[0]!;
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)';

test('nginx loads every policy and allow-list file, answers 403 and 200, and agrees with the accuracy table', async (t) => {
  const nginx = findBinary('/usr/sbin/nginx');
  if (nginx === null) return t.skip('nginx is not installed (Debian: apt-get install nginx)');
  const dir = await scratch(t);
  const port = await freePort();
  const verdicts = policies.map((p) => `$${variable(p)}`).join(',');
  const conf = `${userInfo().uid === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  variables_hash_bucket_size 128;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
${policies.map((p) => `  include ${configPath('nginx', p)};`).join('\n')}
${sources.map((s) => `  include ${join(DIST, 'ip-ranges', `${s}.nginx.conf`)};`).join('\n')}
  server {
    listen 127.0.0.1:${port};
    location = /verdicts { default_type text/plain; return 200 "${verdicts}"; }
    location = /blocked { if ($crawler_index_block_ai_training) { return 403; } default_type text/plain; return 200 "welcome"; }
    location = /verified { if ($crawler_index_impostor_openai_gptbot) { return 403; } default_type text/plain; return 200 "welcome"; }
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  const output = await check(nginx, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')]);
  assert.doesNotMatch(output, /\[warn\]|\[emerg\]/, output);
  const server = await startServer(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf')], port);
  t.after(() => server.stop());

  assert.equal((await get(port, '/blocked', GPTBOT)).status, 403, 'GPTBot is refused by block-ai-training');
  assert.equal((await get(port, '/blocked', BROWSER)).status, 200, 'a browser is let in');
  // 127.0.0.1 is in no operator's list: a request claiming GPTBot from it is an impostor.
  assert.equal((await get(port, '/verified', GPTBOT)).status, 403, 'GPTBot from an address OpenAI does not list is refused');
  assert.equal((await get(port, '/verified', BROWSER)).status, 200, 'a browser is not asked for an address');
  assert.deepEqual(await disagreements(port, await expectedVerdicts('nginx')), []);
});

test('HAProxy accepts every policy and allow-list file and agrees with the accuracy table', async (t) => {
  const haproxy = findBinary('/usr/sbin/haproxy');
  if (haproxy === null) return t.skip('HAProxy is not installed (Debian: apt-get install haproxy)');
  const dir = await scratch(t);
  const [port, ...spare] = await Promise.all([freePort(), ...policies.map(() => freePort()), ...sources.map(() => freePort())]);
  const texts = await Promise.all(policies.map((p) => readFile(configPath('haproxy', p), 'utf8')));
  const acls = texts.flatMap((text) => text.split('\n').filter((line) => line.startsWith('acl ')));
  // Each policy file pasted whole into a frontend of its own, as its header says to.
  const asGiven = policies.map((_, i) => `frontend policy_${i}\n  bind 127.0.0.1:${spare[i]}\n${texts[i]}\n  http-request return status 200\n`);
  // Each allow-list's instructions, uncommented, beside the list file itself.
  const allowLists = await Promise.all(
    sources.map(async (s, i) => {
      const text = await readFile(join(DIST, 'ip-ranges', `${s}.haproxy.list`), 'utf8');
      const usage = text
        .split('\n')
        .filter((line) => /^# {3}(acl|http-request) /.test(line))
        .map((line) => line.slice(4).replace(`/etc/haproxy/${s}.list`, join(DIST, 'ip-ranges', `${s}.haproxy.list`)));
      return `frontend allow_${i}\n  bind 127.0.0.1:${spare[policies.length + i]}\n${usage.join('\n')}\n  http-request return status 200\n`;
    }),
  );
  const conf = `global
  pidfile ${dir}/haproxy.pid
defaults
  mode http
  timeout connect 5s
  timeout client 5s
  timeout server 5s
frontend verdicts
  bind 127.0.0.1:${port}
${acls.map((line) => `  ${line}`).join('\n')}
${policies.map((p, i) => `  http-request set-var(txn.p${i}) int(0)\n  http-request set-var(txn.p${i}) int(1) if ${variable(p)}`).join('\n')}
  http-request return status 200 content-type text/plain lf-string "${policies.map((_, i) => `%[var(txn.p${i})]`).join(',')}"
${asGiven.join('')}${allowLists.join('')}`;
  await writeFile(join(dir, 'haproxy.cfg'), conf);
  const output = await check(haproxy, ['-c', '-f', join(dir, 'haproxy.cfg')]);
  assert.doesNotMatch(output, /\[WARNING\]|\[ALERT\]/, output);
  const server = await startServer(haproxy, ['-db', '-f', join(dir, 'haproxy.cfg')], port);
  t.after(() => server.stop());
  assert.deepEqual(await disagreements(port, await expectedVerdicts('haproxy')), []);
  const blockAll = spare[policies.indexOf('block-all-ai')]!;
  assert.equal((await get(blockAll, '/', GPTBOT)).status, 403, 'block-all-ai pasted whole refuses GPTBot');
  assert.equal((await get(blockAll, '/', BROWSER)).status, 200, 'and lets a browser in');
});

test('Apache accepts every policy file in a <Directory> block and answers 403 and 200 through it', async (t) => {
  const apache = findBinary('/usr/sbin/apache2');
  if (apache === null) return t.skip('Apache is not installed (Debian: apt-get install apache2)');
  const dir = await scratch(t);
  // Apache started by root serves as www-data, which must be able to read the pages.
  await chmod(dir, 0o755);
  const port = await freePort();
  const modules = '/usr/lib/apache2/modules';
  const blocks = await Promise.all(
    policies.map(async (p) => {
      await mkdir(join(dir, 'www', p), { recursive: true });
      await writeFile(join(dir, 'www', p, 'index.html'), 'welcome\n');
      return `<Directory ${join(dir, 'www', p)}>\n  Include ${configPath('apache', p)}\n</Directory>`;
    }),
  );
  const conf = `ServerRoot ${dir}
ServerName localhost
Listen 127.0.0.1:${port}
PidFile ${dir}/apache.pid
ErrorLog ${dir}/error.log
DefaultRuntimeDir ${dir}
Mutex file:${dir}
LoadModule mpm_event_module ${modules}/mod_mpm_event.so
LoadModule authz_core_module ${modules}/mod_authz_core.so
LoadModule rewrite_module ${modules}/mod_rewrite.so
LoadModule dir_module ${modules}/mod_dir.so
${userInfo().uid === 0 ? 'User www-data\nGroup www-data\n' : ''}DocumentRoot ${join(dir, 'www')}
DirectoryIndex index.html
${blocks.join('\n')}
`;
  await writeFile(join(dir, 'apache.conf'), conf);
  await check(apache, ['-t', '-f', join(dir, 'apache.conf')]);
  const server = await startServer(apache, ['-X', '-f', join(dir, 'apache.conf')], port);
  t.after(() => server.stop());
  assert.equal((await get(port, '/block-ai-training/', GPTBOT)).status, 403);
  assert.equal((await get(port, '/block-ai-training/', BROWSER)).status, 200);
  assert.equal((await get(port, '/maximum-ai-visibility/', GPTBOT)).status, 200, 'an allow policy blocks nothing');
  assert.equal((await get(port, '/block-seo-tools/', GPTBOT)).status, 200, 'a policy that does not name GPTBot lets it in');
});

test('Caddy validates every policy file imported into a site, and answers 403 and 200 through it', async (t) => {
  const caddy = findBinary('/usr/bin/caddy');
  if (caddy === null) return t.skip('Caddy is not installed (Debian: apt-get install caddy)');
  const dir = await scratch(t);
  const ports = await Promise.all(policies.map(() => freePort()));
  const sites = policies.map((p, i) => `http://127.0.0.1:${ports[i]} {\n  import ${configPath('caddy', p)}\n  respond "welcome" 200\n}`);
  await writeFile(join(dir, 'Caddyfile'), `{\n  admin off\n  storage file_system ${dir}\n}\n${sites.join('\n')}\n`);
  const output = await check(caddy, ['validate', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')]);
  assert.match(output, /Valid configuration/);
  const port = (policy: string) => ports[policies.indexOf(policy)]!;
  const server = await startServer(caddy, ['run', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')], port('block-ai-training'));
  t.after(() => server.stop());
  assert.equal((await get(port('block-ai-training'), '/', GPTBOT)).status, 403);
  assert.equal((await get(port('block-ai-training'), '/', GPTBOT.toLowerCase())).status, 403, 'the token is matched ignoring case');
  assert.equal((await get(port('block-ai-training'), '/', BROWSER)).status, 200);
  assert.equal((await get(port('block-ai-training'), '/', 'Mozilla/5.0 (compatible; Alexabot/1.0)')).status, 200, 'a token inside a longer word is no match');
  assert.equal((await get(port('maximum-ai-visibility'), '/', GPTBOT)).status, 200, 'an allow policy blocks nothing');
  assert.equal((await get(port('block-seo-tools'), '/', GPTBOT)).status, 200, 'a policy that does not name GPTBot lets it in');
});

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { href, parameterOf, PATHS, type PathKey, toolHref } from './paths.ts';
import { canonicalPath, findRoute, routeOf, routes, toolRouteKey } from './routes.ts';
import { TOOLS } from './tools/registry/index.ts';

test('every key is one route, every published path has its route, and href() of each comes back to it', () => {
  assert.equal(new Set(routes().map((r) => r.key)).size, routes().length);
  for (const key of Object.keys(PATHS) as PathKey[]) {
    const route = routeOf(key);
    assert.equal(route.path, PATHS[key], key);
    assert.equal(route.parameter?.name ?? null, parameterOf(route.path), key);
    const path = href(key, route.parameter ? 'example-1' : undefined);
    assert.equal(findRoute(path)?.key, key, path);
    if (route.parameter) assert.ok(!path.includes('{'), path);
  }
});

test('href() names what is wrong with a bad call instead of writing a broken URL', () => {
  assert.throws(() => routeOf('no_such_route'), /no route has the key "no_such_route"/);
  assert.throws(() => href('crawler'), /crawler needs one path segment for \{slug\}/);
  assert.throws(() => href('crawler', 'a/b'), /needs one path segment/);
  assert.equal(href('crawler', 'gptbot'), '/crawler/gptbot.json');
  assert.equal(href('robots', 'block-ai-training'), '/robots/block-ai-training.txt');
});

test('every tool with an HTTP path has its endpoint, specification and form routes', () => {
  for (const tool of TOOLS.filter((t) => t.path !== null)) {
    assert.equal(routeOf(toolRouteKey(tool.name, 'endpoint')).path, toolHref(tool, 'endpoint'));
    assert.equal(routeOf(toolRouteKey(tool.name, 'spec')).path, toolHref(tool, 'spec'));
    assert.equal(routeOf(toolRouteKey(tool.name, 'form')).path, toolHref(tool, 'form'));
    assert.equal(toolHref(tool, 'form'), `/tools/${tool.path}.html`);
    assert.equal(findRoute(`/tools/${tool.path}`)?.answer.by, 'tool');
  }
});

test('aliases stand for their stored document; other paths are left as they are', () => {
  assert.equal(canonicalPath('/'), '/index.html');
  assert.equal(canonicalPath('/tools'), '/tools/index.html');
  assert.equal(canonicalPath('/tools/'), '/tools/index.html');
  assert.equal(canonicalPath('/data/agents.json'), '/data/agents.json');
});

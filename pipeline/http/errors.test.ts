import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findRoute, routes } from '../routes.ts';
import { errorBody, notFoundBody, notFoundDetail } from './errors.ts';

// Values a client can put in a path, as the 404's message quotes them.
const VALUES = ['no-such-crawler', 'quote"and\\back', 'é😀', '\u0000\u001f', 'message": "x', 'x'.repeat(5_000)];

describe('errors.ts: a 404 body made from its route’s serialised frame', () => {
  test('notFoundBody is errorBody(404, notFoundDetail) for every route with a parameter, and for paths with no route', () => {
    const templated = routes().filter((route) => route.parameter !== undefined);
    assert.ok(templated.length > 5, `${templated.length} routes with a parameter`);
    for (const baseUrl of ['https://crawler-index.github.io', 'http://127.0.0.1:8080']) {
      for (const route of templated) {
        for (const value of VALUES) {
          const path = route.path.replace(/\{[a-z_]+\}/, value);
          // Twice: the first call serialises the frame, the second reuses it.
          for (let n = 0; n < 2; n++) assert.equal(notFoundBody(baseUrl, path, route), errorBody(404, notFoundDetail(baseUrl, path, route)), path);
        }
      }
      for (const value of VALUES) {
        const path = `/no/such/${value}`;
        assert.equal(findRoute(path), undefined);
        assert.equal(notFoundBody(baseUrl, path, undefined), errorBody(404, notFoundDetail(baseUrl, path, undefined)), path);
      }
    }
  });
});

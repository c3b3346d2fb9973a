import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { largeListOnThread } from './support/large-list-thread.ts';

// docs/API.md §2.3: a valid list larger than any call's arguments can hold goes through the whole
// refresh, the build of every document, a commit and a verify (test/support/large-list.ts). The
// list is the smallest one a spread would break on the thread that runs the stages, whose stack is
// kept small (test/support/large-list-thread.ts), so a stage that spreads it fails here; `npm run
// bench` runs the same stages on 500,000 prefixes (a 16 MB upstream body).

test('a list larger than a spread can pass: accepted, built into every document, committed, and verifiable', async () => {
  const { limit, bodyBytes } = await largeListOnThread();
  assert.ok(limit > 1000, `a spread breaks at ${limit} arguments`);
  assert.ok(bodyBytes > 30 * limit, `${bodyBytes} bytes upstream for ${limit} prefixes`);
});

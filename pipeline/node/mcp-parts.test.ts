import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importInParts, MCP_MODULE_PARTS } from './mcp-parts.ts';

test('every part of the MCP answerer is imported one at a time from the dependencies as installed', async () => {
  // A dependency that moves its files would leave its part to mcp.ts's own import, in one long hold.
  assert.deepEqual(await importInParts(MCP_MODULE_PARTS), []);
});

test('a part that cannot be imported is skipped and named, and the parts after it are still imported', async () => {
  const skipped = await importInParts(['crawler-index-no-such-package', ['zod/v4/core', './no-such-file.js'], 'zod/v4']);
  assert.deepEqual(skipped, ['crawler-index-no-such-package', ['zod/v4/core', './no-such-file.js']]);
});

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { accessLine, accessLog, escapeField, type AccessRecord } from './access-log.ts';

const record: AccessRecord = {
  at: Date.UTC(2026, 10, 28, 21, 6, 0, 250),
  address: '192.0.2.7',
  method: 'GET',
  target: '/crawler/gptbot.json?x=1',
  httpVersion: '1.1',
  status: 200,
  bytes: 2903,
  durationMs: 1.6,
  referer: null,
  userAgent: 'curl/8.5.0',
};

test('a request is one line in the combined format, with the seconds it took at the end', () => {
  assert.equal(accessLine(record), '192.0.2.7 - - [28/Nov/2026:21:06:00 +0000] "GET /crawler/gptbot.json?x=1 HTTP/1.1" 200 2903 "-" "curl/8.5.0" 0.002\n');
  assert.equal(
    accessLine({ ...record, address: null, userAgent: null, referer: '', at: Date.UTC(2027, 0, 5, 3, 4, 5) }).slice(0, 34),
    '- - - [05/Jan/2027:03:04:05 +0000]',
  );
});

test('what a client chose cannot end a line, open a field or pass as another byte: " \\ and every byte outside printable ASCII become \\xHH', () => {
  assert.equal(escapeField('a "b" \\ c'), 'a \\x22b\\x22 \\x5C c');
  assert.equal(escapeField('x\ny\r\tz\u001b[31m\u00ff\u007f'), 'x\\x0Ay\\x0D\\x09z\\x1B[31m\\xFF\\x7F');
  const line = accessLine({ ...record, target: '/a"\n', userAgent: 'ua\n127.0.0.1 - - [forged]', referer: '"' });
  assert.equal(line.split('\n').length, 2, 'one line, ended by its own newline');
  assert.match(line, /"GET \/a\\x22\\x0A HTTP\/1\.1" 200 2903 "\\x22" "ua\\x0A127\.0\.0\.1 - - \[forged\]" /);
});

test('lines answered in one turn of the event loop go out in one write; close writes what is left', async () => {
  const writes: string[] = [];
  const log = accessLog((text) => writes.push(text));
  log.record(record);
  log.record({ ...record, status: 304, bytes: 0 });
  assert.equal(writes.length, 0, 'nothing written within the turn');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes.length, 1);
  assert.equal(writes[0]?.split('\n').length, 3);
  log.record({ ...record, status: 404 });
  log.close();
  assert.equal(writes.length, 2);
  assert.match(writes[1] ?? '', /" 404 /);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes.length, 2, 'the flush scheduled before close finds nothing left');
});

import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { findExecutable, versionOf } from './executables.ts';
import { failures, rowsTable, rssDrift, rssTable, type Row } from './table.ts';
import type { WrkResult } from './wrk.ts';

function result(requestsPerSecond: number, p99: number, bytesPerResponse = 1000, errors: Partial<WrkResult['errors']> = {}): WrkResult {
  return {
    requests: requestsPerSecond,
    seconds: 1,
    requestsPerSecond,
    bytes: bytesPerResponse * requestsPerSecond,
    bytesPerResponse,
    latencyMs: { p50: p99 / 4, p90: p99 / 2, p99, max: p99 * 2 },
    errors: { connect: 0, read: 0, write: 0, status: 0, timeout: 0, ...errors },
  };
}

const cells = (table: string, label: string) =>
  table
    .split('\n')
    .find((l) => l.startsWith(`| ${label} |`))
    ?.split(' | ') ?? [];

describe('rowsTable', () => {
  const rows: Row[] = [
    {
      label: 'small',
      connections: 32,
      target: { kind: 'ratio', min: 0.5 },
      ours: { answer: '200, 1,635 B', result: result(20_000, 10) },
      nginx: { answer: '200, 1,635 B', result: result(36_000, 8) },
    },
    {
      label: 'large',
      connections: 32,
      target: { kind: 'ratio', min: 0.6 },
      ours: { answer: '200', result: result(3_000, 10) },
      nginx: { answer: '200', result: result(9_000, 8) },
    },
    {
      label: 'br',
      connections: 32,
      target: { kind: 'fewer-bytes' },
      ours: { answer: '200 br', result: result(9_000, 5, 32_000) },
      nginx: { answer: '200', result: result(9_000, 8, 320_000) },
    },
    {
      label: 'verify',
      connections: 16,
      target: { kind: 'p99', maxMs: 100 },
      ours: { answer: '200', result: result(100, 535, 1000, { status: 7 }) },
      nginx: null,
    },
  ];
  const table = rowsTable(rows);

  test('is a Markdown table with one line per row under a header and an alignment rule', () => {
    const lines = table.split('\n');
    assert.equal(lines.length, 2 + rows.length);
    assert.match(lines[1]!, /^\|(---:?\|)+$/);
    const columns = lines[0]!.split(' | ').length;
    for (const line of lines.slice(2)) assert.equal(line.split(' | ').length, columns, line);
  });

  test('prints the ratio ours / nginx beside each target and whether it is met, asserting nothing', () => {
    assert.deepEqual(cells(table, 'small').slice(-3), ['0.56×', '≥ 0.5× nginx', 'yes |']);
    assert.deepEqual(cells(table, 'large').slice(-3), ['0.33×', '≥ 0.6× nginx', 'no |']);
  });

  test('compares bytes per answer for the compressed row, and leaves "far fewer" to the reader', () => {
    assert.deepEqual(cells(table, 'br').slice(-3), ['0.10× bytes', 'far fewer bytes than nginx identity', ' |']);
  });

  test('judges latency rows by p99 and shows failed answers beside the figures', () => {
    const verify = cells(table, 'verify');
    assert.equal(verify[2], '200 (7 not 2xx/3xx)');
    assert.deepEqual(verify.slice(-3), ['—', 'p99 < 100 ms', 'no |']);
  });
});

describe('memory rounds', () => {
  const rounds = [
    { label: 'before', result: null, rssKiB: 100 * 1024 },
    { label: 'round 1', result: result(600, 500), rssKiB: 120 * 1024 },
    { label: 'round 2', result: result(600, 500), rssKiB: 125 * 1024 },
    { label: 'round 3', result: result(600, 500), rssKiB: 126 * 1024 },
  ];

  test('lists RSS after each round', () => {
    assert.match(rssTable(rounds), /^\| round 3 \| 600 \| 500\.0 \| none \| 126\.0 MiB \|$/m);
  });

  test('drift is measured from the first loaded round, not from the idle start', () => {
    assert.equal(rssDrift(rounds), 'RSS drift from the first loaded round to the last: +6.0 MiB (+5.0%); target: flat');
    assert.equal(rssDrift([{ label: 'before', result: null, rssKiB: null }]), 'RSS drift: n/a');
  });
});

describe('small readers', () => {
  test('failures names every kind wrk counts, or nothing', () => {
    assert.equal(failures(result(1, 1)), '');
    assert.equal(failures(result(1, 1, 1, { status: 2, timeout: 1, read: 3 })), '2 not 2xx/3xx; 1 timed out; socket errors: 0 connect, 3 read, 0 write');
  });

  test('versionOf keeps the version of wrk and nginx without their lead or copyright', () => {
    assert.equal(versionOf('wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer'), 'wrk debian/4.1.0-3+b2 [epoll]');
    assert.equal(versionOf('nginx version: nginx/1.22.1'), 'nginx/1.22.1');
  });

  test('a program that is not installed is null (its rows are skipped), not an exception', () => {
    assert.equal(findExecutable('no-such-load-generator', '-v', ['/nonexistent/wrk']), null);
  });
});

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { evidenceLevel, verificationSource } from './evidence.ts';
import type { SupportingCitation } from './types.ts';

const cite = (kind: SupportingCitation['kind'], supports: SupportingCitation['supports']): SupportingCitation => ({
  url: 'https://example.com/',
  publisher: 'Example',
  kind,
  retrieved: '2026-11-28',
  supports,
});

test("an operator page makes a record the operator's word when it names the crawler: its header, its token or how to verify it", () => {
  const example = 'ExampleBot/1.0';
  assert.equal(evidenceLevel({ robots_token: 'ExampleBot', user_agent_example: example, citations: [cite('operator', ['robots_token'])] }), 'operator');
  assert.equal(evidenceLevel({ robots_token: null, user_agent_example: example, citations: [cite('operator', ['user_agent_example'])] }), 'operator');
  assert.equal(
    evidenceLevel({
      robots_token: null,
      user_agent_example: example,
      citations: [cite('operator', ['verification']), cite('observed', ['user_agent_example'])],
    }),
    'operator',
  );
});

test('an operator page cited only for a null token names nothing: the level comes from the other citations', () => {
  const citations = [cite('operator', ['robots_token', 'what_it_is']), cite('observed', ['user_agent_example'])];
  assert.equal(evidenceLevel({ robots_token: null, user_agent_example: 'ExampleBot/1.0', citations }), 'observed');
  assert.equal(
    evidenceLevel({ robots_token: null, user_agent_example: 'ExampleBot/1.0', citations: [...citations, cite('third-party', ['what_it_is'])] }),
    'third-party',
  );
});

test('a crawler with neither a token nor a header is named by what the operator says it is', () => {
  assert.equal(evidenceLevel({ robots_token: null, user_agent_example: null, citations: [cite('operator', ['robots_token', 'what_it_is'])] }), 'operator');
});

test("a verification method is the operator's when an operator page supports it, else a third party's; none has no source", () => {
  const fixed = [{ method: 'fixed-ips' as const, addresses: ['192.0.2.1'] }];
  assert.equal(verificationSource({ verification: fixed, citations: [cite('operator', ['verification', 'what_it_is'])] }), 'operator');
  // An operator page cited for other facts does not make a list found elsewhere the operator's.
  assert.equal(
    verificationSource({ verification: fixed, citations: [cite('operator', ['what_it_is']), cite('third-party', ['verification'])] }),
    'third-party',
  );
  assert.equal(verificationSource({ verification: [{ method: 'none' }], citations: [cite('operator', ['what_it_is'])] }), null);
});

import { UA_LIMIT_BYTES } from '../classify/index.ts';
import { listOf, textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { MAX_ADDRESSES_PER_CALL, verifyBatch } from '../verify/index.ts';

export const verifyTool = defineTool({
  name: 'verify_batch',
  path: 'verify-crawler',
  title: 'Is this address really that crawler?',
  description:
    "Checks up to 500 IPv4/IPv6 addresses against every operator-published prefix list. With ua (a claimed crawler token or a whole User-Agent header) each address gets a verdict: genuine, in the claimed operator's range for another crawler, in another operator's range, in no published range (with how else to verify), or an unknown claim. Invalid items are reported one by one.",
  params: [
    {
      name: 'ip',
      kind: 'list',
      required: true,
      maxItems: MAX_ADDRESSES_PER_CALL,
      split: 'addresses',
      description: 'The IPv4 or IPv6 addresses to check.',
      http: 'Repeat ip= or separate the addresses with commas or spaces.',
      accepted: `1 to ${MAX_ADDRESSES_PER_CALL} IPv4 or IPv6 addresses, as a list or separated by commas or white space`,
      example: '20.171.206.10',
    },
    {
      name: 'ua',
      kind: 'string',
      required: false,
      maxBytes: UA_LIMIT_BYTES,
      description: 'The claimed crawler: a robots token such as GPTBot, or the whole User-Agent header; applied to every address.',
      accepted: `a robots token or User-Agent header, at most ${UA_LIMIT_BYTES} bytes`,
    },
  ],
  outputSchema: {
    type: 'object',
    required: ['claim', 'received', 'checked', 'limit', 'results', 'summary'],
    properties: { results: { type: 'array', items: { type: 'object', required: ['input', 'valid'] } } },
  },
  examples: [{ description: 'Two addresses claiming to be GPTBot', input: { ip: ['20.171.206.10', '192.0.2.1'], ua: 'GPTBot' } }],
  run: (input, { data }) => verifyBatch(data.prefixes, data.crawlers, listOf(input, 'ip'), input['ua'] === undefined ? undefined : textOf(input, 'ua')),
  summarize: (o) => {
    const verdicts = o.summary.verdicts
      ? Object.entries(o.summary.verdicts)
          .filter(([, n]) => n > 0)
          .map(([v, n]) => `${n} ${v}`)
          .join(', ')
      : null;
    return `${o.checked} address${o.checked === 1 ? '' : 'es'} checked: ${o.summary.in_published_ranges} in a published range, ${o.summary.invalid} invalid.${verdicts ? ` Verdicts: ${verdicts}.` : ''}${o.claim && !o.claim.resolved ? ` Claim: ${o.claim.note}` : ''}`;
  },
});

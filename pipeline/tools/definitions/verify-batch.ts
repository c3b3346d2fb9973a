import { UA_LIMIT_BYTES } from '../classify/index.ts';
import { listOf, textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { type BatchAnswer, MAX_ADDRESSES_PER_CALL, MAX_LIST_AGE_SECONDS, otherMethods, VERDICTS, verifyBatch } from '../verify/index.ts';

const nullable = (type: string) => ({ type: [type, 'null'] });

export const verifyTool = defineTool({
  name: 'verify_batch',
  path: 'verify-crawler',
  title: 'Is this address really that crawler?',
  description: `Checks up to 500 IPv4/IPv6 addresses against every operator-published prefix list. With ua (a claimed crawler token or a whole User-Agent header) each address gets a verdict: unverifiable (in no list, but a list the answer needs was never fetched, is empty or is over ${MAX_LIST_AGE_SECONDS / 3600} hours old: the address could not be checked, and the answer names the list and the other ways to check), genuine, in the claimed operator's range for another crawler, in another operator's range, in no published range (with how else to verify), or an unknown claim. Invalid items are reported one by one.`,
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
  // docs/API.md §6.
  outputSchema: {
    type: 'object',
    required: ['claim', 'received', 'checked', 'limit', 'summary', 'results'],
    properties: {
      claim: {
        type: ['object', 'null'],
        required: ['input', 'resolved', 'by', 'crawler', 'note', 'how_to_verify', 'lists', 'unverifiable_because'],
        properties: {
          lists: {
            type: 'array',
            description: "The lists an address in none of them is ruled out by: the claimed crawler's own, or its operator's network",
            items: {
              type: 'object',
              required: ['id', 'state', 'prefixes', 'confirmed_at', 'usable', 'note'],
              properties: {
                id: { type: 'string' },
                state: nullable('string'),
                prefixes: { type: 'integer', minimum: 0 },
                confirmed_at: nullable('string'),
                usable: { type: 'boolean', description: `An accepted, non-empty copy at most ${MAX_LIST_AGE_SECONDS / 3600} hours old` },
                note: nullable('string'),
              },
            },
          },
          unverifiable_because: { ...nullable('string'), description: 'Why an address in none of the lists cannot be ruled out; null when it can' },
        },
      },
      summary: {
        type: 'object',
        required: ['valid', 'invalid', 'in_published_ranges', 'verdicts'],
        properties: {
          verdicts: {
            type: ['object', 'null'],
            required: [...VERDICTS],
            properties: Object.fromEntries(VERDICTS.map((v) => [v, { type: 'integer', minimum: 0 }])),
          },
        },
      },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['input', 'valid'],
          properties: {
            verdict: { enum: [...VERDICTS, null] },
            explanation: { type: 'string' },
            caveat: nullable('string'),
          },
        },
      },
    },
  },
  examples: [{ description: 'Two addresses claiming to be GPTBot', input: { ip: ['20.171.206.10', '192.0.2.1'], ua: 'GPTBot' } }],
  // The clock is read here, once per call: whether a list's copy is too old depends on when it is asked.
  run: (input, { data }) =>
    verifyBatch(data.prefixes, data.crawlers, listOf(input, 'ip'), input['ua'] === undefined ? undefined : textOf(input, 'ua'), Date.now()),
  summarize: (o) => {
    const counts = o.summary.verdicts;
    const verdicts = counts
      ? VERDICTS.filter((v) => counts[v] > 0)
          .map((v) => `${counts[v]} ${v}`)
          .join(', ')
      : null;
    const lead = unverifiableLead(o);
    return `${lead === null ? '' : `${lead} `}${o.checked} address${o.checked === 1 ? '' : 'es'} checked: ${o.summary.in_published_ranges} in a published range, ${o.summary.invalid} invalid.${verdicts ? ` Verdicts: ${verdicts}.` : ''}${o.claim && !o.claim.resolved ? ` Claim: ${o.claim.note}` : ''}`;
  },
  // Address, verdict ("no claim" when no ua was given), then the published ranges it is in; for
  // what is no address, "invalid", its code and why, so that the reader can correct it.
  itemLines: (o) => {
    const verdictOf = (r: (typeof o.results)[number]) => (r.valid ? (r.verdict ?? 'no claim') : `invalid (${r.code})`);
    const width = Math.max(0, ...o.results.map((r) => r.input.length));
    const verdictWidth = Math.max(0, ...o.results.filter((r) => r.valid).map((r) => verdictOf(r).length));
    return o.results.map((r) => {
      if (!r.valid) return `${r.input.padEnd(width)}  ${verdictOf(r)}: ${r.error}`;
      const ranges = r.matches.map((m) => `${m.operator_name} ${m.prefix} (list ${m.source})`).join('; ');
      return `${r.input.padEnd(width)}  ${verdictOf(r).padEnd(verdictWidth)}  ${ranges === '' ? 'in no published range' : ranges}`;
    });
  },
});

/** What a reader must see first (docs/API.md §6.4): addresses that could not be checked, why, and how to check them instead. */
function unverifiableLead(o: BatchAnswer): string | null {
  const count = o.summary.verdicts?.unverifiable ?? 0;
  const claim = o.claim;
  if (count === 0 || claim === null || !claim.resolved) return null;
  const { name, operator } = claim.crawler;
  const which = count === o.summary.valid ? (count === 1 ? 'The address' : `All ${count} addresses`) : `${count} of ${o.summary.valid} addresses`;
  const others = otherMethods(claim.how_to_verify);
  const instead = others === null ? `${operator} documents no other way to check ${name}.` : `Check ${count === 1 ? 'it' : 'them'} another way: ${others}.`;
  return `Unverifiable: ${which} could not be checked as ${name}, because ${claim.unverifiable_because}; an address outside the lists may still be ${name}. ${instead}`;
}

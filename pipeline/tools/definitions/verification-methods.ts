import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { VERIFICATION_METHODS, type VerificationMethod } from '../../records/types.ts';
import { verificationMethods } from './crawler-lookup.ts';

const TALLY_WORDS: Record<VerificationMethod, string> = {
  'published-ranges': 'by published prefixes',
  'fixed-ips': 'by addresses listed on a page',
  'reverse-dns': 'by reverse DNS',
  asn: 'by autonomous system',
  'web-bot-auth': 'by signed requests',
  none: 'with no method',
};

export const verificationMethodsTool = defineTool({
  name: 'verification_methods',
  path: 'verification-methods',
  title: 'How can each crawler be verified?',
  description:
    "Says how each crawler can be verified: by operator-published IP prefixes (with mirror counts and fetch dates), addresses listed on the operator's page, forward-confirmed reverse DNS (with the two DNS lookup commands), the operator's autonomous system, signed requests (Web Bot Auth key directory), or no method. Every method a crawler offers is listed, strongest first. With crawler: one crawler (slug, name, robots token or user-agent substring) or every crawler of an operator (its slug or name); without: the whole tally.",
  params: [
    {
      name: 'crawler',
      kind: 'string',
      required: false,
      maxBytes: 512,
      description: 'A crawler slug, name, robots token, operator or user-agent substring.',
      accepted: 'a crawler slug (gptbot), name, robots token, operator (openai) or user-agent substring, at most 512 bytes; omit for every crawler',
    },
  ],
  outputSchema: {
    type: 'object',
    required: ['query', 'matched', 'tally', 'documented', 'crawlers'],
    properties: {
      tally: { type: 'object', required: [...VERIFICATION_METHODS] },
      documented: { type: 'object', required: [...VERIFICATION_METHODS] },
      crawlers: { type: 'array', items: { type: 'object', required: ['slug', 'method', 'methods', 'steps', 'commands'] } },
    },
  },
  examples: [
    { description: 'Googlebot', input: { crawler: 'googlebot' } },
    { description: 'The whole tally', input: {} },
  ],
  run: (input, { data }) => verificationMethods(data, input['crawler'] === undefined ? null : textOf(input, 'crawler')),
  summarize: (o) => {
    if (o.matched === 0) return `No crawler matches "${o.query}".`;
    const counts = VERIFICATION_METHODS.filter((m) => o.tally[m] > 0).map((m) => `${o.tally[m]} ${TALLY_WORDS[m]}`);
    const head = `${o.matched} crawler${o.matched === 1 ? '' : 's'}, by strongest method: ${counts.join(', ')}.`;
    return o.matched <= 5 ? `${head}\n${o.crawlers.map((c) => `${c.name}: ${c.steps.join(' ')}`).join('\n')}` : head;
  },
});

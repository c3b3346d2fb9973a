import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { verificationMethods } from './crawler-lookup.ts';

export const verificationMethodsTool = defineTool({
  name: 'verification_methods',
  path: 'verification-methods',
  title: 'How can each crawler be verified?',
  description:
    'Says which crawlers verify by operator-published IP prefixes (with mirror counts and fetch dates), which by forward-confirmed reverse DNS (with the two DNS lookup commands), and which publish no method. With crawler: one crawler (slug, name, operator or user-agent substring); without: the whole tally.',
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
    required: ['query', 'matched', 'tally', 'crawlers'],
    properties: {
      tally: { type: 'object', required: ['published-ranges', 'reverse-dns', 'none'] },
      crawlers: { type: 'array', items: { type: 'object', required: ['slug', 'method', 'steps', 'commands'] } },
    },
  },
  examples: [
    { description: 'Googlebot', input: { crawler: 'googlebot' } },
    { description: 'The whole tally', input: {} },
  ],
  run: (input, { data }) => verificationMethods(data, input['crawler'] === undefined ? null : textOf(input, 'crawler')),
  summarize: (o) => {
    if (o.matched === 0) return `No crawler matches "${o.query}".`;
    const head = `${o.matched} crawler${o.matched === 1 ? '' : 's'}: ${o.tally['published-ranges']} by published prefixes, ${o.tally['reverse-dns']} by reverse DNS, ${o.tally['none']} with no method.`;
    return o.matched <= 5 ? `${head}\n${o.crawlers.map((c) => `${c.name}: ${c.steps.join(' ')}`).join('\n')}` : head;
  },
});

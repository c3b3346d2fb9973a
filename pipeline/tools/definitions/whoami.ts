import { classify, inputIssue } from '../classify/index.ts';
import { defineTool } from '../registry/types.ts';
import { lookup } from '../verify/index.ts';

export const whoamiTool = defineTool({
  name: 'whoami',
  path: 'whoami',
  title: 'Who does this service think I am?',
  description:
    'Answers about the calling request: the User-Agent sent, the source address, whether the index recognises the caller, and whether an operator publishes a prefix containing the address. Whether the caller was seen before and how it is booked need the request log, which this service does not keep yet: those fields say so instead of guessing.',
  params: [],
  runsWithoutParams: true,
  outputSchema: { type: 'object', required: ['user_agent', 'address', 'recognised', 'in_published_range', 'seen_before', 'booked_as'] },
  examples: [{ description: 'No input', input: {} }],
  run: (_input, { data, caller }) => {
    const classification = caller.userAgent !== null && inputIssue(caller.userAgent) === null ? classify(data.classifier, caller.userAgent) : null;
    const found = caller.address ? lookup(data.prefixes, caller.address) : null;
    return {
      user_agent: caller.userAgent,
      address: caller.address,
      recognised: classification?.matched
        ? { slug: classification.crawler.slug, name: classification.crawler.name, operator: classification.crawler.operator }
        : null,
      in_published_range:
        found?.valid && found.matches.length > 0 ? found.matches.map((m) => ({ source: m.source, operator: m.operator, prefix: m.prefix })) : [],
      seen_before: { known: false, reason: 'This service keeps no request log yet, so it cannot say.' },
      booked_as: { known: false, reason: 'This service keeps no request log yet, so it books no caller.' },
    };
  },
  summarize: (o) => {
    return `You sent User-Agent "${o.user_agent ?? ''}" from ${o.address ?? 'an unknown address'}. ${o.recognised ? `The index recognises it as ${o.recognised.name}.` : 'The index does not recognise it.'} ${o.in_published_range.length > 0 ? `The address is in ${o.in_published_range.map((m) => m.source).join(', ')}.` : 'The address is in no operator-published range.'}`;
  },
});

import { classify } from '../classify/index.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { classificationSchema, summarizeClassification, UA_PARAM } from './crawler-lookup.ts';

export const classifyTool = defineTool({
  name: 'classify_user_agent',
  path: 'classify-ua',
  title: 'Which crawler is this User-Agent?',
  description:
    'Identifies the crawler behind a User-Agent header: operator, category, robots.txt token and stance, verification method, cost of blocking, record URL. The most specific substring wins (Googlebot-Image over Googlebot). An unmatched header is reported as unmatched, with a clearly labelled heuristic that is never an identification.',
  params: [UA_PARAM],
  outputSchema: classificationSchema,
  examples: [{ description: 'GPTBot', input: { ua: UA_PARAM.example } }],
  run: (input, { data }) => classify(data.classifier, textOf(input, 'ua')),
  summarize: summarizeClassification,
});

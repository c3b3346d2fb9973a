import { defineTool } from '../registry/types.ts';
import { classifyTool } from './classify-user-agent.ts';
import { classificationSchema, EXAMPLE_UA, summarizeClassification } from './crawler-lookup.ts';

export const exampleTool = defineTool({
  name: 'example',
  path: 'example',
  title: 'A worked example',
  description: 'Runs classify_user_agent on a canned GPTBot User-Agent and returns the real answer, to show the shape of a tool call.',
  params: [],
  runsWithoutParams: true,
  outputSchema: {
    type: 'object',
    required: ['tool', 'input', 'output'],
    properties: { tool: { const: 'classify_user_agent' }, input: { type: 'object' }, output: classificationSchema },
  },
  examples: [{ description: 'No input', input: {} }],
  run: (_input, context) => ({ tool: 'classify_user_agent', input: { ua: EXAMPLE_UA }, output: classifyTool.run({ ua: EXAMPLE_UA }, context) }),
  summarize: (output) => `classify_user_agent("${EXAMPLE_UA}") → ${summarizeClassification(output.output)}`,
});

import { POLICY_IDS } from '../../records/types.ts';
import { href } from '../../paths.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';

export const policyMarkdownTool = defineTool({
  name: 'policy_markdown',
  path: null,
  title: 'A robots.txt policy as Markdown',
  description: 'Returns one of the 8 ready-made robots.txt policies as Markdown: rationale, caveats, the crawlers it names, and the fragment to append.',
  params: [
    {
      name: 'policy',
      kind: 'string',
      required: true,
      maxBytes: 64,
      description: 'Which robots.txt policy.',
      accepted: `one of ${POLICY_IDS.join(', ')}`,
      values: POLICY_IDS,
    },
  ],
  outputSchema: { type: 'object', required: ['policy', 'markdown'], properties: { policy: { type: ['string', 'null'] }, markdown: { type: 'string' } } },
  examples: [{ description: 'Block AI training', input: { policy: 'block-ai-training' } }],
  run: (input, { data }) => {
    const policy = data.policies.find((p) => p.id === textOf(input, 'policy'));
    if (!policy) return { policy: null, markdown: `No policy "${textOf(input, 'policy')}". Policies: ${data.policies.map((p) => p.id).join(', ')}.\n` };
    const markdown = [
      `# ${policy.title} (\`${policy.id}\`)`,
      '',
      policy.rationale,
      '',
      '## Caveats',
      '',
      ...policy.caveats.map((c) => `- ${c}`),
      '',
      `## Crawlers named (${policy.crawlers.length})`,
      '',
      ...policy.crawlers.map((c) => `- \`${c.robots_token}\` (${c.slug}, ${c.respects_robots_txt})${c.note ? `: ${c.note}` : ''}`),
      '',
      '## Fragment',
      '',
      '```',
      policy.fragment.trimEnd(),
      '```',
      '',
      `Source: ${data.baseUrl}${href('policy', policy.id)}`,
      '',
    ].join('\n');
    return { policy: policy.id, markdown };
  },
  summarize: (output) => output.markdown,
});

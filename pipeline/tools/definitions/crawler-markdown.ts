import { crawlerMarkdown } from '../../render/crawlers.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { findCrawlers } from './crawler-lookup.ts';

export const crawlerMarkdownTool = defineTool({
  name: 'crawler_markdown',
  path: null,
  title: 'A crawler record as Markdown',
  description: 'Returns the record of one crawler (by slug, name, robots token or user-agent substring) as Markdown for a model to read or quote.',
  params: [
    {
      name: 'crawler',
      kind: 'string',
      required: true,
      maxBytes: 512,
      description: 'A crawler slug, name, robots token or user-agent substring.',
      accepted: 'a crawler slug (gptbot), name, robots token or user-agent substring',
    },
  ],
  outputSchema: {
    type: 'object',
    required: ['matched', 'markdown'],
    properties: { matched: { type: 'array', items: { type: 'string' } }, markdown: { type: 'string' } },
  },
  examples: [{ description: 'GPTBot', input: { crawler: 'GPTBot' } }],
  run: (input, { data }) => {
    const found = findCrawlers(data, textOf(input, 'crawler')).slice(0, 5);
    return {
      matched: found.map((c) => c.slug),
      markdown: found.length === 0 ? `No crawler in the index matches "${textOf(input, 'crawler')}".\n` : found.map(crawlerMarkdown).join('\n---\n\n'),
    };
  },
  summarize: (output) => output.markdown,
});

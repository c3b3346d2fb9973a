import { crawlerMarkdown } from '../../render/crawlers.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { findCrawlers } from './crawler-lookup.ts';

export const crawlerMarkdownTool = defineTool({
  name: 'crawler_markdown',
  path: null,
  title: 'A crawler record as Markdown',
  description:
    'Returns crawler records as Markdown for a model to read or quote: the crawler whose slug, robots token or name is given; else the crawlers of the operator named (openai); else the crawler a User-Agent header names, or those whose user-agent substring contains the text. At most 5 records; matched lists their slugs.',
  params: [
    {
      name: 'crawler',
      kind: 'string',
      required: true,
      maxBytes: 512,
      description: 'A crawler slug, name, robots token, operator or User-Agent.',
      accepted: 'a crawler slug (gptbot), name, robots token, operator (openai), User-Agent header or part of one, at most 512 bytes',
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

// Test support: a complete crawler record (records/crawlers/<slug>.yaml shape) with test
// defaults, so that a test says only what it is about.
import type { CrawlerRecord } from '../../pipeline/records/types.ts';

export function fixtureRecord(slug: string, fields: Partial<CrawlerRecord> = {}): CrawlerRecord {
  return {
    slug,
    name: slug,
    operator: 'acme',
    category: 'search-engine',
    robots_token: slug,
    user_agent_substring: slug,
    user_agent_example: `Mozilla/5.0 (compatible; ${slug}/1.0)`,
    respects_robots_txt: 'documented',
    verification: [{ method: 'none' }],
    what_it_is: 'A crawler that exists only in this test.',
    cost_of_blocking: 'Nothing; it is a test.',
    citations: [
      {
        url: 'https://example.com/docs',
        publisher: 'Acme',
        kind: 'operator',
        retrieved: '2026-11-25',
        supports: ['robots_token', 'user_agent_example', 'respects_robots_txt', 'what_it_is'],
      },
    ],
    last_reviewed: '2026-11-25',
    ...fields,
  };
}

import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

/** A successor is the crawler to name instead of a retired one, so it must exist and still run. */
export function checkLifecycle(records: RecordSet): Problem[] {
  const bySlug = new Map(records.crawlers.map((c) => [c.slug, c]));
  const problems: Problem[] = [];
  for (const crawler of records.crawlers) {
    if (crawler.successor === undefined) continue;
    const successor = bySlug.get(crawler.successor);
    const file = crawlerFile(crawler.slug);
    if (successor === undefined) problems.push({ file, path: '/successor', message: `names "${crawler.successor}", which is no crawler record` });
    else if (successor.status === 'retired')
      problems.push({ file, path: '/successor', message: `names ${crawlerFile(successor.slug)}, which is retired too; name the crawler that runs today` });
  }
  return problems;
}

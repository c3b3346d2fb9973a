import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile, operatorFile, SOURCES_FILE } from './where.ts';

/**
 * Signature directories and the crawler records that name them agree both ways, as prefix lists
 * and published-ranges do: a record's web-bot-auth directory is mirrored by exactly the row
 * with that URL, and a row lists only crawlers of its operator whose records name its URL.
 */
export function checkDirectories(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  const operators = new Set(records.operators.map((o) => o.slug));
  const crawlers = new Map(records.crawlers.map((c) => [c.slug, c]));
  const byUrl = new Map(records.directories.map((row) => [row.url, row]));
  const at = (id: string, field: string) => `/[id=${id}]/${field}`;

  for (const row of records.directories) {
    if (!operators.has(row.operator))
      problems.push({ file: SOURCES_FILE, path: at(row.id, 'operator'), message: `operator "${row.operator}" has no file ${operatorFile(row.operator)}` });
    for (const slug of row.crawlers) {
      const crawler = crawlers.get(slug);
      if (crawler === undefined) {
        problems.push({ file: SOURCES_FILE, path: at(row.id, 'crawlers'), message: `crawler "${slug}" has no file ${crawlerFile(slug)}` });
        continue;
      }
      if (crawler.operator !== row.operator)
        problems.push({
          file: SOURCES_FILE,
          path: at(row.id, 'crawlers'),
          message: `crawler "${slug}" belongs to operator "${crawler.operator}", not "${row.operator}"`,
        });
      const entry = crawler.verification.find((e) => e.method === 'web-bot-auth' && e.directory === row.url);
      if (entry === undefined)
        problems.push({
          file: crawlerFile(slug),
          path: '/verification',
          message: `${SOURCES_FILE} mirrors ${row.url} for "${slug}", so verification must include {method: web-bot-auth, directory: ${row.url}}`,
        });
      else if (
        entry.method === 'web-bot-auth' &&
        entry.signature_agent !== undefined &&
        row.signature_agent !== undefined &&
        entry.signature_agent !== row.signature_agent
      )
        problems.push({
          file: crawlerFile(slug),
          path: '/verification',
          message: `signature_agent "${entry.signature_agent}" differs from "${row.signature_agent}", which ${SOURCES_FILE} row ${row.id} documents`,
        });
    }
  }

  for (const crawler of records.crawlers)
    crawler.verification.forEach((entry, index) => {
      if (entry.method !== 'web-bot-auth') return;
      const row = byUrl.get(entry.directory);
      if (row === undefined || !row.crawlers.includes(crawler.slug))
        problems.push({
          file: crawlerFile(crawler.slug),
          path: `/verification/${index}/directory`,
          message: `needs a ${SOURCES_FILE} row of kind signature-directory with url ${entry.directory} whose crawlers list "${crawler.slug}"`,
        });
    });
  return problems;
}

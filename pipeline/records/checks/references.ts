import type { Problem, RecordFile, RecordSet } from '../types.ts';
import { crawlerFile, SOURCES_FILE } from './where.ts';

/** Every reference between records resolves, and file names match the slugs inside them. */
export function checkReferences(records: RecordSet, files: readonly RecordFile[]): Problem[] {
  const problems: Problem[] = [];
  const operators = new Set(records.operators.map((o) => o.slug));
  const crawlers = new Map(records.crawlers.map((c) => [c.slug, c]));
  const rangeLists = records.sources.filter((s) => s.scope !== 'network');
  const covered = new Set(rangeLists.flatMap((s) => s.crawlers));
  const networkLists = new Map(records.sources.filter((s) => s.scope === 'network').map((s) => [s.id, s]));

  for (const file of files) {
    if (file.schema !== 'crawler' && file.schema !== 'operator') continue;
    const slug = (file.data as { slug?: unknown }).slug;
    const expected = file.file.replace(/^.*\//, '').replace(/\.yaml$/, '');
    if (slug !== expected) problems.push({ file: file.file, path: '/slug', message: `slug "${String(slug)}" must equal the file name "${expected}"` });
  }

  for (const crawler of records.crawlers) {
    const file = crawlerFile(crawler.slug);
    if (!operators.has(crawler.operator))
      problems.push({ file, path: '/operator', message: `operator "${crawler.operator}" has no file records/operators/${crawler.operator}.yaml` });
    const isCovered = covered.has(crawler.slug);
    const listsRanges = crawler.verification.some((entry) => entry.method === 'published-ranges');
    if (listsRanges && !isCovered) {
      problems.push({ file, path: '/verification', message: `published-ranges needs a row in ${SOURCES_FILE} whose crawlers list "${crawler.slug}"` });
    }
    if (!listsRanges && isCovered) {
      problems.push({
        file,
        path: '/verification',
        message: `${SOURCES_FILE} lists "${crawler.slug}" under a published IP list, so verification must include {method: published-ranges}`,
      });
    }
    crawler.verification.forEach((entry, index) => {
      if (entry.method !== 'asn' || entry.source === undefined) return;
      const list = networkLists.get(entry.source);
      if (list === undefined)
        problems.push({
          file,
          path: `/verification/${index}/source`,
          message: `names "${entry.source}", which is no row of ${SOURCES_FILE} with scope network`,
        });
      else if (!list.crawlers.includes(crawler.slug))
        problems.push({
          file,
          path: `/verification/${index}/source`,
          message: `the row "${entry.source}" of ${SOURCES_FILE} must list "${crawler.slug}" among its crawlers`,
        });
    });
  }

  records.sources.forEach((source, index) => {
    if (!operators.has(source.operator))
      problems.push({
        file: SOURCES_FILE,
        path: `/${index}/operator`,
        message: `operator "${source.operator}" has no file records/operators/${source.operator}.yaml`,
      });
    source.crawlers.forEach((slug, position) => {
      const crawler = crawlers.get(slug);
      if (!crawler)
        problems.push({ file: SOURCES_FILE, path: `/${index}/crawlers/${position}`, message: `crawler "${slug}" has no file records/crawlers/${slug}.yaml` });
      else if (crawler.operator !== source.operator)
        problems.push({
          file: SOURCES_FILE,
          path: `/${index}/crawlers/${position}`,
          message: `crawler "${slug}" belongs to operator "${crawler.operator}", not "${source.operator}"`,
        });
    });
  });
  return problems;
}

import { uncitedFields } from '../evidence.ts';
import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

/** Every cited field has a source, and a verification list never says none beside a method. */
export function checkCitations(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  for (const crawler of records.crawlers) {
    const file = crawlerFile(crawler.slug);
    for (const field of uncitedFields(crawler)) {
      problems.push({ file, path: '/citations', message: `no citation supports ${field}: add it to the supports list of the source that shows it` });
    }
    const methods = crawler.verification.map((entry) => entry.method);
    if (methods.includes('none') && methods.length > 1) {
      problems.push({ file, path: '/verification', message: `method none cannot stand beside ${methods.filter((m) => m !== 'none').join(', ')}: remove it` });
    }
    const repeated = methods.filter((m, i) => methods.indexOf(m) !== i);
    if (repeated.length > 0) problems.push({ file, path: '/verification', message: `method ${repeated[0]} appears twice: merge the entries` });
  }
  return problems;
}

import { readFileSync } from 'node:fs';
import { publishedToolData } from '../test/support/tool-data.ts';
import { classify } from '../pipeline/tools/classify/classify.ts';
const data = (await publishedToolData(process.cwd())) as any;
const rows = JSON.parse(readFileSync('/work/wt/dd-clients.json', 'utf8')) as { ua: string; type: string | null; client: string | null; file: string }[];
const hits: Record<string, number> = {};
for (const r of rows) {
  if (r.type === 'feed reader' || r.type === 'library') continue;
  const c = classify(data.classifier, r.ua) as any;
  if (c.matched) { const k = `${c.crawler.slug} <- ${c.matched_substring} [${r.type}]`; hits[k] = (hits[k] ?? 0) + 1; if (hits[k] === 1) console.log(k, '::', r.ua.slice(0, 160)); }
}
console.log(hits);

import { classify } from '../classify/index.ts';
import { listOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { verifyBatch } from '../verify/index.ts';

const LINE_LIMIT = 500;

/** /mcp/triage: classify and verify log lines (address + User-Agent) in one batch. */
export const triageTool = defineTool({
  name: 'triage_log_lines',
  path: null,
  title: 'Triage access-log lines',
  description:
    'Takes up to 500 log lines and says per line which crawler the User-Agent claims and whether the address is genuinely that crawler\'s. Each line is read as its first white-space-separated field (the client address) and the rest of the line (searched for a crawler\'s User-Agent), so "66.249.66.1 Mozilla/5.0 (compatible; Googlebot/2.1; …)" and a whole combined-log line that starts with the address both work. Give the lines as an array, or as one string with one line per row.',
  params: [
    {
      name: 'lines',
      kind: 'list',
      required: true,
      maxItems: LINE_LIMIT,
      split: 'lines',
      description: 'Log lines, each starting with the client address; the rest of the line is searched for the User-Agent.',
      accepted: `1 to ${LINE_LIMIT} lines "<ip> <user-agent>" as an array (or one string with one line per row)`,
    },
  ],
  outputSchema: { type: 'object', required: ['lines', 'summary'] },
  examples: [
    {
      description: 'One genuine and one spoofed Googlebot',
      input: {
        lines: [
          '66.249.66.1 Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
          '203.0.113.9 Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        ],
      },
    },
  ],
  run: (input, { data }) => {
    // Validation already split the lines (split: 'lines') and counted them against the limit.
    const lines = listOf(input, 'lines');
    // One clock reading per call: every line's lists are judged old or current at the same time.
    const now = Date.now();
    const results = lines.map((line) => {
      const [address = '', ...rest] = line.split(/\s+/);
      const ua = rest.join(' ');
      const classification = ua ? classify(data.classifier, ua) : null;
      const verified = verifyBatch(data.prefixes, data.crawlers, [address], ua || undefined, now).results[0];
      return { line, address, user_agent: ua, claims: classification?.matched ? classification.crawler.slug : null, verification: verified ?? null };
    });
    const verdicts: Record<string, number> = {};
    for (const r of results) {
      const v = r.verification && 'verdict' in r.verification ? (r.verification.verdict ?? 'no-claim') : 'invalid-address';
      verdicts[v] = (verdicts[v] ?? 0) + 1;
    }
    return { lines: results, summary: { lines: results.length, verdicts } };
  },
  summarize: (o) => {
    // Unverifiable first (docs/API.md §6.4): those lines could not be checked at all.
    const unverifiable = o.summary.verdicts['unverifiable'] ?? 0;
    const lead =
      unverifiable === 0
        ? ''
        : `Unverifiable: ${unverifiable} line${unverifiable === 1 ? '' : 's'} could not be checked, because a list the verdict needs is missing or out of date (each line's explanation names it and the other ways to check). `;
    const order = (v: string) => (v === 'unverifiable' ? 0 : 1);
    return `${lead}${o.summary.lines} line${o.summary.lines === 1 ? '' : 's'}: ${Object.entries(o.summary.verdicts)
      .sort(([a], [b]) => order(a) - order(b))
      .map(([v, n]) => `${n} ${v}`)
      .join(', ')}.`;
  },
});

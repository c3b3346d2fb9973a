import { classify } from '../classify/index.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { verifyBatch } from '../verify/index.ts';

const LINE_LIMIT = 500;

/** /mcp/triage: classify and verify log lines (address + User-Agent) in one batch. */
export const triageTool = defineTool({
  name: 'triage_log_lines',
  path: null,
  title: 'Triage access-log lines',
  description:
    'Takes up to 500 log lines, each an IP address followed by the User-Agent (for example "66.249.66.1 Mozilla/5.0 (compatible; Googlebot/2.1; …)"), and says per line which crawler the User-Agent claims and whether the address is genuinely that crawler\'s.',
  params: [
    {
      name: 'lines',
      kind: 'list',
      required: true,
      maxItems: LINE_LIMIT,
      description: 'Log lines: an address, white space, then the User-Agent.',
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
    const raw = Array.isArray(input['lines']) ? (input['lines'] as string[]) : textOf(input, 'lines').split(/\r?\n/);
    const lines = raw
      .flatMap((l) => l.split(/\r?\n/))
      .map((l) => l.trim())
      .filter(Boolean);
    const results = lines.map((line) => {
      const [address = '', ...rest] = line.split(/\s+/);
      const ua = rest.join(' ');
      const classification = ua ? classify(data.classifier, ua) : null;
      const verified = verifyBatch(data.prefixes, data.crawlers, [address], ua || undefined).results[0];
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
    return `${o.summary.lines} line${o.summary.lines === 1 ? '' : 's'}: ${Object.entries(o.summary.verdicts)
      .map(([v, n]) => `${n} ${v}`)
      .join(', ')}.`;
  },
});

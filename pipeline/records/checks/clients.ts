import { foldAscii } from '../../util/ascii.ts';
import type { Problem, RecordSet } from '../types.ts';
import { userAgentSubstrings } from '../user-agent-forms.ts';

const CLIENTS_FILE = 'records/clients.yaml';

/**
 * A client entry must be reachable: its example carries its substring, no two entries share an
 * id or a substring, and no crawler's substring occurs in its example (the classifier tries
 * crawlers first, so such a header would always be named as that crawler).
 */
export function checkClients(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  const crawlerSubstrings = records.crawlers.flatMap((c) => userAgentSubstrings(c).map((substring) => ({ slug: c.slug, folded: foldAscii(substring) })));
  const ids = new Set<string>();
  const substrings = new Map<string, string>();
  records.clients.forEach((client, index) => {
    const at = (field: string) => `/${index}/${field}`;
    if (ids.has(client.id)) problems.push({ file: CLIENTS_FILE, path: at('id'), message: `"${client.id}" is listed twice` });
    ids.add(client.id);
    const folded = foldAscii(client.user_agent_substring);
    const owner = substrings.get(folded);
    if (owner !== undefined)
      problems.push({ file: CLIENTS_FILE, path: at('user_agent_substring'), message: `"${client.user_agent_substring}" is also the substring of ${owner}` });
    substrings.set(folded, client.id);
    const example = foldAscii(client.user_agent_example);
    if (!example.includes(folded))
      problems.push({ file: CLIENTS_FILE, path: at('user_agent_example'), message: `does not contain the substring "${client.user_agent_substring}"` });
    const shadow = crawlerSubstrings.find((c) => example.includes(c.folded));
    if (shadow !== undefined)
      problems.push({
        file: CLIENTS_FILE,
        path: at('user_agent_example'),
        message: `contains the substring of records/crawlers/${shadow.slug}.yaml, so the classifier would name that crawler for this header; if it is that crawler, drop the entry`,
      });
  });
  return problems;
}

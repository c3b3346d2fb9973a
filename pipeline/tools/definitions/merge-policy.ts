import { POLICY_IDS } from '../../records/types.ts';
import { parseRobotsTxt } from '../robots/index.ts';
import { textOf } from '../registry/input.ts';
import { defineTool, type PublishedPolicy } from '../registry/types.ts';
import { ROBOTS_TXT } from './robots-answers.ts';

// Appending a policy's fragment to a robots.txt that already names some of its crawlers makes
// a second group for them, which parsers that stop at the first matching group ignore. This
// merges instead: a crawler the file already has a group for gets the policy's rule inside that
// group; the others get a group of their own at the end. Pure text in, text out.

interface Merged {
  policy: string;
  robots_txt: string;
  added_groups: string[];
  extended_groups: { token: string; line: number; note: string }[];
  unchanged: { token: string; line: number }[];
}

function merge(file: string, policy: PublishedPolicy): Merged {
  const rule = policy.directive === 'allow' ? 'Allow: /' : 'Disallow: /';
  const parsed = parseRobotsTxt(file);
  const lines = file.length === 0 ? [] : file.replace(/\r?\n$/, '').split(/\r?\n/);
  // Where each token already has a group: the group's last user-agent or rule line.
  const groupOf = new Map<string, { end: number; first: number; rules: string[] }>();
  for (const group of parsed.groups) {
    const end = Math.max(...group.user_agents.map((u) => u.line), ...group.rules.map((r) => r.line));
    for (const ua of group.user_agents)
      for (const name of [ua.token, ua.whole_name, ua.value]) {
        if (name !== '*' && !groupOf.has(name.toLowerCase()))
          groupOf.set(name.toLowerCase(), {
            end,
            first: ua.line,
            rules: group.rules.map((r) => `${r.directive === 'allow' ? 'Allow' : 'Disallow'}: ${r.value}`),
          });
      }
  }
  const insertAfter = new Map<number, string[]>();
  const added: string[] = [];
  const extended: Merged['extended_groups'] = [];
  const unchanged: Merged['unchanged'] = [];
  const tail: string[] = [];
  for (const crawler of policy.directive === 'none' ? [] : policy.crawlers) {
    const token = crawler.robots_token;
    const existing = groupOf.get(token.toLowerCase());
    if (existing === undefined) {
      tail.push('', `# ${token}: ${policy.title} (Crawler Index policy ${policy.id})`, `User-agent: ${token}`, rule);
      added.push(token);
    } else if (existing.rules.includes(rule)) {
      unchanged.push({ token, line: existing.first });
    } else {
      insertAfter.set(existing.end, [...(insertAfter.get(existing.end) ?? []), rule]);
      extended.push({
        token,
        line: existing.first,
        note: `${token} already has a group at line ${existing.first}; "${rule}" was added to it. Its other rules still apply, and a longer Allow in it still wins over "${rule}" for the paths it matches.`,
      });
    }
  }
  const out: string[] = [];
  lines.forEach((text, index) => {
    out.push(text);
    // A rule is added once per group, however many of its names the policy lists.
    for (const added of new Set(insertAfter.get(index + 1) ?? [])) out.push(added);
  });
  return { policy: policy.id, robots_txt: `${[...out, ...tail].join('\n').replace(/^\n+/, '')}\n`, added_groups: added, extended_groups: extended, unchanged };
}

export const mergePolicyTool = defineTool({
  name: 'merge_policy',
  path: 'policy-merge',
  title: 'Merge a policy into a robots.txt',
  description:
    "Adds one of the ready-made policies to a robots.txt without making a second group for a crawler the file already names: such a crawler gets the policy's rule inside its existing group, the others a group of their own at the end. Returns the merged file and what was added, extended or already there.",
  params: [
    ROBOTS_TXT,
    {
      name: 'policy',
      kind: 'string',
      required: true,
      maxBytes: 64,
      description: 'Which policy to merge.',
      accepted: `one of ${POLICY_IDS.join(', ')}`,
      values: POLICY_IDS,
      example: 'block-ai-training',
    },
  ],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: ['policy', 'robots_txt', 'added_groups', 'extended_groups', 'unchanged'],
    properties: {
      policy: { type: 'string' },
      robots_txt: { type: 'string', description: 'The merged file' },
      added_groups: { type: 'array', items: { type: 'string' } },
      extended_groups: {
        type: 'array',
        items: {
          type: 'object',
          required: ['token', 'line', 'note'],
          properties: { token: { type: 'string' }, line: { type: 'integer' }, note: { type: 'string' } },
        },
      },
      unchanged: {
        type: 'array',
        items: { type: 'object', required: ['token', 'line'], properties: { token: { type: 'string' }, line: { type: 'integer' } } },
      },
    },
  },
  examples: [
    {
      description: 'Block AI training in a file that already names GPTBot',
      input: { robots_txt: 'User-agent: GPTBot\nAllow: /public\n', policy: 'block-ai-training' },
    },
  ],
  run: (input, { data }) => {
    const policy = data.policies.find((p) => p.id === textOf(input, 'policy'))!;
    return merge(textOf(input, 'robots_txt'), policy);
  },
  summarize: (o) =>
    `Merged ${o.policy}: ${o.added_groups.length} new groups, ${o.extended_groups.length} existing groups extended, ${o.unchanged.length} already as the policy asks.` +
    o.extended_groups.map((e) => `\n${e.note}`).join(''),
});

import { POLICY_IDS } from '../../records/types.ts';
import { DIALECTS, type ServerId } from '../../render/server/dialects.ts';
import { href } from '../../paths.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';

// A policy enforced at the server: the stored config file exactly as /policy/{id}.<server>.conf
// publishes it, with what it cannot enforce and its figures from /data/policy-accuracy.json, so
// a model or a script gets the file and the evidence in one answer.

const SERVERS: readonly ServerId[] = DIALECTS.map((d) => d.id);

export const serverConfigTool = defineTool({
  name: 'server_config',
  path: 'server-config',
  title: 'A policy as nginx, Apache, Caddy or HAProxy config',
  description:
    'Returns one of the 8 ready-made policies as a config for nginx, Apache, Caddy or HAProxy that answers 403 to the crawlers it names by their User-Agent, with the tokens only robots.txt can carry and the measured matches against real browser and crawler headers.',
  params: [
    {
      name: 'policy',
      kind: 'string',
      required: true,
      maxBytes: 64,
      description: 'Which policy.',
      accepted: `one of ${POLICY_IDS.join(', ')}`,
      values: POLICY_IDS,
    },
    {
      name: 'server',
      kind: 'string',
      required: false,
      maxBytes: 16,
      description: 'Which server the config is for.',
      accepted: `one of ${SERVERS.join(', ')}`,
      values: SERVERS,
      default: 'nginx',
    },
  ],
  outputSchema: {
    type: 'object',
    required: ['policy', 'server', 'url', 'config', 'cannot_enforce', 'accuracy'],
    properties: {
      policy: { type: 'string' },
      server: { enum: [...SERVERS] },
      url: { type: 'string', format: 'uri' },
      config: { type: 'string', description: 'The file as published' },
      cannot_enforce: {
        type: 'array',
        items: {
          type: 'object',
          required: ['slug', 'robots_token', 'why'],
          properties: { slug: { type: 'string' }, robots_token: { type: ['string', 'null'] }, why: { type: 'string' } },
        },
      },
      accuracy: {
        type: ['object', 'null'],
        description: `This file's row of ${href('policy_accuracy')}: named crawlers matched and missed, browsers and peer headers matched`,
      },
    },
  },
  examples: [
    { description: 'Block AI training with nginx', input: { policy: 'block-ai-training', server: 'nginx' } },
    { description: 'Block SEO tools with HAProxy', input: { policy: 'block-seo-tools', server: 'haproxy' } },
  ],
  run: (input, { data }) => {
    const policy = textOf(input, 'policy');
    const server = (textOf(input, 'server') || 'nginx') as ServerId;
    const dialect = DIALECTS.find((d) => d.id === server)!;
    const row = data.accuracy.find((p) => p.id === policy);
    return {
      policy,
      server,
      url: `${data.baseUrl}${href(dialect.route, policy)}`,
      config: data.serverConfigs.get(`${policy} ${server}`) ?? '',
      cannot_enforce: row?.cannot_enforce ?? [],
      accuracy: row?.servers.find((s) => s.server === server) ?? null,
    };
  },
  summarize: (output) => output.config,
});

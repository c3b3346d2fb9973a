import { appendFile, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO, tempProject } from './project.ts';

/** The id of the ChatGPT agent's key directory in records/sources.yaml. */
export const AGENT_DIRECTORY_ID = 'openai-chatgpt-agent';
export const AGENT_DIRECTORY_URL = 'https://chatgpt.com/.well-known/http-message-signatures-directory';

/** The mini index plus the repository's ChatGPT agent record and its key directory's row: a small tree with a Web Bot Auth directory, which builds fast. */
export async function projectWithAgent(): Promise<Awaited<ReturnType<typeof tempProject>>> {
  const made = await tempProject('mini');
  await copyFile(join(REPO, 'records', 'crawlers', 'chatgpt-agent.yaml'), join(made.root, 'records', 'crawlers', 'chatgpt-agent.yaml'));
  const row = [
    '',
    `- id: ${AGENT_DIRECTORY_ID}`,
    '  kind: signature-directory',
    '  operator: openai',
    '  title: OpenAI ChatGPT agent signing keys',
    `  url: ${AGENT_DIRECTORY_URL}`,
    '  signature_agent: https://chatgpt.com',
    '  crawlers: [chatgpt-agent]',
    '',
  ].join('\n');
  await appendFile(join(made.root, 'records', 'sources.yaml'), row);
  return made;
}

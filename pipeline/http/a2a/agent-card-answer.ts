import { agentCard } from '../../render/agent-card.ts';
import type { Answerer } from '../answer-context.ts';
import { documentResponse } from '../document-answer.ts';
import { jsonDocument } from '../store.ts';

/**
 * The agent card, stored for static hosts; here it names this server's own /a2a, so an A2A
 * client stays on it. It keeps the stored file's date.
 */
export const answerAgentCard: Answerer<'agent-card'> = async (_how, { request, path, headers, here }, { store }) => {
  const lastModified = (await store.get(path))?.lastModified ?? (await store.generatedAt());
  return documentResponse(await jsonDocument(path, agentCard(here), lastModified), request, headers);
};

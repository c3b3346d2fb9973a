import type { Answerer } from './answer-context.ts';
import { documentResponse } from './document-answer.ts';
import { hitsResponse } from './request-log.ts';

// The two paths the request log answers (docs/API.md §4.3a): the public aggregate and the raw
// rows behind the export key.

export const answerStats: Answerer<'stats'> = async (_how, { request, headers }, { views }) =>
  documentResponse((await views.read()).stats, request, { ...headers, 'cache-control': 'max-age=60' });

export const answerHits: Answerer<'hits'> = (_how, { request, url, headers, here }, { visits }) => hitsResponse(visits, request, url, here.base_url, headers);

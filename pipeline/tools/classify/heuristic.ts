// What we say about a User-Agent that names no crawler in the index. It is a guess about the
// shape of the string (isbot's patterns), labelled as such, never an identification: the
// header is free text that any client can set.

import { isbot, isbotMatch, isbotPattern } from 'isbot';
import type { ClientMatch } from './clients.ts';
import { utf8Length } from '../../util/utf8-length.ts';

/** The longest header examined. The HTTP layer rejects longer values first; this is the backstop. */
export const UA_LIMIT_BYTES = 8192;

export const HEURISTIC_LABEL = 'heuristic, not an identification';

/** Why a header was not examined at all. */
export type InputIssue = 'not-a-string' | 'empty' | 'too-long' | 'control-characters';

interface Heuristic {
  label: typeof HEURISTIC_LABEL;
  /** isbot's verdict on the string's shape. */
  looks_automated: boolean;
  /** The isbot pattern that matched, as regex source; null when none did. */
  pattern: string | null;
  /** The part of the header that pattern matched; null when none did. */
  matched_text: string | null;
  note: string;
}

export interface Unmatched {
  matched: false;
  /** A non-crawler client (library, monitor, tool) whose default header this is; null when none matches. */
  client: ClientMatch | null;
  /** Set when the header was not examined (the caller should have rejected it). */
  input_issue: InputIssue | null;
  heuristic: Heuristic;
}

// HTAB is allowed inside a field value (RFC 9110 section 5.5); other controls are not.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** The reason a value cannot be a User-Agent header worth examining, or null. */
export function inputIssue(userAgent: unknown): InputIssue | null {
  if (typeof userAgent !== 'string') return 'not-a-string';
  if (userAgent.trim() === '') return 'empty';
  if (utf8Length(userAgent, UA_LIMIT_BYTES) > UA_LIMIT_BYTES) return 'too-long';
  if (CONTROL.test(userAgent)) return 'control-characters';
  return null;
}

const ISSUE_NOTES: Record<InputIssue, string> = {
  'not-a-string': 'The value is not a string, so it was not examined.',
  empty: 'The header is empty, so it was not examined.',
  'too-long': `The header is longer than ${UA_LIMIT_BYTES} bytes, so it was not examined.`,
  'control-characters': 'The header holds control characters, which a User-Agent field value cannot contain, so it was not examined.',
};

export function unexamined(issue: InputIssue): Unmatched {
  return {
    matched: false,
    client: null,
    input_issue: issue,
    heuristic: { label: HEURISTIC_LABEL, looks_automated: false, pattern: null, matched_text: null, note: ISSUE_NOTES[issue] },
  };
}

export function heuristicAnswer(userAgent: string, client: ClientMatch | null = null): Unmatched {
  const looksAutomated = isbot(userAgent);
  const pattern = looksAutomated ? isbotPattern(userAgent) : null;
  const matchedText = looksAutomated ? isbotMatch(userAgent) : null;
  const note = looksAutomated
    ? `No crawler in the index has a user-agent substring in this header. Its shape resembles automated clients (isbot matched ${JSON.stringify(matchedText)}); that is a guess about the string, not an identification of who sent it.`
    : 'No crawler in the index has a user-agent substring in this header, and its shape does not resemble known automated clients (isbot). That is a guess about the string, not an identification: any client can send any User-Agent.';
  return {
    matched: false,
    client,
    input_issue: null,
    heuristic: { label: HEURISTIC_LABEL, looks_automated: looksAutomated, pattern, matched_text: matchedText, note },
  };
}

// The Signature-Agent header names who signed. The current Web Bot Auth drafts make it a
// structured-field dictionary (RFC 8941 3.2), one member per signature, selected in the
// signature by the covered component's `key` parameter: agent1="https://agent.example".
// Earlier drafts, and agents still on them, send one bare string: "https://agent.example"
// (quoted, an sf-string) or the URL unquoted. Both are read; the answer says which was sent.
import { parseDictionary, parseItem, Token } from 'structured-headers';

export type AgentForm = 'dictionary' | 'string';

export type AgentReading =
  | { ok: true; form: AgentForm /** The dictionary member read, for the dictionary form. */; member: string | null; url: string }
  | { ok: false; message: string };

/**
 * Reads the header's agent URL for one signature: the member its covered component selects
 * (`key`), else the member named like the signature's label, else the only member.
 */
export function readSignatureAgent(value: string, selectedKey: string | null, label: string): AgentReading {
  const dictionary = tryDictionary(value);
  if (dictionary !== null) {
    const name = selectedKey ?? (dictionary.has(label) ? label : dictionary.size === 1 ? [...dictionary.keys()][0] : undefined);
    if (name === undefined)
      return {
        ok: false,
        message: `Signature-Agent has ${dictionary.size} members and the signature selects none of them (a key parameter on "signature-agent", or a member named ${label}).`,
      };
    const member = dictionary.get(name);
    if (member === undefined) return { ok: false, message: `Signature-Agent has no member "${name}", which the signature covers.` };
    const item = member[0];
    const text = Array.isArray(item) ? null : itemText(item);
    if (text === null) return { ok: false, message: `Signature-Agent member "${name}" is not a string.` };
    return agentUrl(text, 'dictionary', name);
  }
  let item: ReturnType<typeof parseItem>;
  try {
    item = parseItem(value);
  } catch {
    return { ok: false, message: 'Signature-Agent is neither a structured-field dictionary (agent1="https://...") nor one string ("https://...").' };
  }
  const text = itemText(item[0]);
  if (text === null) return { ok: false, message: 'Signature-Agent is not a string.' };
  return agentUrl(text, 'string', null);
}

function tryDictionary(value: string): ReturnType<typeof parseDictionary> | null {
  try {
    return parseDictionary(value);
  } catch {
    // Not a dictionary: the caller reads it as the older single string.
    return null;
  }
}

function itemText(item: unknown): string | null {
  if (typeof item === 'string') return item;
  if (item instanceof Token) return item.toString();
  return null;
}

function agentUrl(text: string, form: AgentForm, member: string | null): AgentReading {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { ok: true, form, member, url: text };
  } catch {
    // Reported below with the value.
  }
  return { ok: false, message: `Signature-Agent "${text.slice(0, 80)}" is not an http or https URL.` };
}

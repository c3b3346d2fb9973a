import { classify, inputIssue } from '../classify/index.ts';
import { bookRequest, type Booking } from '../booking.ts';
import { defineTool, type Caller } from '../registry/types.ts';
import { lookup } from '../verify/index.ts';

export const whoamiTool = defineTool({
  name: 'whoami',
  path: 'whoami',
  title: 'Who does this service think I am?',
  description:
    'Answers about the calling request: the User-Agent sent, the source address, whether the index recognises the caller, whether an operator publishes a prefix containing the address, how the service books the request (the crawler its User-Agent names and what its address shows), and whether the request log has seen the address before today (addresses are kept only as hashes under a salt that changes every day).',
  params: [],
  runsWithoutParams: true,
  answersForCaller: true,
  readsCallerHistory: true,
  outputSchema: {
    type: 'object',
    required: ['user_agent', 'address', 'recognised', 'in_published_range', 'seen_before', 'booked_as', 'signed'],
    properties: {
      signed: {
        type: 'object',
        required: ['known', 'signed', 'headers', 'signature_agent', 'note'],
        description: 'Whether this request carried HTTP Message Signature headers (Web Bot Auth); known is false where the transport passes no headers',
      },
    },
  },
  examples: [{ description: 'No input', input: {} }],
  run: (_input, { data, caller }) => {
    const classification = caller.userAgent !== null && inputIssue(caller.userAgent) === null ? classify(data.classifier, caller.userAgent) : null;
    const found = caller.address ? lookup(data.prefixes, caller.address) : null;
    return {
      user_agent: caller.userAgent,
      address: caller.address,
      recognised: classification?.matched
        ? { slug: classification.crawler.slug, name: classification.crawler.name, operator: classification.crawler.operator }
        : null,
      in_published_range:
        found?.valid && found.matches.length > 0 ? found.matches.map((m) => ({ source: m.source, operator: m.operator, prefix: m.prefix })) : [],
      seen_before: seenBefore(caller),
      booked_as: bookedAs(bookRequest(data, caller.userAgent, caller.address)),
      signed: signedAs(caller),
    };
  },
  summarize: (o) => {
    return `You sent User-Agent "${o.user_agent ?? ''}" from ${o.address ?? 'an unknown address'}. ${o.recognised ? `The index recognises it as ${o.recognised.name}.` : 'The index does not recognise it.'} ${o.in_published_range.length > 0 ? `The address is in ${o.in_published_range.map((m) => m.source).join(', ')}.` : 'The address is in no operator-published range.'}${o.signed.signed ? ` The request was signed${o.signed.signature_agent ? ` (Signature-Agent ${o.signed.signature_agent})` : ''}; verify_signature checks it.` : ''}`;
  },
});

/** Which signature headers the request carried; checking them is verify_signature's job, with the agent's key directory. */
function signedAs(caller: Caller) {
  const sent = caller.signatureHeaders;
  if (sent === undefined) return { known: false, signed: false, headers: [], signature_agent: null, note: 'This transport passes no request headers.' };
  const headers = [
    ...(sent.signature === null ? [] : ['Signature']),
    ...(sent.signatureInput === null ? [] : ['Signature-Input']),
    ...(sent.signatureAgent === null ? [] : ['Signature-Agent']),
  ];
  const signed = sent.signature !== null && sent.signatureInput !== null;
  return {
    known: true,
    signed,
    headers,
    signature_agent: sent.signatureAgent,
    note: signed
      ? "The request carried a signature; verify_signature checks it against the agent's key directory (it is not checked here)."
      : headers.length > 0
        ? `The request carried ${headers.join(' and ')} but not both Signature and Signature-Input, so it is not signed.`
        : 'The request carried no Signature, Signature-Input or Signature-Agent header.',
  };
}

function seenBefore(caller: Caller) {
  const history = caller.history;
  if (history === undefined || history.log !== 'ok') {
    return { known: false, reason: history?.reason ?? 'This service keeps no request log, so it cannot say.' };
  }
  if (caller.address === null) return { known: false, reason: 'The transport gave no address for this request.' };
  const lookup = history.visitor;
  if (lookup === null) return { known: false, reason: 'The request log gave no answer for this address.' };
  if (!lookup.counted) return { known: false, reason: lookup.reason };
  const visitor = lookup.visitor;
  const note = 'Counted today only: the log keeps addresses as hashes under a salt that changes every UTC day and at every restart.';
  if (visitor === null) return { known: true, seen: false, requests: 0, first_seen: null, last_seen: null, note };
  return {
    known: true,
    seen: true,
    requests: visitor.requests,
    first_seen: new Date(visitor.first_seen).toISOString(),
    last_seen: new Date(visitor.last_seen).toISOString(),
    note,
  };
}

const VERDICT_WORDS: Record<NonNullable<Booking['verdict']>, string> = {
  genuine: 'the address is one its operator publishes for it',
  'operator-network': "the address is in its operator's network, which is all this crawler's verification can show",
  'not-genuine': 'the address is not one its operator publishes for it: the User-Agent is borrowed',
  unverifiable:
    "the address could not be checked: its operator offers no check of the address alone, or this service's copy of the crawler's list is missing or over 48 hours old",
};

function bookedAs(booking: Booking) {
  if (booking.crawler === null)
    return { known: true, crawler: null, category: null, verdict: null, label: 'visitor: the User-Agent names no crawler in the index' };
  return {
    known: true,
    crawler: booking.crawler,
    category: booking.category,
    verdict: booking.verdict,
    label: `claims to be ${booking.crawler}; ${booking.verdict === null ? 'no verdict' : VERDICT_WORDS[booking.verdict]}`,
  };
}

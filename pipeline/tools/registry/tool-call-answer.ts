// The JSON-RPC answer to an MCP tools/call (docs/API.md §4.6), whose result carries the tool's
// output twice: a one-line summary and the output as JSON text in `content`, and the output in
// `structuredContent`. Laid out as the MCP SDK writes it (JSON.stringify of {result, jsonrpc,
// id}), so that the thread which ran the tool writes the whole answer and takes its ETag. The
// answering thread sends those bytes only when the SDK's own answer has this very layout
// (http/mcp.ts); otherwise it splices the output into the SDK's answer itself.

/** A JSON-RPC request's id, echoed in its answer. */
export type AnswerId = string | number | null;

/**
 * The answer's text around the output's two places, in order: before the output as a JSON
 * string literal, between it and the output as JSON, and after.
 */
export function toolCallAnswerFrame(summary: string, id: AnswerId): readonly [string, string, string] {
  return [
    `{"result":{"content":[{"type":"text","text":${JSON.stringify(summary)}},{"type":"text","text":`,
    '}],"structuredContent":',
    `},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
  ];
}

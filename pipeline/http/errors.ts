// One error shape for every surface (schemas/outputs/error.schema.json):
// {"error": {"code", "message", "status", "field"?, "accepted"?, "allow"?, "documentation"?}}.

export interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
  accepted?: string;
  allow?: readonly string[];
  documentation?: string;
}

export function errorBody(status: number, detail: ErrorDetail): string {
  const { code, message, field, accepted, allow, documentation } = detail;
  return JSON.stringify({ error: { code, message, status, field, accepted, allow, documentation } }, null, 2) + '\n';
}

export function errorResponse(status: number, detail: ErrorDetail, headers: HeadersInit = {}): Response {
  return new Response(errorBody(status, detail), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** What it takes to use the API: nothing. The root document and the reference both say so. */
export const ACCESS = {
  auth: 'none',
  api_key: false,
  account: false,
  rate_limit: 'none imposed',
  cors: 'Access-Control-Allow-Origin: *',
} as const;

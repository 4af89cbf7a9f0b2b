/** What `npm start` prints once the gateway answers: where it is and how to try it. */
export function banner(o: {
  /** Where the gateway answers (`http://host:port`); the API is under `/v1`. */
  origin: string;
  simUrl: string;
  adminToken: string;
  apiKey: string;
  dataDir: string;
  keyFromEnv: boolean;
  tokenFromEnv: boolean;
}): string {
  // A key or token the operator supplied is referenced, not echoed: it may be a production secret.
  const keyRef = o.keyFromEnv ? '$UNIGATE_BOOTSTRAP_KEY' : o.apiKey;
  const { origin } = o;
  const baseUrl = `${origin}/v1`;
  const curl = [
    `curl ${baseUrl}/chat/completions \\`,
    `  -H "Authorization: Bearer ${keyRef}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"model":"sigma-sonnet-4-6","messages":[{"role":"user","content":"Hello!"}]}'`,
  ].join('\n');
  return [
    '',
    'Unigate is running (standalone: every service in one process, embedded storage).',
    '',
    `  Base URL     ${baseUrl}`,
    `  Admin token  ${o.tokenFromEnv ? 'from UNIGATE_ADMIN_TOKEN' : `${o.adminToken}   (kept in ${o.dataDir}/admin-token)`}   (Authorization: Bearer … on /admin/v1/*)`,
    `  API key      ${o.keyFromEnv ? 'from UNIGATE_BOOTSTRAP_KEY' : `${o.apiKey}   (kept in ${o.dataDir}/bootstrap-key)`}`,
    `  API docs     ${origin}/docs   (OpenAPI: ${origin}/openapi.json; MCP: ${origin}/mcp)`,
    `  Dashboard    ${origin}/dashboard   (sign up, keys, usage)`,
    `  Simulator    ${o.simUrl}   (default upstream for every model)`,
    `  Data         ${o.dataDir}`,
    '',
    'Try it:',
    '',
    curl,
    '',
  ].join('\n');
}

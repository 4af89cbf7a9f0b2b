/**
 * checkRoute: a target is measured only when it answers both cases and its calls reach the shared
 * simulator on the path a direct call takes. A local server stands in for the simulator (its
 * /_sim/requests log) and one for the target, which forwards on a path the test picks.
 */
import { localServers } from './local-servers';
import { CHAT_PATH, checkRoute, chatBody, largeConversation } from './requests.mjs';

const config = { model: 'omega-k3', maxTokens: 8 };
const servers = localServers();

/** The simulator's request log, and a target that logs `upstreamPath` there and answers with `status`. */
async function stack(upstreamPath: string, status = 200) {
  let log: Array<{ path: string }> = [];
  const sim = await servers.listen((req, res) => {
    if (req.method === 'DELETE') log = [];
    res.end(JSON.stringify({ data: log }));
  });
  const origin = await servers.listen((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      log.push({ path: upstreamPath });
      res.writeHead(status);
      res.end(JSON.parse(body).stream ? 'data: {"choices":[]}\n\ndata: [DONE]\n\n' : '{"choices":[]}');
    });
  });
  return { sim, target: { name: 'gw', origin, headers: {} } };
}

afterEach(() => servers.closeAll());

describe('checkRoute', () => {
  it('passes a target whose two calls reach the simulator on the chat path', async () => {
    const { sim, target } = await stack(CHAT_PATH);
    await expect(checkRoute(target, sim, config)).resolves.toBe(CHAT_PATH);
  });

  it('refuses a target that calls the simulator on another path, saying which', async () => {
    const { sim, target } = await stack('/v1/responses');
    await expect(checkRoute(target, sim, config)).rejects.toThrow('gw calls the simulator on /v1/responses, not /v1/chat/completions');
  });

  it('refuses a target that does not serve the request, with its answer', async () => {
    const { sim, target } = await stack(CHAT_PATH, 401);
    await expect(checkRoute(target, sim, config)).rejects.toThrow('gw non-streaming: HTTP 401');
  });
});

describe('chatBody', () => {
  it('asks a stream for its usage chunk, and puts the ~60 KB conversation before the large case’s prompt', () => {
    const stream = JSON.parse(chatBody(config, true));
    expect(stream).toMatchObject({ model: 'omega-k3', max_tokens: 8, stream: true, stream_options: { include_usage: true } });
    const large = JSON.parse(chatBody(config, false, true));
    expect(large.messages).toHaveLength(41);
    expect(large).not.toHaveProperty('stream');
    const size = JSON.stringify(largeConversation()).length;
    expect(size).toBeGreaterThan(55_000);
    expect(size).toBeLessThan(70_000);
  });
});

/**
 * The request every target gets: POST /v1/chat/completions with a short prompt. Streams ask for the
 * usage chunk themselves, because Unigate always asks the upstream for it (it meters from it): this
 * way the simulator streams the same events whichever target forwards the request.
 */
export const CHAT_PATH = '/v1/chat/completions';

export function chatBody(config, stream, large = false) {
  return JSON.stringify({
    model: config.model,
    messages: [...(large ? largeConversation() : []), { role: 'user', content: 'Say hello in five words.' }],
    max_tokens: config.maxTokens,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/**
 * The conversation in front of the large case's last message: 40 turns of code-like text, ~60 KB in
 * all, the size of a coding agent's request (Claude Code and Codex resend the whole session each turn).
 * Every gateway reads, checks and forwards all of it, and Unigate also estimates its tokens for the hold.
 */
export function largeConversation() {
  return Array.from({ length: 40 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Line ${i} of a long coding session: const x = compute(y, "z"); `.repeat(25),
  }));
}

/** One request; throws with the answer when the target does not serve the case properly. */
async function expectServed(target, config, stream) {
  const response = await fetch(`${target.origin}${CHAT_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: chatBody(config, stream),
  });
  const text = await response.text();
  const ok = response.status === 200 && (stream ? text.includes('data: [DONE]') : text.includes('"choices"'));
  if (!ok) throw new Error(`${target.name} ${stream ? 'streaming' : 'non-streaming'}: HTTP ${response.status} ${text.slice(0, 300)}`);
}

/**
 * Checks that the target answers both cases and that its calls reach the shared simulator, on the same
 * path as a direct call: a misconfigured target must say why, not fill a table. Returns the path.
 */
export async function checkRoute(target, simUrl, config) {
  await fetch(`${simUrl}/_sim/requests`, { method: 'DELETE' });
  await expectServed(target, config, false);
  await expectServed(target, config, true);
  const { data } = await (await fetch(`${simUrl}/_sim/requests`)).json();
  if (data.length !== 2) throw new Error(`${target.name}: the simulator saw ${data.length} requests for 2 sent through it`);
  const paths = [...new Set(data.map((r) => r.path))];
  if (paths.length !== 1 || paths[0] !== CHAT_PATH) {
    throw new Error(
      `${target.name} calls the simulator on ${paths.join(', ')}, not ${CHAT_PATH}: pick a model it forwards unchanged (BENCH_MODEL)`,
    );
  }
  return paths[0];
}

/**
 * A chat-completions request → the Responses request that asks the same thing (a chat-completions or
 * messages client on a model only reachable over the Responses API):
 *
 * - system messages → system messages in place; user content → input_text / input_image parts;
 * - assistant content → an assistant message, its tool_calls → function_call items; `tool` messages →
 *   function_call_output items;
 * - tools → function tools, tool_choice → the same choice (a named function by name);
 * - max_tokens / max_completion_tokens → max_output_tokens; temperature, top_p, user and
 *   parallel_tool_calls pass; reasoning_effort → reasoning.effort; response_format →
 *   text.format;
 * - store is off: the gateway keeps conversations itself. `stop`, penalties, seed and logprobs have
 *   no Responses counterpart and are dropped; `n` above 1 and media other than images are refused.
 */
import {
  errors,
  REASONING_EFFORTS,
  requestedMaxTokens,
  type ChatCompletionRequest,
  type ChatMessage,
  type ResponsesContentPart,
  type ResponsesInputItem,
  type ResponsesRequest,
} from '@unigate/contracts';

const EFFORTS = new Set<string>(REASONING_EFFORTS);

export function chatToResponsesRequest(chat: ChatCompletionRequest, opts: { model: string }): ResponsesRequest {
  if ((chat.n ?? 1) > 1) throw errors.invalidRequest(`Invalid 'n': this model returns one choice per request; n must be 1.`, 'n');
  const input: ResponsesInputItem[] = [];
  chat.messages.forEach((m, i) => input.push(...items(m, `messages[${i}]`)));

  const req: ResponsesRequest = { model: opts.model, input, store: false };
  if (chat.tools?.length) {
    req.tools = chat.tools.map((t) => ({
      type: 'function' as const,
      name: t.function.name,
      ...(t.function.description !== undefined && { description: t.function.description }),
      parameters: t.function.parameters ?? { type: 'object', properties: {} },
      strict: false,
    }));
    const choice = chat.tool_choice;
    if (typeof choice === 'string') req.tool_choice = choice;
    else if (choice) req.tool_choice = { type: 'function', name: choice.function.name };
    const parallel = (chat as { parallel_tool_calls?: unknown }).parallel_tool_calls;
    if (typeof parallel === 'boolean') req.parallel_tool_calls = parallel;
  }
  const max = requestedMaxTokens(chat);
  if (max !== undefined) req.max_output_tokens = max;
  if (chat.temperature !== undefined) req.temperature = chat.temperature;
  if (chat.top_p !== undefined) req.top_p = chat.top_p;
  if (chat.user) req.user = chat.user;
  if (chat.reasoning_effort && EFFORTS.has(chat.reasoning_effort)) {
    req.reasoning = { effort: chat.reasoning_effort as (typeof REASONING_EFFORTS)[number] };
  }
  const format = chat.response_format;
  if (format?.type === 'json_object') req.text = { format: { type: 'json_object' } };
  if (format?.type === 'json_schema') {
    req.text = {
      format: { type: 'json_schema', name: format.json_schema.name ?? 'output', schema: format.json_schema.schema ?? { type: 'object' } },
    };
  }
  return req;
}

function items(m: ChatMessage, path: string): ResponsesInputItem[] {
  switch (m.role) {
    case 'system':
      return [{ type: 'message', role: 'system', content: text(m.content) }];
    case 'user':
      return [{ type: 'message', role: 'user', content: userParts(m.content, path) }];
    case 'assistant': {
      const out: ResponsesInputItem[] = [];
      const said = text(m.content);
      if (said) out.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: said }] });
      for (const call of m.tool_calls ?? []) {
        out.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
      return out;
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: m.tool_call_id ?? '', output: text(m.content) }];
  }
}

function text(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

function userParts(content: ChatMessage['content'], path: string): string | ResponsesContentPart[] {
  if (typeof content === 'string' || !content) return content ?? '';
  return content.map((block, j): ResponsesContentPart => {
    if (block.type === 'text') return { type: 'input_text', text: block.text };
    if (block.type === 'image_url') {
      return { type: 'input_image', image_url: block.image_url.url, detail: block.image_url.detail ?? 'auto' };
    }
    const at = `${path}.content[${j}]`;
    throw errors.invalidRequest(`Invalid '${at}.type': content of type '${block.type}' is not supported by this model.`, `${at}.type`);
  });
}

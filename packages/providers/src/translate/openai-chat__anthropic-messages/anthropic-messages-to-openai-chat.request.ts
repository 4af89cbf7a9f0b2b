/**
 * An Anthropic Messages request → the chat-completions request that asks the same thing (a messages
 * client, e.g. Claude Code, on a model served over chat-completions).
 *
 * - `system` → one leading system message (text blocks joined by a blank line); a `system` turn inside
 *   `messages` (Claude Code's environment, plan-mode notes) → a system message in the same place;
 * - user blocks: text → text parts, images → `image_url` (base64 → data: URL), text documents → text;
 *   `tool_result` blocks → `tool` messages placed before the turn's other content (is_error results
 *   are prefixed "Error: "; images inside a result follow as a user message, tool messages carry text);
 * - assistant blocks: text → content, tool_use → `tool_calls` (input serialised as arguments);
 *   thinking and redacted_thinking are dropped: their signatures mean nothing to another vendor;
 * - tools → function tools (deferred ones too: `defer_loading` has no chat form, the tool is simply
 *   offered); server tools (web search, code execution...) have no chat form and are dropped;
 *   tool_choice any → required, tool → the named function, disable_parallel_tool_use →
 *   parallel_tool_calls: false;
 * - stop_sequences → stop (at most 4, as chat allows), a short metadata.user_id → user;
 * - thinking and `output_config.effort` → `reasoning_effort` (effort as given; an enabled thinking
 *   budget as low/medium/high; disabled → none; adaptive alone → the model's default), passed
 *   through `reasoningEffort`, because which efforts a model takes is the catalog's knowledge
 *   (omega-k3 takes only `max`); without it the effort is dropped. `output_config.format`
 *   (json_schema) → response_format json_schema;
 * - what has no chat meaning is dropped silently: top_k, service_tier, context_management, cache
 *   control, server-tool blocks and results; a compaction block keeps its summary as text.
 * Content the model would have to read but chat cannot carry (PDF and file sources) is refused with
 * a 400 naming the block. With `paths`, every chat field written is recorded with the client field it
 * stands for (client-paths.ts).
 */
import {
  ANTHROPIC_PASSTHROUGH_BLOCK_TYPES,
  errors,
  type AnthropicContentBlock,
  type AnthropicCountTokensRequest,
  type AnthropicMessagesRequest,
  type AnthropicTool,
  type ChatCompletionRequest,
  type ChatContentBlock,
  type ChatMessage,
} from '@unigate/contracts';
import { ChatMessageWriter, type ClientPaths } from '../client-paths';

export interface AnthropicToChatRequestOptions {
  /** The model name to put in the chat request; the Anthropic request's model when absent. */
  model?: string;
  /** The chat `reasoning_effort` the target model takes for a requested effort, or undefined to drop it. */
  reasoningEffort?: (effort: string) => string | undefined;
  /** Records where each chat field came from, for naming the client's fields in a 400. */
  paths?: ClientPaths;
}

/** OpenAI's documented limit for an end-user id; Claude Code's JSON user_id is longer and dropped. */
const MAX_USER_ID = 64;
const SERVER_BLOCKS = new Set<string>(ANTHROPIC_PASSTHROUGH_BLOCK_TYPES);

type Request = AnthropicMessagesRequest | AnthropicCountTokensRequest;
/** Fields only a messages body has (a count_tokens body may still carry them: it is loose). */
type Settings = Partial<Pick<AnthropicMessagesRequest, 'metadata' | 'output_config'>>;
type ClientTool = Extract<AnthropicTool, { input_schema: unknown }>;

/** Client tools have an input_schema; server tools (`web_search_20250305`...) run at the vendor. */
function isClientTool(tool: AnthropicTool): tool is ClientTool {
  return 'input_schema' in tool && tool.input_schema !== undefined && (tool.type === undefined || tool.type === 'custom');
}

export function anthropicToChatRequest(req: Request, opts: AnthropicToChatRequestOptions = {}): ChatCompletionRequest {
  const messages = new ChatMessageWriter(opts.paths, 'messages');
  if (req.system !== undefined) {
    const text = typeof req.system === 'string' ? req.system : req.system.map((b) => b.text).join('\n\n');
    if (text) messages.push('system', { role: 'system', content: text });
  }
  req.messages.forEach((m, i) => {
    if (m.role === 'user') userTurn(m.content, `messages[${i}]`, messages);
    else if (m.role === 'system') systemTurn(m.content, `messages[${i}]`, messages);
    else assistantTurn(m.content, `messages[${i}]`, messages);
  });
  messages.settings(settingPaths(req));

  const chat: ChatCompletionRequest = { model: opts.model ?? req.model, messages: messages.messages };
  if ('max_tokens' in req && typeof req.max_tokens === 'number') chat.max_tokens = req.max_tokens;
  const tools = (req.tools ?? []).filter(isClientTool).map((t) => ({
    type: 'function' as const,
    function: { name: t.name, ...(t.description !== undefined && { description: t.description }), parameters: t.input_schema },
  }));
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = req.tool_choice;
    if (choice) {
      if (choice.type === 'auto') chat.tool_choice = 'auto';
      else if (choice.type === 'any') chat.tool_choice = 'required';
      else if (choice.type === 'none') chat.tool_choice = 'none';
      else chat.tool_choice = { type: 'function', function: { name: choice.name } };
      if ('disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use) chat.parallel_tool_calls = false;
    }
  }
  if ('stop_sequences' in req && Array.isArray(req.stop_sequences) && req.stop_sequences.length > 0) {
    if (req.stop_sequences.length > 4) {
      throw errors.invalidRequest(`Invalid 'stop_sequences': this model accepts at most 4 stop sequences.`, 'stop_sequences');
    }
    chat.stop = req.stop_sequences;
  }
  if ('temperature' in req && typeof req.temperature === 'number') chat.temperature = req.temperature;
  if ('top_p' in req && typeof req.top_p === 'number') chat.top_p = req.top_p;
  const settings = req as Settings;
  const user = settings.metadata?.user_id;
  if (typeof user === 'string' && user.length > 0 && user.length <= MAX_USER_ID) chat.user = user;
  const requested = requestedEffort(req);
  const effort = requested && opts.reasoningEffort?.(requested);
  if (effort) chat.reasoning_effort = effort;
  const format = settings.output_config?.format;
  if (format?.type === 'json_schema' && format.schema) {
    chat.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema } };
  }
  if ('stream' in req && req.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

/** How hard the client asked the model to think, in chat's effort words; undefined: the model's default. */
function requestedEffort(req: Request): string | undefined {
  const thinking = req.thinking;
  if (thinking?.type === 'disabled') return 'none';
  const effort = (req as Settings).output_config?.effort;
  if (typeof effort === 'string' && effort) return effort;
  if (thinking?.type === 'enabled') return thinking.budget_tokens <= 2048 ? 'low' : thinking.budget_tokens <= 8192 ? 'medium' : 'high';
  return undefined;
}

/** The request-wide chat fields, by their messages-format names. */
function settingPaths(req: Request): Record<string, string> {
  const effort = (req as Settings).output_config?.effort;
  return {
    tools: 'tools',
    tool_choice: 'tool_choice',
    parallel_tool_calls: 'tool_choice.disable_parallel_tool_use',
    max_tokens: 'max_tokens',
    stop: 'stop_sequences',
    temperature: 'temperature',
    top_p: 'top_p',
    user: 'metadata.user_id',
    reasoning_effort: typeof effort === 'string' && effort ? 'output_config.effort' : 'thinking',
    response_format: 'output_config.format',
    'response_format.json_schema.schema': 'output_config.format.schema',
  };
}

/** A mid-conversation system turn: its text, as an instruction in the same place. */
function systemTurn(content: string | AnthropicContentBlock[], path: string, messages: ChatMessageWriter): void {
  const text = typeof content === 'string' ? content : content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
  if (text) messages.push(path, { role: 'system', content: text }, { content: 'content' });
}

/** A chat part and the client's block it came from. */
type Sourced = { part: ChatContentBlock; from: string };

function userTurn(content: string | AnthropicContentBlock[], path: string, messages: ChatMessageWriter): void {
  if (typeof content === 'string') return messages.push(path, { role: 'user', content }, { content: 'content' });
  const parts: Sourced[] = [];
  const resultImages: Sourced[] = [];
  content.forEach((block, j) => {
    const at = `${path}.content[${j}]`;
    if (block.type !== 'tool_result') {
      for (const part of toChatParts(block, at)) parts.push({ part, from: at });
      return;
    }
    let text = '';
    if (typeof block.content === 'string') text = block.content;
    else {
      (block.content ?? []).forEach((inner, k) => {
        const from = `${at}.content[${k}]`;
        for (const part of toChatParts(inner as AnthropicContentBlock, from)) {
          if (part.type === 'text') text += (text ? '\n' : '') + part.text;
          else resultImages.push({ part, from });
        }
      });
    }
    if (block.is_error && !/^error\b/i.test(text)) text = `Error: ${text}`;
    messages.push(
      at,
      { role: 'tool', tool_call_id: block.tool_use_id, content: text },
      { tool_call_id: 'tool_use_id', content: 'content' },
    );
  });
  const rest = [...resultImages, ...parts];
  if (rest.length === 0) return;
  rest.forEach(({ part, from }, x) => {
    messages.part(x, from);
    if (part.type === 'image_url') messages.part(x, `${from}.source`, '.image_url');
  });
  const onlyText = rest.every(({ part }) => part.type === 'text');
  const blocks = rest.map(({ part }) => part);
  messages.push(
    path,
    { role: 'user', content: onlyText && rest.length === 1 ? (blocks[0] as { text: string }).text : blocks },
    { content: 'content' },
  );
}

function assistantTurn(content: string | AnthropicContentBlock[], path: string, messages: ChatMessageWriter): void {
  if (typeof content === 'string') return messages.push(path, { role: 'assistant', content }, { content: 'content' });
  let text: string | null = null;
  const toolCalls: NonNullable<ChatMessage['tool_calls']> = [];
  const callPaths: string[] = [];
  content.forEach((block, j) => {
    if (block.type === 'text') text = (text ?? '') + block.text;
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
      callPaths.push(`${path}.content[${j}]`);
    } else if (block.type === 'compaction') text = (text ?? '') + compactionText(block);
    else if (block.type !== 'thinking' && block.type !== 'redacted_thinking' && !SERVER_BLOCKS.has(block.type))
      unsupported(block.type, `${path}.content[${j}]`);
  });
  if (text === null && toolCalls.length === 0) return; // only thinking: nothing another model can use
  const message: ChatMessage = { role: 'assistant', content: text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  messages.push(path, message, { content: 'content' });
  callPaths.forEach((at, t) => messages.toolCall(t, at, { id: 'id', name: 'name', arguments: 'input' }));
}

function toChatParts(block: AnthropicContentBlock, path: string): ChatContentBlock[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image': {
      const s = block.source;
      if (s.type === 'base64') return [{ type: 'image_url', image_url: { url: `data:${s.media_type};base64,${s.data}` } }];
      if (s.type === 'url') return [{ type: 'image_url', image_url: { url: s.url } }];
      return unsupported('image file', path);
    }
    case 'document': {
      const s = block.source;
      const title = block.title ? `${block.title}\n\n` : '';
      if (s.type === 'text') return [{ type: 'text', text: title + s.data }];
      if (s.type === 'content') {
        const inner = typeof s.content === 'string' ? [{ type: 'text' as const, text: s.content }] : s.content;
        return inner.flatMap((b, k) => toChatParts(b as AnthropicContentBlock, `${path}.source.content[${k}]`));
      }
      return unsupported(`document (${s.type} source)`, path);
    }
    case 'compaction': {
      const text = compactionText(block);
      return text ? [{ type: 'text', text }] : [];
    }
    default:
      // Server-tool blocks and results ran at the vendor; another model has no use for them.
      if (SERVER_BLOCKS.has(block.type)) return [];
      return unsupported(block.type, path);
  }
}

/** A compaction block's summary of the earlier conversation (empty when only encrypted). */
function compactionText(block: AnthropicContentBlock): string {
  const content = (block as { content?: unknown }).content;
  return typeof content === 'string' ? content : '';
}

function unsupported(what: string, path: string): never {
  throw errors.invalidRequest(`Invalid '${path}': content of type '${what}' is not supported by this model.`, path);
}

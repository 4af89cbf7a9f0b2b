/**
 * A chat-completions request → the Anthropic Messages request that asks the same thing (a
 * chat-completions client on a model served over Anthropic's protocol).
 *
 * - system messages (wherever they are) → `system` text blocks, in order; a request without a user or
 *   assistant message with content is a 400 (empty-conversation.ts);
 * - user/assistant content → content blocks; `image_url` data: URLs → base64 image (or PDF document)
 *   sources, http(s) URLs → url sources; other block types are refused (400 naming the block);
 * - assistant `tool_calls` → `tool_use` blocks; role `tool` → `tool_result` blocks in a user turn
 *   (consecutive results, and any user text after them, share one user turn, as Anthropic requires);
 * - `cache_control` on a chat message (LiteLLM's convention; checked by the chat schema) is
 *   set on the last block of that message, and on a text or image part (OpenRouter's) on that part's
 *   block, so prompt caching works from chat clients too;
 * - `prompt_cache_key` without any `cache_control`, a part's included (Codex sends a key with every
 *   turn): OpenAI caches a conversation's prefix by itself, Anthropic only up to marked blocks, so the
 *   end of the prompt and the end of the previous turn's prompt are marked (conversationBreakpoints) —
 *   each turn then reads what the one before wrote instead of paying for the whole conversation again;
 * - `response_format` json_object / json_schema is emulated with a tool the model must call
 *   (`JSON_RESPONSE_TOOL`); the response translators turn its input back into the message content;
 * - sampling: temperature is clamped to Anthropic's 0..1; penalties, seed, logprobs are dropped;
 * - reasoning: a `thinking` object passes as is, `reasoning_effort` becomes a thinking budget; while
 *   thinking, Anthropic refuses temperature/top_k and a forced tool, so those are left out.
 */
import {
  errors,
  someBlock,
  type AnthropicContentBlock,
  type AnthropicMessageParam,
  type AnthropicMessagesRequest,
  type AnthropicTextBlock,
  type AnthropicThinkingConfig,
  type AnthropicTool,
  type AnthropicToolChoice,
  type ChatCompletionRequest,
  type ChatMessage,
} from '@unigate/contracts';
import { emptyConversation } from '../empty-conversation';
import { chatContentToAnthropicBlocks, withCacheControl } from './openai-chat-to-anthropic-messages.content';

export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;
export const JSON_RESPONSE_TOOL = 'json_response';

/** Thinking budgets for chat's `reasoning_effort`. */
const EFFORT_BUDGETS: Record<string, number> = { minimal: 1024, low: 1024, medium: 4096, high: 16384, max: 32000 };

export interface ChatToAnthropicOptions {
  /** The model name the upstream knows (the channel's). */
  model: string;
  /** max_tokens when the client set none: the model's output cap when known, else 4096. */
  defaultMaxTokens?: number;
}

export interface AnthropicRequestTranslation {
  body: AnthropicMessagesRequest;
  /** The tool carrying a `response_format` answer, or null; pass it to the response translators. */
  jsonTool: string | null;
}

export function chatToAnthropicRequest(chat: ChatCompletionRequest, opts: ChatToAnthropicOptions): AnthropicRequestTranslation {
  if ((chat.n ?? 1) > 1) throw errors.invalidRequest(`Invalid 'n': this model returns one choice per request; n must be 1.`, 'n');
  const { system, messages } = convertMessages(chat.messages);
  if (!messages.some(hasContent)) throw emptyConversation();

  const tools: AnthropicTool[] = (chat.tools ?? []).map((t) => ({
    name: t.function.name,
    ...(t.function.description !== undefined && { description: t.function.description }),
    input_schema: objectSchema(t.function.parameters),
  }));
  let toolChoice = convertToolChoice(chat);
  const jsonTool = jsonResponseTool(chat);
  if (jsonTool) {
    tools.push(jsonTool);
    // Alone, the model must answer through it; beside the client's tools it may call those instead.
    if (tools.length === 1) toolChoice = { type: 'tool', name: JSON_RESPONSE_TOOL };
  }

  const clientMax = chat.max_completion_tokens ?? chat.max_tokens;
  let maxTokens = clientMax ?? opts.defaultMaxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  const forced = toolChoice?.type === 'any' || toolChoice?.type === 'tool';
  let thinking = forced ? undefined : thinkingOf(chat);
  if (thinking?.type === 'enabled') {
    if (clientMax === undefined) maxTokens += thinking.budget_tokens; // the answer keeps its default room
    const budget = Math.min(thinking.budget_tokens, maxTokens - 1);
    thinking = budget >= 1024 ? { ...thinking, budget_tokens: budget } : undefined;
  }
  const thinkingOn = thinking !== undefined && thinking.type !== 'disabled';

  if (chat.prompt_cache_key && !system.some((b) => b.cache_control) && !messages.some(hasBreakpoint)) conversationBreakpoints(messages);
  const body: AnthropicMessagesRequest = { model: opts.model, max_tokens: maxTokens, messages };
  if (system.length > 0) body.system = system.length === 1 && !system[0].cache_control ? system[0].text : system;
  if (tools.length > 0) {
    body.tools = tools;
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (thinking) body.thinking = thinking;
  const stops = (typeof chat.stop === 'string' ? [chat.stop] : (chat.stop ?? [])).filter((s) => s.length > 0);
  if (stops.length > 0) body.stop_sequences = stops;
  if (chat.temperature !== undefined && !thinkingOn) body.temperature = Math.min(chat.temperature, 1);
  if (chat.top_p !== undefined && (!thinkingOn || chat.top_p >= 0.95)) body.top_p = chat.top_p;
  const topK = (chat as { top_k?: unknown }).top_k;
  if (typeof topK === 'number' && Number.isInteger(topK) && topK >= 0 && !thinkingOn) body.top_k = topK;
  if (chat.user) body.metadata = { user_id: chat.user };
  return { body, jsonTool: jsonTool ? JSON_RESPONSE_TOOL : null };
}

const EPHEMERAL = { type: 'ephemeral' as const };

/** A client's own breakpoint in the message, nested ones included (a tool message's parts sit in its tool_result). */
function hasBreakpoint(m: AnthropicMessageParam): boolean {
  return typeof m.content !== 'string' && someBlock(m.content, (b) => Boolean((b as { cache_control?: unknown } | null)?.cache_control));
}

/**
 * Marks the last message and the last user turn before the final assistant turn (where the previous
 * request of the same conversation ended and was marked) as cache breakpoints, in place: two of the
 * four Anthropic allows. The second makes the previous turn's cached prefix a hit however many blocks
 * the turn in between added (Anthropic looks back only 20 blocks from a breakpoint).
 */
function conversationBreakpoints(messages: AnthropicMessageParam[]): void {
  const mark = (i: number) => {
    const m = messages[i];
    const blocks: AnthropicContentBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const end = blocks.at(-1);
    if (end?.type === 'text' && end.text === '') return; // Anthropic refuses a mark on empty text
    messages[i] = { ...m, content: withCacheControl(blocks, EPHEMERAL) };
  };
  const last = messages.length - 1;
  for (let i = last - 1; i > 0; i--) {
    if (messages[i].role === 'assistant' && messages[i - 1].role === 'user') {
      mark(i - 1);
      break;
    }
  }
  mark(last);
}

function convertMessages(chatMessages: ReadonlyArray<ChatMessage>): { system: AnthropicTextBlock[]; messages: AnthropicMessageParam[] } {
  const system: AnthropicTextBlock[] = [];
  const messages: AnthropicMessageParam[] = [];
  chatMessages.forEach((m, i) => {
    const cacheControl = m.cache_control ?? undefined;
    const path = `messages[${i}]`;
    switch (m.role) {
      case 'system': {
        const blocks = withoutBlankText(chatContentToAnthropicBlocks(m.content, path)).filter(
          (b): b is AnthropicTextBlock => b.type === 'text',
        );
        system.push(...(withCacheControl(blocks, cacheControl) as AnthropicTextBlock[]));
        return;
      }
      case 'user': {
        if (typeof m.content === 'string' && !cacheControl) return blank(m.content) ? undefined : appendTurn(messages, 'user', m.content);
        const blocks = withoutBlankText(chatContentToAnthropicBlocks(m.content, path));
        // A user message of nothing but blank text says nothing; Anthropic would refuse the empty turn.
        if (blocks.length === 0) return;
        return appendTurn(messages, 'user', withCacheControl(blocks, cacheControl));
      }
      case 'assistant': {
        const blocks = withoutBlankText(chatContentToAnthropicBlocks(m.content, path));
        (m.tool_calls ?? []).forEach((call, j) => {
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: parseArguments(call.function.arguments, `${path}.tool_calls[${j}].function.arguments`),
          });
        });
        if (blocks.length === 0) return; // an empty assistant turn is refused upstream; nothing is lost
        const simple = blocks.length === 1 && blocks[0].type === 'text' && typeof m.content === 'string' && !cacheControl;
        return appendTurn(messages, 'assistant', simple ? (m.content as string) : withCacheControl(blocks, cacheControl));
      }
      case 'tool': {
        const content =
          typeof m.content === 'string'
            ? m.content
            : withoutBlankText(chatContentToAnthropicBlocks(m.content, path)).filter((b) => b.type === 'text' || b.type === 'image');
        const result = { type: 'tool_result' as const, tool_use_id: m.tool_call_id as string, content };
        return appendTurn(messages, 'user', withCacheControl([result as AnthropicContentBlock], cacheControl));
      }
    }
  });
  return { system, messages };
}

const blank = (text: string) => text.trim() === '';

/**
 * The blocks without blank text ones: OpenAI takes "" and whitespace as text, Anthropic refuses both
 * ("text content blocks must be non-empty", "… must contain non-whitespace text"). A dropped block's
 * breakpoint moves to the block before it, which ends the same prefix but for the blank.
 */
function withoutBlankText(blocks: AnthropicContentBlock[]): AnthropicContentBlock[] {
  if (!blocks.some((b) => b.type === 'text' && blank(b.text))) return blocks;
  const out: AnthropicContentBlock[] = [];
  for (const b of blocks) {
    if (b.type !== 'text' || !blank(b.text)) {
      out.push(b);
      continue;
    }
    const last = out.at(-1);
    if (b.cache_control && last && !(last as { cache_control?: unknown }).cache_control) {
      out[out.length - 1] = { ...last, cache_control: b.cache_control } as AnthropicContentBlock;
    }
  }
  return out;
}

/** Whether a turn holds anything but empty text (Anthropic refuses a conversation of empty turns). */
function hasContent(turn: AnthropicMessageParam): boolean {
  if (typeof turn.content === 'string') return turn.content !== '';
  return turn.content.some((b) => b.type !== 'text' || b.text !== '');
}

/**
 * Anthropic wants user and assistant turns to alternate: a turn of the same role joins the last one.
 * The joined turn gets one array of its own, appended in place: copying it per joined message made a
 * run of n same-role messages cost n² (100k messages froze the process for over a minute).
 */
function appendTurn(messages: AnthropicMessageParam[], role: 'user' | 'assistant', content: string | AnthropicContentBlock[]): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== role) {
    messages.push({ role, content });
    return;
  }
  if (!joined.has(last)) {
    last.content = [...asBlocks(last.content)];
    joined.add(last);
  }
  const blocks = last.content as AnthropicContentBlock[];
  for (const block of asBlocks(content)) blocks.push(block);
}

/** Turns whose content array was made by appendTurn (safe to append to). */
const joined = new WeakSet<AnthropicMessageParam>();

function asBlocks(content: string | AnthropicContentBlock[]): AnthropicContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function parseArguments(args: string, param: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    throw errors.invalidRequest(`Invalid '${param}': tool call arguments must be a JSON object.`, param);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.invalidRequest(`Invalid '${param}': tool call arguments must be a JSON object.`, param);
  }
  return value as Record<string, unknown>;
}

/** Anthropic requires `input_schema.type: 'object'`; OpenAI allows leaving parameters out. */
function objectSchema(parameters: Record<string, unknown> | undefined): { type: 'object'; [k: string]: unknown } {
  if (!parameters) return { type: 'object', properties: {} };
  return { ...parameters, type: 'object' };
}

function convertToolChoice(chat: ChatCompletionRequest): AnthropicToolChoice | undefined {
  const noParallel = (chat as { parallel_tool_calls?: unknown }).parallel_tool_calls === false;
  const choice = chat.tool_choice;
  const flag = noParallel ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return noParallel ? { type: 'auto', ...flag } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...flag };
  if (choice === 'required') return { type: 'any', ...flag };
  return { type: 'tool', name: choice.function.name, ...flag };
}

function jsonResponseTool(chat: ChatCompletionRequest): AnthropicTool | null {
  const format = chat.response_format;
  if (!format || format.type === 'text') return null;
  let schema: Record<string, unknown> = { type: 'object' };
  if (format.type === 'json_schema' && format.json_schema.schema) {
    schema = format.json_schema.schema;
    if (schema.type !== undefined && schema.type !== 'object') {
      throw errors.invalidRequest(
        `Invalid 'response_format.json_schema.schema': this model needs a schema of type object.`,
        'response_format.json_schema.schema',
      );
    }
  }
  return {
    name: JSON_RESPONSE_TOOL,
    description: 'Give the final answer as a JSON object by calling this tool.',
    input_schema: { ...schema, type: 'object' },
  };
}

function thinkingOf(chat: ChatCompletionRequest): AnthropicThinkingConfig | undefined {
  const given = (chat as { thinking?: unknown }).thinking;
  if (given && typeof given === 'object' && 'type' in given) return given as AnthropicThinkingConfig;
  const budget = chat.reasoning_effort ? EFFORT_BUDGETS[chat.reasoning_effort] : undefined;
  if (chat.reasoning_effort === 'none') return { type: 'disabled' };
  return budget ? { type: 'enabled', budget_tokens: budget } : undefined;
}

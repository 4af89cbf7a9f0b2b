/**
 * A Responses request → the chat-completions request that asks the same thing (Codex CLI or the
 * openai SDK's `responses.create` on a model served over chat completions, Anthropic messages or
 * Gemini, whose chat adapters take it from there).
 *
 * - `instructions` → a leading system message; system and developer messages → system messages in
 *   place; user messages → user messages (input_text → text, input_image → image_url);
 * - assistant messages, function_call and custom_tool_call items → assistant messages with
 *   `tool_calls` (consecutive ones share one message, as chat expects); function_call_output and
 *   custom_tool_call_output → `tool` messages;
 * - reasoning items are dropped (their encrypted content means nothing to another vendor), and so
 *   are hosted-tool items and item references;
 * - tools, tool_choice: see openai-chat__openai-responses.tools.ts; parallel_tool_calls passes;
 * - max_output_tokens → max_tokens; temperature and top_p pass; `reasoning.effort` → reasoning_effort
 *   through `reasoningEffort` (which efforts a model takes is the catalog's knowledge);
 *   `text.format` json_schema / json_object → response_format; a short `user` or
 *   safety_identifier → user;
 * - `prompt_cache_key` → chat's field of the same name (an Anthropic upstream then caches the
 *   conversation: openai-chat-to-anthropic-messages.request.ts);
 * - store, metadata, include, client_metadata, ... have no chat meaning: dropped.
 * Content chat cannot carry (input_file, images by file id) is refused with a 400 naming it. With
 * `paths`, every chat field written is recorded with the client field it stands for (client-paths.ts).
 */
import {
  errors,
  inputItems,
  type ChatCompletionRequest,
  type ChatContentBlock,
  type ChatMessage,
  type ResponsesContentPart,
  type ResponsesRequest,
} from '@unigate/contracts';
import { ChatMessageWriter, type ClientPaths } from '../client-paths';
import { ToolNames, toolNamesOf } from './openai-chat__openai-responses.tools';

export interface ResponsesToChatOptions {
  /** The chat `reasoning_effort` the target model takes for a requested effort, or undefined to drop it. */
  reasoningEffort?: (effort: string) => string | undefined;
  /** Records where each chat field came from, for naming the client's fields in a 400. */
  paths?: ClientPaths;
}

export interface ChatRequestTranslation {
  body: ChatCompletionRequest;
  /** How the chat functions map back to Responses tools; pass it to the answer translators. */
  tools: ToolNames;
}

/** OpenAI's documented limit for an end-user id. */
const MAX_USER_ID = 64;

type ToolCall = NonNullable<ChatMessage['tool_calls']>[number];

export function responsesToChatRequest(req: ResponsesRequest, opts: ResponsesToChatOptions = {}): ChatRequestTranslation {
  const tools = toolNamesOf(req);
  const chat = new ChatMessageWriter(opts.paths, 'input');
  if (req.instructions) chat.push('instructions', { role: 'system', content: req.instructions });
  const input = inputItems(req);
  input.forEach((item, i) => {
    const path = typeof req.input === 'string' ? 'input' : `input[${i}]`;
    switch (item.type) {
      case 'message':
        if (item.role === 'system' || item.role === 'developer') pushText(chat, path, 'system', item.content);
        else if (item.role === 'assistant') pushText(chat, path, 'assistant', item.content);
        else chat.push(path, { role: 'user', content: userContent(item.content, path, chat) }, { content: 'content' });
        return;
      case 'function_call':
        return addToolCall(chat, path, 'arguments', {
          id: item.call_id,
          type: 'function',
          function: { name: tools.chatName(item.name, item.namespace), arguments: item.arguments },
        });
      case 'custom_tool_call':
        return addToolCall(chat, path, 'input', {
          id: item.call_id,
          type: 'function',
          function: { name: tools.chatName(item.name, item.namespace), arguments: JSON.stringify({ input: item.input }) },
        });
      case 'function_call_output':
      case 'custom_tool_call_output':
        chat.push(
          path,
          { role: 'tool', tool_call_id: item.call_id, content: outputText(item.output) },
          { tool_call_id: 'call_id', content: 'output' },
        );
        return;
      default: // reasoning, hosted-tool items, references: nothing another model can use
        return;
    }
  });
  chat.settings(settingPaths(req));

  const body: ChatCompletionRequest = { model: req.model, messages: chat.messages };
  if (tools.chatTools.length > 0) {
    body.tools = tools.chatTools;
    const choice = tools.chatChoice(req.tool_choice);
    if (choice) body.tool_choice = choice;
    if (typeof req.parallel_tool_calls === 'boolean') body.parallel_tool_calls = req.parallel_tool_calls;
  }
  if (req.max_output_tokens != null) body.max_tokens = req.max_output_tokens;
  if (req.temperature != null) body.temperature = req.temperature;
  if (req.top_p != null) body.top_p = req.top_p;
  const effort = req.reasoning?.effort && opts.reasoningEffort?.(req.reasoning.effort);
  if (effort) body.reasoning_effort = effort;
  const format = req.text?.format;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, ...(format.strict != null && { strict: format.strict }) },
    };
  }
  const user = (req as { safety_identifier?: unknown }).safety_identifier ?? req.user;
  if (typeof user === 'string' && user.length > 0 && user.length <= MAX_USER_ID) body.user = user;
  const cacheKey = (req as { prompt_cache_key?: unknown }).prompt_cache_key;
  if (typeof cacheKey === 'string' && cacheKey.length > 0) body.prompt_cache_key = cacheKey;
  return { body, tools };
}

/** Text-only content (instructions, an assistant's earlier answer) as one message. */
function pushText(chat: ChatMessageWriter, path: string, role: 'system' | 'assistant', content: string | ResponsesContentPart[]): void {
  const text = typeof content === 'string' ? content : content.map(partText).join('');
  if (text) chat.push(path, { role, content: text }, { content: 'content' });
}

function partText(part: ResponsesContentPart): string {
  if (part.type === 'input_text' || part.type === 'output_text') return part.text;
  if (part.type === 'refusal') return part.refusal;
  return '';
}

/** A user message's content; the parts keep their places, so `content[j]` is the client's `content[j]`. */
function userContent(content: string | ResponsesContentPart[], path: string, chat: ChatMessageWriter): ChatMessage['content'] {
  if (typeof content === 'string') return content;
  const parts = content.map((part, j): ChatContentBlock => {
    const at = `${path}.content[${j}]`;
    chat.part(j, at);
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        return { type: 'text', text: part.text };
      case 'refusal':
        return { type: 'text', text: part.refusal };
      case 'input_image':
        if (!part.image_url) throw unsupported('an image given by file_id', at);
        chat.part(j, `${at}.image_url`, '.image_url');
        return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail && { detail: part.detail }) } };
      default:
        throw unsupported(part.type, at);
    }
  });
  return parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts;
}

/**
 * A tool call joins the assistant message right before it, or starts one; its arguments are the
 * item's `argumentsField` (`arguments`, or a custom tool call's `input`).
 */
function addToolCall(chat: ChatMessageWriter, path: string, argumentsField: string, call: ToolCall): void {
  const last = chat.messages.at(-1);
  if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
  else chat.push(path, { role: 'assistant', content: null, tool_calls: [call] });
  chat.toolCall(chat.messages.at(-1)!.tool_calls!.length - 1, path, { id: 'call_id', name: 'name', arguments: argumentsField });
}

/** The request-wide chat fields, by their Responses names. */
function settingPaths(req: ResponsesRequest): Record<string, string> {
  return {
    tools: 'tools',
    tool_choice: 'tool_choice',
    parallel_tool_calls: 'parallel_tool_calls',
    max_tokens: 'max_output_tokens',
    temperature: 'temperature',
    top_p: 'top_p',
    reasoning_effort: 'reasoning.effort',
    response_format: 'text.format',
    'response_format.json_schema.schema': 'text.format.schema',
    user: (req as { safety_identifier?: unknown }).safety_identifier !== undefined ? 'safety_identifier' : 'user',
  };
}

function outputText(output: string | Array<{ type: string } & Record<string, unknown>>): string {
  if (typeof output === 'string') return output;
  return output.map((p) => (p.type === 'input_text' ? String(p.text ?? '') : '')).join('');
}

function unsupported(what: string, path: string) {
  return errors.invalidRequest(`Invalid '${path}': content of type '${what}' is not supported by this model.`, path);
}

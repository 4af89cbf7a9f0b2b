/**
 * An Anthropic request seen as the chat prompt the shared generator answers (openai-chat-answer.ts),
 * so the same conversation gets the same answer and the same token counts on both protocols:
 * `system` → a leading system message (system turns stay in place), tool_use → tool_calls, tool_result → tool messages, images →
 * image parts, text documents → text. Thinking blocks are not part of the prompt.
 */
import type {
  AnthropicContentBlock,
  AnthropicCountTokensRequest,
  AnthropicMessagesRequest,
  ChatCompletionRequest,
  ChatContentBlock,
  ChatMessage,
} from '@unigate/contracts';

type Prompt = Pick<AnthropicCountTokensRequest, 'system' | 'messages'>;

export function promptMessages(req: Prompt): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (typeof req.system === 'string') out.push({ role: 'system', content: req.system });
  else if (req.system && req.system.length > 0)
    out.push({ role: 'system', content: req.system.map((b) => ({ type: 'text', text: b.text })) });
  for (const m of req.messages) {
    if (typeof m.content === 'string') {
      out.push({ role: m.role, content: m.content });
      continue;
    }
    if (m.role === 'system') {
      out.push({ role: 'system', content: m.content.flatMap(blockParts).filter((p) => p.type === 'text') });
      continue;
    }
    if (m.role === 'assistant') {
      const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const calls = m.content.flatMap((b) =>
        b.type === 'tool_use'
          ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }]
          : [],
      );
      out.push(calls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text });
      continue;
    }
    const parts: ChatContentBlock[] = [];
    for (const block of m.content) {
      if (block.type === 'tool_result') {
        const content =
          typeof block.content === 'string' ? block.content : (block.content ?? []).flatMap((b) => blockParts(b as AnthropicContentBlock));
        out.push({ role: 'tool', tool_call_id: block.tool_use_id, content });
      } else {
        parts.push(...blockParts(block));
      }
    }
    if (parts.length > 0) out.push({ role: 'user', content: parts });
  }
  return out;
}

/** The request the shared generator answers. */
export function generatorRequest(req: AnthropicMessagesRequest): ChatCompletionRequest {
  const tools = (req.tools ?? []).flatMap((t) =>
    'input_schema' in t && t.input_schema
      ? [{ type: 'function' as const, function: { name: t.name, parameters: t.input_schema as Record<string, unknown> } }]
      : [],
  );
  const chat: ChatCompletionRequest = { model: req.model, messages: promptMessages(req), max_tokens: req.max_tokens };
  if (tools.length > 0) chat.tools = tools;
  const choice = req.tool_choice;
  if (choice && tools.length > 0) {
    chat.tool_choice =
      choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type === 'any' ? 'required' : choice.type;
  }
  if (req.stop_sequences && req.stop_sequences.length > 0) chat.stop = req.stop_sequences;
  // The generator thinks whenever reasoning_effort is set; Anthropic thinks when asked to.
  if (req.thinking && req.thinking.type !== 'disabled') chat.reasoning_effort = 'max';
  return chat;
}

function blockParts(block: AnthropicContentBlock): ChatContentBlock[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image': {
      const s = block.source;
      const url = s.type === 'base64' ? `data:${s.media_type};base64,${s.data}` : s.type === 'url' ? s.url : `file:${s.file_id}`;
      return [{ type: 'image_url', image_url: { url } }];
    }
    case 'document':
      return [{ type: 'text', text: block.source.type === 'text' ? block.source.data : '[document]' }];
    default:
      return [];
  }
}

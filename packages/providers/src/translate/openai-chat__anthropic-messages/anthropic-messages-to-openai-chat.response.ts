/**
 * An Anthropic message → a chat completion: text blocks → `content`, thinking → `reasoning_content`,
 * tool_use → `tool_calls` (input re-serialised as the arguments string), stop_reason → finish_reason,
 * usage with cache reads as cached prompt tokens. A tool_use of the JSON-mode tool (see the request
 * translator) is the answer itself: its input becomes the content and the finish reason `stop`.
 * Redacted thinking and server-tool blocks have no chat form and are left out.
 */
import { countTextTokens, type AnthropicMessage, type ChatCompletionResponse, type ChatToolCall } from '@unigate/contracts';
import { anthropicStopToFinishReason } from './openai-chat__anthropic-messages.stop-reason';
import { anthropicToChatUsage } from './openai-chat__anthropic-messages.usage';
import { chatCompletionId } from './openai-chat__anthropic-messages.ids';

export interface AnthropicToChatResponseOptions {
  /** The model name the client asked for. */
  model: string;
  /** From the request translation: the tool that carries a response_format answer. */
  jsonTool?: string | null;
  /** Unix seconds; now when absent. */
  created?: number;
}

export function anthropicToChatResponse(msg: AnthropicMessage, opts: AnthropicToChatResponseOptions): ChatCompletionResponse {
  let text: string | null = null;
  let reasoning: string | null = null;
  let answeredInJson = false;
  const toolCalls: ChatToolCall[] = [];
  for (const block of msg.content) {
    switch (block.type) {
      case 'text':
        text = (text ?? '') + block.text;
        break;
      case 'thinking':
        reasoning = (reasoning ?? '') + block.thinking;
        break;
      case 'tool_use':
        if (opts.jsonTool && block.name === opts.jsonTool) {
          text = (text ?? '') + JSON.stringify(block.input ?? {});
          answeredInJson = true;
        } else {
          toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
        }
        break;
      default:
        break;
    }
  }
  let finish = anthropicStopToFinishReason(msg.stop_reason) ?? 'stop';
  if (answeredInJson && toolCalls.length === 0 && finish === 'tool_calls') finish = 'stop';

  const message: ChatCompletionResponse['choices'][number]['message'] = {
    role: 'assistant',
    content: text ?? (toolCalls.length > 0 ? null : ''),
    refusal: null,
  };
  if (reasoning !== null) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: chatCompletionId(msg.id),
    object: 'chat.completion',
    created: opts.created ?? Math.floor(Date.now() / 1000),
    model: opts.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: anthropicToChatUsage(msg.usage, reasoning !== null ? countTextTokens(reasoning) : undefined),
  };
}

/**
 * Our chat-completions request → a Gemini generateContent request.
 *
 * - system messages → `systemInstruction` (their text, in order); user → `user`; assistant → `model`;
 *   consecutive turns of one role merge into one content, as Gemini expects alternating turns; empty
 *   text is left out, and a request left without any content is a 400 (empty-conversation.ts).
 * - assistant `tool_calls` → `functionCall` parts; a `tool` message → a `functionResponse` part in a
 *   user turn, named after the tool call it answers (Gemini pairs calls and results by name).
 * - tools → `functionDeclarations` with their JSON Schema as `parametersJsonSchema`; `tool_choice` →
 *   `toolConfig.functionCallingConfig` (auto → AUTO, none → NONE, required → ANY, a named function →
 *   ANY restricted to it).
 * - sampling and limits → `generationConfig`; `response_format` json_object → JSON MIME type,
 *   json_schema → JSON MIME type + `responseJsonSchema`; `reasoning_effort` → a thinking budget with
 *   thoughts included, so they come back as `reasoning_content`.
 * Fields with no Gemini counterpart (user, logprobs, parallel_tool_calls, ...) are dropped.
 */
import { errors, requestedMaxTokens, type ChatCompletionRequest, type ChatMessage } from '@unigate/contracts';
import type {
  GeminiContent,
  GeminiGenerateRequest,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRole,
  GeminiThinkingConfig,
} from '../../gemini-generate/gemini-generate-types';
import { emptyConversation } from '../empty-conversation';
import { contentText, contentToParts } from './openai-chat__gemini-generate.media';

/**
 * Thinking budgets per `reasoning_effort`, the ones the vendor's own OpenAI-compatible endpoint uses
 * for 2.5 models; `none` switches thinking off where the model allows it.
 */
const THINKING_BUDGET: Record<string, number> = { none: 0, minimal: 1024, low: 1024, medium: 8192, high: 24576, xhigh: 24576, max: 24576 };

export function toGeminiRequest(body: ChatCompletionRequest): GeminiGenerateRequest {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>(); // tool_call_id → function name, for the results

  body.messages.forEach((m, i) => {
    const where = `messages[${i}]`;
    switch (m.role) {
      case 'system':
        system.push(contentText(m.content));
        break;
      case 'user':
        append(contents, 'user', contentToParts(m.content, `${where}.content`));
        break;
      case 'assistant':
        append(contents, 'model', [...contentToParts(m.content, `${where}.content`), ...functionCalls(m, where, toolNames)]);
        break;
      case 'tool':
        append(contents, 'user', [functionResponse(m, where, toolNames)]);
        break;
    }
  });

  if (contents.length === 0) throw emptyConversation();
  const out: GeminiGenerateRequest = { contents };
  const systemText = system.filter((s) => s !== '');
  if (systemText.length > 0) out.systemInstruction = { parts: systemText.map((text) => ({ text })) };
  if (body.tools?.length) {
    out.tools = [
      {
        functionDeclarations: body.tools.map(({ function: f }) => ({
          name: f.name,
          ...(f.description !== undefined && { description: f.description }),
          ...(f.parameters !== undefined && { parametersJsonSchema: f.parameters }),
        })),
      },
    ];
    const toolConfig = toToolConfig(body.tool_choice);
    if (toolConfig) out.toolConfig = toolConfig;
  }
  const generationConfig = toGenerationConfig(body);
  if (Object.keys(generationConfig).length > 0) out.generationConfig = generationConfig;
  return out;
}

/** Adds parts as a turn of `role`, merging into the previous turn when it has the same role. */
function append(contents: GeminiContent[], role: GeminiRole, parts: GeminiPart[]): void {
  if (parts.length === 0) return; // Gemini rejects a content without parts
  const last = contents[contents.length - 1];
  if (last?.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function functionCalls(m: ChatMessage, where: string, toolNames: Map<string, string>): GeminiPart[] {
  return (m.tool_calls ?? []).map((call, j) => {
    toolNames.set(call.id, call.function.name);
    return {
      functionCall: {
        name: call.function.name,
        args: parseArguments(call.function.arguments, `${where}.tool_calls[${j}].function.arguments`),
      },
    };
  });
}

/** Gemini takes arguments as an object; an assistant message must carry JSON-object arguments. */
function parseArguments(text: string, where: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.invalidRequest(`Invalid '${where}': tool call arguments must be a JSON object for this model.`, where);
  }
  if (!isPlainObject(value))
    throw errors.invalidRequest(`Invalid '${where}': tool call arguments must be a JSON object for this model.`, where);
  return value;
}

function functionResponse(m: ChatMessage, where: string, toolNames: Map<string, string>): GeminiPart {
  const name = (m.tool_call_id && toolNames.get(m.tool_call_id)) || m.name;
  if (!name) {
    throw errors.invalidRequest(
      `Invalid '${where}.tool_call_id': '${m.tool_call_id}' does not answer a tool call made earlier in the conversation.`,
      `${where}.tool_call_id`,
    );
  }
  return { functionResponse: { name, response: toResponseObject(contentText(m.content)) } };
}

/** A JSON-object result goes as is; anything else as `{output}`, the key Gemini documents for results. */
function toResponseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : { output: value };
  } catch {
    return { output: text };
  }
}

function toToolConfig(choice: ChatCompletionRequest['tool_choice']): GeminiGenerateRequest['toolConfig'] {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}

function toGenerationConfig(body: ChatCompletionRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (body.temperature !== undefined) config.temperature = body.temperature;
  if (body.top_p !== undefined) config.topP = body.top_p;
  const maxTokens = requestedMaxTokens(body);
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (body.n !== undefined) config.candidateCount = body.n;
  const stop = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? []);
  if (stop.length > 0) config.stopSequences = stop;
  if (body.presence_penalty !== undefined) config.presencePenalty = body.presence_penalty;
  if (body.frequency_penalty !== undefined) config.frequencyPenalty = body.frequency_penalty;
  if (body.seed !== undefined) config.seed = body.seed;
  const format = body.response_format;
  if (format?.type === 'json_object' || format?.type === 'json_schema') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema' && format.json_schema.schema) config.responseJsonSchema = format.json_schema.schema;
  const thinking = toThinkingConfig(body.reasoning_effort);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

function toThinkingConfig(effort: string | undefined): GeminiThinkingConfig | undefined {
  if (effort === undefined) return undefined; // the model's default thinking, thoughts not shown
  const budget = THINKING_BUDGET[effort];
  if (budget === undefined) {
    throw errors.invalidRequest(
      `Invalid 'reasoning_effort': must be one of ${Object.keys(THINKING_BUDGET).join(', ')}.`,
      'reasoning_effort',
    );
  }
  return budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

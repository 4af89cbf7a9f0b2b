/**
 * The request rules some models impose beyond the common schema (SPEC.md §2.2 for omega-k3, the §4
 * note for media blocks). Each reads its limits from the model's catalogue entry where one exists, so
 * an operator's UNIGATE_CONFIG override changes the limit without changing code.
 */
import { MEDIA_BLOCK_TYPES, type MediaBlockType } from '../../chat';
import { errors } from '../../errors';
import type { ChatRule } from './chat-rule';

const MEDIA = new Set<string>(MEDIA_BLOCK_TYPES);

/** video_url / audio_url / input_audio blocks only for models that take video and audio (`chat.media_input`). */
export const mediaBlocksNeedMediaInput: ChatRule = ({ model, body }) => {
  if (model.chat?.media_input) return;
  body.messages.forEach((m, i) => {
    if (!Array.isArray(m.content)) return;
    m.content.forEach((block, j) => {
      if (!MEDIA.has(block.type)) return;
      const param = `messages[${i}].content[${j}]`;
      throw errors.invalidRequest(
        `Invalid '${param}': the model '${model.id}' does not accept '${block.type as MediaBlockType}' content blocks; ` +
          `video_url, audio_url and input_audio are accepted by the models that take video and audio input (the gamma chat models).`,
        param,
        'unsupported_content_type',
      );
    });
  });
};

/** `reasoning_effort` must be one of the model's `chat.reasoning_efforts`. */
export const reasoningEffortAllowed: ChatRule = ({ model, body }) => {
  const allowed = model.chat?.reasoning_efforts;
  const effort = body.reasoning_effort;
  if (effort === undefined || !allowed || allowed.includes(effort)) return;
  throw errors.invalidRequest(
    `Invalid 'reasoning_effort': '${effort}' is not supported by '${model.id}'; allowed: ${allowed.join(', ')}.`,
    'reasoning_effort',
  );
};

/** The schema checks the forms of tool_choice; this checks they make sense with the tools given. */
export const toolChoiceMatchesTools: ChatRule = ({ body }) => {
  const choice = body.tool_choice;
  if (choice === undefined || choice === 'auto' || choice === 'none') return;
  const names = (body.tools ?? []).map((t) => t.function.name);
  if (names.length === 0) {
    throw errors.invalidRequest(
      `Invalid 'tool_choice': ${typeof choice === 'string' ? `'${choice}'` : 'a named function'} needs 'tools'.`,
      'tool_choice',
    );
  }
  if (typeof choice === 'object' && !names.includes(choice.function.name)) {
    throw errors.invalidRequest(
      `Invalid 'tool_choice': function '${choice.function.name}' is not among the declared tools (${names.join(', ')}).`,
      'tool_choice',
    );
  }
};

/** `json_schema` must carry its schema: `response_format.json_schema.schema`, a JSON Schema object. */
export const structuredOutputHasSchema: ChatRule = ({ body }) => {
  const format = body.response_format;
  if (format?.type !== 'json_schema') return;
  if (!format.json_schema.schema) {
    throw errors.invalidRequest(
      "Invalid 'response_format.json_schema.schema': type json_schema needs a JSON Schema object in json_schema.schema.",
      'response_format.json_schema.schema',
    );
  }
};

/** `n` candidates: a positive integer (also in the common schema; kept here so the rule set is complete). */
export const candidateCountPositive: ChatRule = ({ body }) => {
  if (body.n === undefined || (Number.isInteger(body.n) && body.n >= 1)) return;
  throw errors.invalidRequest("Invalid 'n': n must be a positive integer.", 'n');
};

/** The prompt must fit the model's context window. */
export const promptFitsContextWindow: ChatRule = ({ model, promptTokens }) => {
  const window = model.context_window;
  if (window === undefined) return;
  const tokens = promptTokens();
  if (tokens <= window) return;
  throw errors.invalidRequest(
    `This model's maximum context length is ${window} tokens; the messages hold about ${tokens} tokens. Shorten the messages.`,
    'messages',
    'context_length_exceeded',
  );
};

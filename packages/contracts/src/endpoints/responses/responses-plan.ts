/**
 * The plan of a Responses request, on its own terms: the prompt (instructions, input items, tools)
 * must fit the model's window, and the hold reserves the estimated prompt plus the output the
 * request allows — max_output_tokens, or what a chat completion without max_tokens would assume.
 *
 * A continuation (`previous_response_id`) is resolved by the chat service, after admission, so the
 * edge cannot count its earlier turns. Its hold reserves the model's whole context window as input
 * instead: no upstream reads more than that, whatever the stored conversation holds, so the hold
 * still covers the call, and the call's measured cost replaces it when it ends (docs/billing.md). So
 * does a file part (`input_file`), whose pages the edge cannot count; an image is held at the most
 * the model's vendor charges for one (`max_image_tokens`).
 */
import type { ModelInfo } from '../../catalog';
import { errors } from '../../errors';
import type { Usage } from '../../pricing';
import type { ResponsesRequest } from '../../responses/request';
import { countResponsesPromptTokens, noMedia } from '../../tokens';
import {
  DEFAULT_OUTPUT_CAP,
  heldMediaInput,
  heldPromptTokens,
  heldWindowInput,
  holdOutputCap,
  outputCeiling,
} from '../chat-completions/chat-plan';
import { MODEL_RULES } from '../chat-completions/rules-by-model';

export function planResponses(model: ModelInfo, req: ResponsesRequest): Usage {
  const media = noMedia();
  const prompt = countResponsesPromptTokens(req, media);
  if (model.context_window !== undefined && prompt > model.context_window) {
    throw errors.invalidRequest(
      `This model's maximum context length is ${model.context_window} tokens; the input holds about ${prompt} tokens.`,
      'input',
      'context_length_exceeded',
    );
  }
  const output =
    req.max_output_tokens != null
      ? outputCeiling(model, req.max_output_tokens)
      : (holdOutputCap(model, MODEL_RULES[model.id]?.holdOutputCap, () => prompt) ?? model.max_output_tokens ?? DEFAULT_OUTPUT_CAP);
  const input = heldMediaInput(model, media, heldPromptTokens(prompt));
  return { input_tokens: req.previous_response_id ? heldWindowInput(model, input) : input, output_tokens: output };
}

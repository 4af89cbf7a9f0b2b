/**
 * The plan of a chat completion: the requested model's rules run over the validated request (a 400
 * naming the field, before any hold or upstream call), then the worst case the hold reserves — the
 * prompt (estimated with a safety margin, since vendors tokenize differently) plus every output
 * token the request allows, times the number of candidates.
 */
import type { ModelInfo } from '../../catalog';
import { requestedMaxTokens, type ChatCompletionRequest } from '../../chat';
import { oneHourWritesDearer, type Usage } from '../../pricing';
import { countPromptTokens, countTextTokens, IMAGE_BLOCK_TOKENS, noMedia, type UnmeasuredMedia } from '../../tokens';
import { chatAsksOneHourCache } from '../one-hour-cache';
import type { ChatRuleInput } from './chat-rule';
import { EVERY_MODEL, MODEL_RULES } from './rules-by-model';

/** Output tokens assumed without max_tokens when the catalogue gives the model no cap either. */
export const DEFAULT_OUTPUT_CAP = 4096;

/** Estimated prompt tokens plus this margin, and a fixed slack for the vendor's own framing. */
const PROMPT_MARGIN = 1.2;
const PROMPT_SLACK = 16;

/** The input a hold reserves for an estimated prompt: enlarged by the margin, plus the slack. */
export function heldPromptTokens(promptTokens: number): number {
  return Math.ceil(promptTokens * PROMPT_MARGIN) + PROMPT_SLACK;
}

/**
 * The worst case a hold reserves, with the prompt estimated once and enlarged by the margin;
 * `oneHourCache`: the request asks for one-hour cache writes, which the hold may then price the prompt
 * at; `media`: what the prompt counter could not measure, and the model that bounds it (heldMediaInput).
 */
export function worstCaseUsage(
  promptTokens: number,
  outputTokens: number,
  oneHourCache = false,
  media?: { model: ModelInfo; seen: UnmeasuredMedia },
): Usage {
  const estimate = heldPromptTokens(promptTokens);
  const input = media ? heldMediaInput(media.model, media.seen, estimate) : estimate;
  return { input_tokens: input, output_tokens: outputTokens, ...(oneHourCache && { cache_write_1h_input_tokens: input }) };
}

/**
 * The input a hold reserves for an estimated prompt, given the media in it the counter could not
 * measure: each image up to the model's `max_image_tokens` (the counter took IMAGE_BLOCK_TOKENS, and a
 * large image costs more on some vendors: ~1,600 tokens at Anthropic's), and media whose tokens grow
 * with its length the model's whole window (heldWindowInput).
 */
export function heldMediaInput(model: ModelInfo, seen: UnmeasuredMedia, estimate: number): number {
  const perImage = Math.max(0, (model.max_image_tokens ?? IMAGE_BLOCK_TOKENS) - IMAGE_BLOCK_TOKENS);
  const withImages = estimate + seen.images * perImage;
  return seen.found ? heldWindowInput(model, withImages) : withImages;
}

/**
 * The input a hold reserves for a prompt the edge cannot count: a continuation
 * (`previous_response_id`, `previous_interaction_id`), whose stored turns the upstream reads though
 * they never pass through the edge, or media whose tokens grow with their length (a PDF, a video,
 * audio: UnmeasuredMedia in tokens.ts). Only the model's window bounds them — a bound the vendor
 * enforces, so no margin on it. A model the catalogue gives no window has no bound: the estimate stays.
 */
export function heldWindowInput(model: ModelInfo, estimate: number): number {
  return model.context_window === undefined ? estimate : Math.max(estimate, model.context_window);
}

/** Runs the rules; returns the worst case. */
export function planChatCompletion(model: ModelInfo, body: ChatCompletionRequest): Usage {
  let prompt: number | undefined;
  const media = noMedia();
  const promptTokens = () =>
    (prompt ??= countPromptTokens(body.messages, media) + (body.tools?.length ? countTextTokens(JSON.stringify(body.tools)) : 0));
  const input: ChatRuleInput = { model, body, promptTokens };
  const set = MODEL_RULES[model.id];
  for (const rule of EVERY_MODEL) rule(input);
  for (const rule of set?.rules ?? []) rule(input);
  const requested = requestedMaxTokens(body);
  const perCandidate =
    requested !== undefined
      ? outputCeiling(model, requested)
      : (holdOutputCap(model, set?.holdOutputCap, promptTokens) ?? model.max_output_tokens ?? DEFAULT_OUTPUT_CAP);
  const oneHourCache = oneHourWritesDearer(model.prices) && chatAsksOneHourCache(body);
  const prompted = promptTokens();
  return worstCaseUsage(prompted, perCandidate * (body.n ?? 1), oneHourCache, { model, seen: media });
}

/** A model cannot produce more than its catalogue output limit, whatever max_tokens asks for. */
export function outputCeiling(model: ModelInfo, requested: number): number {
  return Math.min(requested, model.max_output_tokens ?? requested);
}

/** Output tokens the hold assumes without max_tokens: the window left after the prompt, at most `cap`. */
export function holdOutputCap(model: ModelInfo, cap: number | undefined, promptTokens: () => number): number | undefined {
  if (cap === undefined) return undefined;
  const left = (model.context_window ?? Infinity) - promptTokens();
  return Math.max(1, Math.min(cap, left));
}

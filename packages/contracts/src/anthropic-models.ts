/**
 * Anthropic's Models API on the gateway's model routes (GET /v1/models and /v1/models/{model}), for
 * the clients that speak it: the official `@anthropic-ai/sdk` (`models.list`, `models.retrieve`) and
 * Claude Code's gateway model discovery. They send `anthropic-version` on every request, which is how
 * the routes tell them from OpenAI clients.
 */
import { z } from 'zod';
import type { ModelInfo } from './catalog';

export const ANTHROPIC_VERSION_HEADER = 'anthropic-version';

/** Whether a request comes from an Anthropic client (its headers carry the API version). */
export const speaksAnthropic = (headers: Record<string, unknown>) => headers[ANTHROPIC_VERSION_HEADER] !== undefined;

/** The list's query, as Anthropic takes it: newest first, 20 a page by default, up to 1,000. */
export const anthropicModelsQuerySchema = z.object({
  after_id: z.string().min(1).max(200).optional().describe('a model id: the models after it'),
  before_id: z.string().min(1).max(200).optional().describe('a model id: the models before it'),
  limit: z.coerce.number().int().min(1).max(1000).default(20).describe('models per page (1-1000)'),
});
export type AnthropicModelsQuery = z.infer<typeof anthropicModelsQuerySchema>;

/** A model as Anthropic describes one; its limits where the catalogue has them. */
export function anthropicModelInfo(m: ModelInfo) {
  return {
    type: 'model' as const,
    id: m.id,
    display_name: m.id,
    created_at: new Date(m.created * 1000).toISOString(),
    max_input_tokens: m.context_window ?? null,
    max_tokens: m.max_output_tokens ?? null,
    ...(m.description !== undefined && { description: m.description }),
  };
}

/**
 * What an OpenAI-compatible chat upstream may send, checked before we trust it. Loose on purpose:
 * fields we do not know pass through, optional fields may be null (many compatible vendors send
 * null for absent), and only what we read is required.
 */
import { z } from 'zod';

const count = z.number().int().nonnegative();

export const upstreamUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count.nullish(),
  prompt_tokens_details: z
    .looseObject({ cached_tokens: count.nullish(), cache_write_tokens: count.nullish(), audio_tokens: count.nullish() })
    .nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count.nullish() }).nullish(),
});

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.looseObject({
  role: z.string().nullish(),
  content: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
});

export const upstreamCompletionSchema = z.looseObject({
  id: z.string(),
  created: z.number(),
  model: z.string().nullish(),
  choices: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      message: messageSchema,
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: upstreamUsageSchema.nullish(),
  system_fingerprint: z.string().nullish(),
});

const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative(),
  id: z.string().nullish(),
  type: z.literal('function').nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export const upstreamChunkSchema = z.looseObject({
  id: z.string(),
  created: z.number(),
  model: z.string().nullish(),
  choices: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      delta: z
        .looseObject({
          role: z.string().nullish(),
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(toolCallDeltaSchema).nullish(),
        })
        .nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: upstreamUsageSchema.nullish(),
  system_fingerprint: z.string().nullish(),
});

/** `{error:{message,type,code,param}}` — OpenAI's error body. */
export const openAiErrorBodySchema = z.looseObject({
  error: z.looseObject({
    message: z.string(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
    param: z.string().nullish(),
  }),
});
/** `{error:"..."}` or `{message, code}` — what some compatible vendors send instead. */
export const bareErrorBodySchema = z.looseObject({ error: z.string() });
export const shapeAErrorBodySchema = z.looseObject({ message: z.string(), code: z.union([z.string(), z.number()]).nullish() });

export type UpstreamUsage = z.infer<typeof upstreamUsageSchema>;
export type UpstreamCompletion = z.infer<typeof upstreamCompletionSchema>;
export type UpstreamChunk = z.infer<typeof upstreamChunkSchema>;

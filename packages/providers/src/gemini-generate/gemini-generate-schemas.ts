/**
 * What a Gemini generateContent upstream may send, checked before we trust it: the whole response,
 * each streamed chunk (the same shape: every SSE `data:` line is a whole GenerateContentResponse) and
 * the error body `{error:{code,message,status,details}}`. Loose on purpose: unknown fields pass, and
 * only what the translation reads is required.
 */
import { z } from 'zod';

const count = z.number().int().nonnegative();

export const geminiPartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z.looseObject({ id: z.string().nullish(), name: z.string(), args: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).nullish(),
});

export const geminiCandidateSchema = z.looseObject({
  index: z.number().int().nonnegative().nullish(),
  // A candidate stopped by a safety filter may come without content, or with content but no parts.
  content: z.looseObject({ role: z.string().nullish(), parts: z.array(geminiPartSchema).nullish() }).nullish(),
  finishReason: z.string().nullish(),
});

export const geminiUsageSchema = z.looseObject({
  promptTokenCount: count.nullish(),
  candidatesTokenCount: count.nullish(),
  thoughtsTokenCount: count.nullish(),
  toolUsePromptTokenCount: count.nullish(),
  cachedContentTokenCount: count.nullish(),
  totalTokenCount: count.nullish(),
});

export const geminiResponseSchema = z.looseObject({
  candidates: z.array(geminiCandidateSchema).nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
  usageMetadata: geminiUsageSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
});

export const geminiErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.number().int().nullish(),
    message: z.string(),
    status: z.string().nullish(),
    details: z.array(z.looseObject({ reason: z.string().nullish() })).nullish(),
  }),
});

export type GeminiResponsePart = z.infer<typeof geminiPartSchema>;
export type GeminiCandidate = z.infer<typeof geminiCandidateSchema>;
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;
export type GeminiErrorBody = z.infer<typeof geminiErrorBodySchema>;

/** How an OpenAI-compatible upstream reports errors (http/upstream-errors.ts maps them). */
import { codeString, type UpstreamErrorPolicy } from '../http/upstream-errors';
import { bareErrorBodySchema, openAiErrorBodySchema, shapeAErrorBodySchema } from './openai-chat-schemas';

export const openAiErrorPolicy: UpstreamErrorPolicy = {
  detail(json) {
    const openAi = openAiErrorBodySchema.safeParse(json);
    if (openAi.success) {
      const e = openAi.data.error;
      return { message: e.message, code: codeString(e.code), param: e.param ?? undefined };
    }
    // Compatible vendors that answer `{error: "..."}` or DashScope-style `{code, message}`.
    const bare = bareErrorBodySchema.safeParse(json);
    if (bare.success) return { message: bare.data.error };
    const shapeA = shapeAErrorBodySchema.safeParse(json);
    if (shapeA.success) return { message: shapeA.data.message, code: codeString(shapeA.data.code) };
    return undefined;
  },
};

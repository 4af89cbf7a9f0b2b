/** How DashScope reports errors: Shape A `{code, message, request_id}` (reference/dashscope.md). */
import { codeString, type UpstreamErrorPolicy } from '../http/upstream-errors';
import { shapeAErrorBodySchema } from '../openai-chat/openai-chat-schemas';

export const dashscopeErrorPolicy: UpstreamErrorPolicy = {
  detail(json) {
    const parsed = shapeAErrorBodySchema.safeParse(json);
    if (!parsed.success) return undefined;
    const code = codeString(parsed.data.code);
    return { message: parsed.data.message, code, credentialsRejected: code === 'InvalidApiKey' };
  },
};

/** A DashScope channel's base is the host root; its paths start with /api/v1. */
export const dashscopeUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

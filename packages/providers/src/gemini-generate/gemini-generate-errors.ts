/**
 * How Gemini reports errors: `{error:{code,message,status,details}}`. A rejected API key comes as 400
 * API_KEY_INVALID (or UNAUTHENTICATED), and a 404 names the channel's model: both are the channel's
 * configuration, not the client's request (http/upstream-errors.ts).
 */
import type { UpstreamErrorPolicy } from '../http/upstream-errors';
import { geminiErrorBodySchema } from './gemini-generate-schemas';

export const geminiErrorPolicy: UpstreamErrorPolicy = {
  detail(json) {
    const parsed = geminiErrorBodySchema.safeParse(json);
    if (!parsed.success) return undefined;
    const e = parsed.data.error;
    return {
      message: e.message,
      code: e.status?.toLowerCase() ?? undefined,
      credentialsRejected: (e.details ?? []).some((d) => d.reason === 'API_KEY_INVALID') || e.status === 'UNAUTHENTICATED',
    };
  },
  channelStatuses: [404],
};

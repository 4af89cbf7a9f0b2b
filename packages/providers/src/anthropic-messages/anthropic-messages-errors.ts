/** How Anthropic reports errors: `{type:'error', error:{type, message}}`; 529 is overloaded. */
import { anthropicErrorBodySchema } from '@unigate/contracts';
import type { UpstreamErrorPolicy } from '../http/upstream-errors';

export const anthropicErrorPolicy: UpstreamErrorPolicy = {
  detail(json) {
    const parsed = anthropicErrorBodySchema.safeParse(json);
    if (!parsed.success) return undefined;
    const e = parsed.data.error;
    return { message: e.message, code: e.type, overloaded: e.type === 'overloaded_error' };
  },
};

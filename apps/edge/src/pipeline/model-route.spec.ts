import type { AnyEndpointSpec, KeyPrincipal, ModelRoute } from '@unigate/contracts';
import { requireRouteAllowed } from './model-route';

const chatOnly = { path: '/v1/messages', kinds: ['chat'] } as unknown as AnyEndpointSpec;
const principal = { models: [] } as unknown as KeyPrincipal;
const routeOf = (kind: string) => ({ model: { id: 'm', kind } }) as unknown as ModelRoute;

describe('requireRouteAllowed', () => {
  // What Claude Code prints as it is (`API Error: 400 The model 'text-embedding-v4' is a embedding model…`).
  it.each([
    ['embedding', 'an embedding model'],
    ['image', 'an image model'],
    ['image-edit', 'an image-edit model'],
    ['video', 'a video model'],
  ])("names the model's kind (%s) with its article when the endpoint cannot serve it", (kind, words) => {
    expect(() => requireRouteAllowed(chatOnly, principal, 'm', routeOf(kind))).toThrow(
      `The model 'm' is ${words} and cannot be used with /v1/messages.`,
    );
  });
});

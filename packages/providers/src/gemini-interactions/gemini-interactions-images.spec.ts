/**
 * Gamma images' stored history follows the caller's tier (SPEC.md §8: 55 days paid, 1 day free),
 * and an expired or foreign interaction cannot be continued. Against a replay replay.server. Search
 * tools never reach the upstream (SPEC.md §2.5), however they are written.
 */
import type { AccountTier, Channel, ModelInfo } from '@unigate/contracts';
import { useReplayServer } from '../__test-support__/replay-server';
import type { InteractionRegistry } from '../adapter-deps';
import { gammaGenerate, INTERACTION_RETENTION_MS, toInteractionBody } from './gemini-interactions-images';

const DAY_MS = 24 * 60 * 60 * 1000;
const replay = useReplayServer();

const MODEL = { id: 'gamma-3.1-flash-image-preview', family: 'gamma', kind: 'image' } as ModelInfo;
const channel = (): Channel => ({
  id: 'c1',
  protocol: 'gemini-interactions',
  base_url: replay.server.url,
  api_key: 'k',
  upstream_model: 'gamma-upstream',
  priority: 0,
  weight: 1,
});
const ctx = (account_id: string, tier: AccountTier) => ({
  signal: new AbortController().signal,
  request_id: 'req_1',
  account_id,
  tier,
  options: {},
  files: [],
  model: MODEL,
});

/** An in-memory registry: what was remembered, until when. */
function registry(): InteractionRegistry & { kept: Map<string, { account_id: string; expiresAt: number }> } {
  const kept = new Map<string, { account_id: string; expiresAt: number }>();
  return {
    kept,
    owner: async (id) => kept.get(id),
    remember: async (id, account_id, expiresAt) => void kept.set(id, { account_id, expiresAt }),
  };
}

const answer = (id: string) => ({
  json: {
    id,
    status: 'completed',
    outputs: [{ type: 'image', mime_type: 'image/png', data: 'iVBORw0KGgo=' }],
    usage: { total_input_tokens: 3 },
  },
});

test.each([
  ['paid', 55],
  ['free', 1],
] as const)('a %s account’s stored interaction is kept %i day(s)', async (tier, days) => {
  expect(INTERACTION_RETENTION_MS[tier]).toBe(days * DAY_MS);
  const interactions = registry();
  replay.server.reply(answer(`v1_${tier}`));
  const before = Date.now();
  await gammaGenerate(replay.http, interactions, channel(), { model: MODEL.id, input: 'a cat' }, ctx('acct_1', tier));
  const kept = interactions.kept.get(`v1_${tier}`)!;
  expect(kept.account_id).toBe('acct_1');
  expect(kept.expiresAt).toBeGreaterThanOrEqual(before + days * DAY_MS);
  expect(kept.expiresAt).toBeLessThanOrEqual(Date.now() + days * DAY_MS);
});

test('store: false keeps nothing; an expired interaction cannot be continued (404)', async () => {
  const interactions = registry();
  replay.server.reply(answer('v1_unstored'));
  await gammaGenerate(replay.http, interactions, channel(), { model: MODEL.id, input: 'a cat', store: false }, ctx('acct_1', 'free'));
  expect(interactions.kept.size).toBe(0);

  // A free account's interaction from two days ago has expired.
  interactions.kept.set('v1_old', { account_id: 'acct_1', expiresAt: Date.now() - DAY_MS });
  const requestsBefore = replay.server.requests.length;
  await expect(
    gammaGenerate(
      replay.http,
      interactions,
      channel(),
      { model: MODEL.id, input: 'again', previous_interaction_id: 'v1_old' },
      ctx('acct_1', 'free'),
    ),
  ).rejects.toMatchObject({ status: 404, code: 'interaction_not_found', param: 'previous_interaction_id' });
  expect(replay.server.requests.length).toBe(requestsBefore);
});

test.each([
  ['type google_search', { type: 'google_search' }],
  ['type GOOGLE_SEARCH', { type: 'GOOGLE_SEARCH' }],
  ['key google_search', { google_search: {} }],
  ['key googleSearch', { googleSearch: {} }],
  ['key google_search_retrieval', { google_search_retrieval: {} }],
  ['key googleSearchRetrieval', { googleSearchRetrieval: { dynamic_retrieval_config: {} } }],
])('a search tool (%s) is removed; other tools pass on', (_, search) => {
  const other = { type: 'function', name: 'lookup_prices' };
  const body = toInteractionBody(channel(), { model: MODEL.id, input: 'x', tools: [search, other] });
  expect(body.tools).toEqual([other]);
  expect(toInteractionBody(channel(), { model: MODEL.id, input: 'x', tools: [search] })).not.toHaveProperty('tools');
});

/** Chat models (SPEC.md §2.1, §2.2). Token prices are per million tokens. */
import type { ModelInfo } from '@unigate/contracts';
import { usd } from './usd';

const CHAT_ENDPOINTS: ModelInfo['endpoints'] = ['/v1/chat/completions', '/v1/messages', '/v1/responses'];

export const CHAT_MODELS: ModelInfo[] = [
  {
    id: 'sigma-sonnet-4-6',
    family: 'sigma',
    kind: 'chat',
    owned_by: 'sigma',
    created: 1771286400, // 2026-02-17
    description: 'Balanced sigma chat model for coding and agents.',
    context_window: 200_000,
    max_output_tokens: 64_000,
    // A large image is scaled to about 1.15 megapixels, at 750 pixels a token.
    max_image_tokens: 1_600,
    prices: {
      input_per_mtok: usd(3),
      cached_input_per_mtok: usd(0.3),
      cache_write_input_per_mtok: usd(3.75),
      cache_write_1h_input_per_mtok: usd(6),
      output_per_mtok: usd(15),
    },
    endpoints: CHAT_ENDPOINTS,
    chat: { vision: true, tools: true, reasoning: true },
  },
  {
    id: 'sigma-opus-4-7',
    family: 'sigma',
    kind: 'chat',
    owned_by: 'sigma',
    created: 1776211200, // 2026-04-15
    description: 'Most capable sigma chat model.',
    context_window: 200_000,
    max_output_tokens: 64_000,
    // High-resolution vision: up to about 3.75 megapixels, at 750 pixels a token.
    max_image_tokens: 5_000,
    prices: {
      input_per_mtok: usd(5),
      cached_input_per_mtok: usd(0.5),
      cache_write_input_per_mtok: usd(6.25),
      cache_write_1h_input_per_mtok: usd(10),
      output_per_mtok: usd(25),
    },
    endpoints: CHAT_ENDPOINTS,
    chat: { vision: true, tools: true, reasoning: true },
  },
  {
    id: 'gamma-2.5-pro',
    family: 'gamma',
    kind: 'chat',
    owned_by: 'gamma',
    created: 1750118400, // 2025-06-17
    description: 'Gamma reasoning model; accepts video and audio URLs in user messages.',
    context_window: 1_048_576,
    max_output_tokens: 65_536,
    prices: { input_per_mtok: usd(1.25), cached_input_per_mtok: usd(0.125), output_per_mtok: usd(10) },
    endpoints: CHAT_ENDPOINTS,
    chat: { vision: true, tools: true, reasoning: true, media_input: true },
  },
  {
    id: 'gamma-2.5-flash',
    family: 'gamma',
    kind: 'chat',
    owned_by: 'gamma',
    created: 1750118400, // 2025-06-17
    description: 'Fast, low-cost gamma model; accepts video and audio URLs in user messages.',
    context_window: 1_048_576,
    max_output_tokens: 65_536,
    prices: { input_per_mtok: usd(0.3), cached_input_per_mtok: usd(0.03), output_per_mtok: usd(2.5) },
    endpoints: CHAT_ENDPOINTS,
    chat: { vision: true, tools: true, reasoning: true, media_input: true },
  },
  {
    id: 'omega-k3',
    family: 'omega',
    kind: 'chat',
    owned_by: 'omega',
    created: 1777593600, // 2026-05-01
    description: 'Long-context reasoning model; thinking always on, reasoning billed as output.',
    context_window: 1_048_576,
    // SPEC.md §2.2: no limit when max_tokens is omitted, so the window itself is the ceiling.
    max_output_tokens: 1_048_576,
    prices: { input_per_mtok: usd(0.6), cached_input_per_mtok: usd(0.15), output_per_mtok: usd(2.5) },
    endpoints: CHAT_ENDPOINTS,
    chat: { vision: true, tools: true, reasoning: true, reasoning_efforts: ['max'] },
  },
];

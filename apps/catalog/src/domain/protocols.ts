/**
 * Which wire protocol serves which model by default, and which protocols can serve a kind at all.
 * This is the one place that maps model families to vendor protocols; adapters live in packages/providers.
 */
import type { ModelInfo, ModelKind, Protocol } from '@unigate/contracts';

/** Default protocol of a model when UNIGATE_CONFIG gives it no channels (see reference/README.md). */
export function defaultProtocol(model: Pick<ModelInfo, 'family' | 'kind'>): Protocol {
  switch (model.kind) {
    case 'chat':
      // Gamma chat speaks Gemini generateContent, sigma Anthropic Messages; the others the
      // OpenAI-compatible chat endpoint.
      if (model.family === 'gamma') return 'gemini-generate';
      if (model.family === 'sigma') return 'anthropic-messages';
      return 'openai-chat';
    case 'image':
    case 'image-edit':
      if (model.family === 'alpha') return 'dashscope';
      if (model.family === 'gamma') return 'gemini-interactions';
      return 'openai-images';
    case 'video':
      return model.family === 'beta' ? 'dashscope' : 'ark';
    case 'embedding':
      if (model.family === 'alpha') return 'dashscope';
      if (model.family === 'zeta') return 'voyage';
      return 'openai-embeddings';
    case 'speech':
      return 'dashscope';
  }
}

/** Protocols able to carry each kind; a config routing a model elsewhere is a startup error. */
export const PROTOCOLS_FOR_KIND: Record<ModelKind, readonly Protocol[]> = {
  chat: ['openai-chat', 'anthropic-messages', 'gemini-generate'],
  image: ['dashscope', 'gemini-interactions', 'gemini-generate', 'openai-images', 'ark'],
  'image-edit': ['dashscope', 'gemini-interactions', 'gemini-generate', 'openai-images', 'ark'],
  video: ['dashscope', 'ark'],
  embedding: ['openai-embeddings', 'voyage', 'dashscope', 'gemini-generate'],
  speech: ['dashscope'],
};

/**
 * A channel's base_url is the vendor's documented base: OpenAI-style and Voyage bases end in `/v1`
 * (adapters append `/chat/completions`, `/embeddings`, ...); DashScope, Gemini, Ark and Anthropic bases are
 * the host root (adapters append `/api/v1/...`, `/v1beta/...`, `/api/v3/...`, `/v1/messages`). The
 * simulator mirrors those paths, so its base per protocol follows the same rule.
 */
export function simulatorBaseUrl(protocol: Protocol, simUrl: string): string {
  const root = simUrl.replace(/\/+$/, '');
  switch (protocol) {
    case 'openai-chat':
    case 'openai-images':
    case 'openai-embeddings':
    case 'voyage':
      return `${root}/v1`;
    default:
      return root;
  }
}

export const DEFAULT_SIM_URL = 'http://127.0.0.1:8090';

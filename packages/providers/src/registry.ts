/**
 * What the providers know about upstream protocols, as data: which model kinds each protocol can
 * carry, which protocol a model family's vendor speaks, how its base URL is written — and which
 * endpoints the services can serve. Every vendor name lives in this package; the catalog asks here.
 */
import type { CapabilityService, ModelInfo, ModelKind } from '@unigate/contracts';
import type { AnyServiceEndpoint } from './adapter';
import type { AdapterDeps } from './adapter-deps';
import { chatCompletionsEndpoint } from './endpoints/chat-completions.endpoint';
import { countTokensEndpoint, messagesEndpoint } from './endpoints/messages.endpoint';
import { responsesEndpoint } from './endpoints/responses.endpoint';
import { embeddingsEndpoint } from './endpoints/embeddings.endpoint';
import { speechEndpoint } from './endpoints/speech.endpoint';
import { imageEditsEndpoint, imageGenerationsEndpoint } from './endpoints/images.endpoint';
import { videoGenerationsEndpoint } from './endpoints/videos.endpoint';

export const PROTOCOLS = [
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
  'gemini-generate',
  'gemini-interactions',
  'dashscope',
  'ark',
  'openai-images',
  'openai-embeddings',
  'voyage',
] as const;
export type Protocol = (typeof PROTOCOLS)[number];

interface ProtocolFacts {
  /** Model kinds an upstream speaking this protocol can serve (a config routing others is refused). */
  kinds: readonly ModelKind[];
  /**
   * How a channel's base_url is written: OpenAI-style and Voyage bases end in `/v1` (adapters append
   * `/chat/completions`, `/embeddings`, ...); the others are the host root (adapters append
   * `/api/v1/...`, `/v1beta/...`, `/api/v3/...`, `/v1/messages`).
   */
  base: 'v1' | 'root';
}

const PROTOCOL_FACTS: Readonly<Record<Protocol, ProtocolFacts>> = {
  'openai-chat': { kinds: ['chat'], base: 'v1' },
  // /v1/responses natively; chat completions and messages translated (openai-chat__openai-responses).
  'openai-responses': { kinds: ['chat'], base: 'v1' },
  'anthropic-messages': { kinds: ['chat'], base: 'root' },
  'gemini-generate': { kinds: ['chat', 'image', 'image-edit', 'embedding'], base: 'root' },
  'gemini-interactions': { kinds: ['image', 'image-edit'], base: 'root' },
  dashscope: { kinds: ['image', 'image-edit', 'video', 'embedding', 'speech'], base: 'root' },
  ark: { kinds: ['image', 'image-edit', 'video'], base: 'root' },
  'openai-images': { kinds: ['image', 'image-edit'], base: 'v1' },
  'openai-embeddings': { kinds: ['embedding'], base: 'v1' },
  voyage: { kinds: ['embedding'], base: 'v1' },
};

/** The protocol of each kind unless the model's family says otherwise (FAMILY_PROTOCOLS). */
const KIND_PROTOCOLS: Readonly<Record<ModelKind, Protocol>> = {
  chat: 'openai-chat',
  image: 'openai-images',
  'image-edit': 'openai-images',
  video: 'ark',
  embedding: 'openai-embeddings',
  speech: 'dashscope',
};

/** The protocol a family's vendor speaks, per kind (reference/README.md). */
const FAMILY_PROTOCOLS: Readonly<Record<string, Partial<Record<ModelKind, Protocol>>>> = {
  sigma: { chat: 'anthropic-messages' },
  gamma: { chat: 'gemini-generate', image: 'gemini-interactions', 'image-edit': 'gemini-interactions' },
  alpha: { image: 'dashscope', 'image-edit': 'dashscope', embedding: 'dashscope' },
  beta: { video: 'dashscope' },
  zeta: { embedding: 'voyage' },
};

export function isProtocol(name: string): name is Protocol {
  return (PROTOCOLS as readonly string[]).includes(name);
}

/** Protocols able to carry `kind`. */
export function protocolsFor(kind: ModelKind): Protocol[] {
  return PROTOCOLS.filter((p) => PROTOCOL_FACTS[p].kinds.includes(kind));
}

/** The protocol a model is reached by when UNIGATE_CONFIG gives it no channel. */
export function defaultProtocol(model: Pick<ModelInfo, 'family' | 'kind'>): Protocol {
  return FAMILY_PROTOCOLS[model.family]?.[model.kind] ?? KIND_PROTOCOLS[model.kind];
}

/** The simulator mirrors each vendor's paths, so its base per protocol follows the same rule. */
export function simulatorBaseUrl(protocol: Protocol, simUrl: string): string {
  const root = simUrl.replace(/\/+$/, '');
  return PROTOCOL_FACTS[protocol].base === 'v1' ? `${root}/v1` : root;
}

/** Every endpoint a capability service can serve, with its adapters (given what they need beyond HTTP). */
function allEndpoints(deps: AdapterDeps): AnyServiceEndpoint[] {
  return [
    chatCompletionsEndpoint,
    messagesEndpoint,
    countTokensEndpoint,
    responsesEndpoint,
    embeddingsEndpoint,
    speechEndpoint,
    imageGenerationsEndpoint(deps),
    imageEditsEndpoint,
    videoGenerationsEndpoint,
  ];
}

export const SERVICE_ENDPOINTS: readonly AnyServiceEndpoint[] = allEndpoints({});

/** The endpoints one service owns (edge specs say which: `spec.service`). */
export function serviceEndpoints(service: CapabilityService, deps: AdapterDeps = {}): AnyServiceEndpoint[] {
  return allEndpoints(deps).filter((e) => e.spec.service === service);
}

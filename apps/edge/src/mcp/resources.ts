/**
 * The MCP resources: the model catalogue and the price list as the caller's key sees them, and the
 * API reference generated from the endpoint specs.
 */
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { microsToUsd, type AnyEndpointSpec, type CatalogPort, type KeyPrincipal, type Prices } from '@unigate/contracts';
import { modelsForKey } from '../models/models-for-key';
import { apiReferenceMarkdown } from '../reference/api-reference';

export interface ResourceContext {
  principal: KeyPrincipal;
  catalog: CatalogPort;
  specs: readonly AnyEndpointSpec[];
  /** The specs whose task lookup is served. */
  lookups: readonly AnyEndpointSpec[];
  /** Whether GET and DELETE /v1/responses/{id} are served. */
  storedResponses: boolean;
}

export interface GatewayResource {
  definition: Resource & { mimeType: string };
  read(ctx: ResourceContext): Promise<string>;
}

export const modelCatalogResource: GatewayResource = {
  definition: {
    uri: 'unigate://models',
    name: 'models',
    title: 'Model catalogue',
    description: 'Every model your key may use: family, kind, endpoints, context window, limits and description.',
    mimeType: 'application/json',
  },
  async read({ catalog, principal }) {
    const models = (await modelsForKey(catalog, principal)).map(({ prices: _prices, ...model }) => model);
    return JSON.stringify({ object: 'list', data: models }, null, 2);
  },
};

export const priceListResource: GatewayResource = {
  definition: {
    uri: 'unigate://prices',
    name: 'prices',
    title: 'Price list',
    description: 'What each model costs, in USD: tokens per million, images per image, video per second, speech per million characters.',
    mimeType: 'application/json',
  },
  async read({ catalog, principal }) {
    const models = await modelsForKey(catalog, principal);
    return JSON.stringify({ currency: 'USD', data: models.map((m) => ({ model: m.id, kind: m.kind, prices: inUsd(m.prices) })) }, null, 2);
  },
};

export const apiReferenceResource: GatewayResource = {
  definition: {
    uri: 'unigate://reference',
    name: 'reference',
    title: 'API reference',
    description: 'The HTTP API: every endpoint with its request schema, billing units and error shapes (generated from the contracts).',
    mimeType: 'text/markdown',
  },
  read: async ({ specs, lookups, storedResponses }) => apiReferenceMarkdown(specs, lookups, storedResponses),
};

export const GATEWAY_RESOURCES: readonly GatewayResource[] = [modelCatalogResource, priceListResource, apiReferenceResource];

/** Catalogue prices are integer micro-USD; a reader wants dollars. */
function inUsd(prices: Prices): Record<string, unknown> {
  const usd = (v: unknown): unknown =>
    typeof v === 'number'
      ? microsToUsd(v)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, usd(x)]))
        : v;
  return usd(prices) as Record<string, unknown>;
}

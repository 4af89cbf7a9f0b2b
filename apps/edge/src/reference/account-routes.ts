/**
 * The public routes that are not endpoint specs (Nest controllers: models/, billing/), described once
 * for the generated references. Their answers' shapes are the controllers' own.
 */
import { anthropicModelsQuerySchema } from '@unigate/contracts';
import type { JsonSchema } from './endpoint-schemas';

export interface AccountRoute {
  path: string;
  /** The same route at another path (the quota endpoints also answer without /v1, as clients call them). */
  alias?: string;
  summary: string;
  /** Parameters in the path (`{name}`). */
  params?: Array<{ name: string; description: string }>;
  query?: Array<{ name: string; description: string }>;
  /** Error statuses beyond 400 and 401. */
  errors?: string[];
  /** Also takes the key as Anthropic's `x-api-key` header. */
  acceptsXApiKey?: boolean;
  response: JsonSchema;
}

/** A route's parameters, those in its path first, each with where it goes. */
export function routeParameters(route: AccountRoute): Array<{ name: string; description: string; in: 'path' | 'query' }> {
  return [
    ...(route.params ?? []).map((p) => ({ ...p, in: 'path' as const })),
    ...(route.query ?? []).map((q) => ({ ...q, in: 'query' as const })),
  ];
}

const usd = { type: 'number' };

const MODEL: JsonSchema = {
  type: 'object',
  required: ['id', 'object', 'created', 'owned_by', 'family', 'kind'],
  properties: {
    id: { type: 'string' },
    object: { const: 'model' },
    created: { type: 'integer' },
    owned_by: { type: 'string' },
    family: { type: 'string' },
    kind: { type: 'string' },
  },
};

/** A model as Anthropic's Models API gives it (to a request with `anthropic-version`). */
const ANTHROPIC_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'id', 'display_name', 'created_at'],
  properties: {
    type: { const: 'model' },
    id: { type: 'string' },
    display_name: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    max_input_tokens: { type: ['integer', 'null'] },
    max_tokens: { type: ['integer', 'null'] },
    description: { type: 'string' },
  },
};

const ANTHROPIC_CLIENTS =
  ' With an `anthropic-version` header (Anthropic clients; the key may then come as `x-api-key`): the same models in Anthropic’s Models API shape, errors in Anthropic’s shape.';

export const ACCOUNT_ROUTES: readonly AccountRoute[] = [
  {
    path: '/v1/models',
    acceptsXApiKey: true,
    summary:
      'The models your key may use (OpenAI list shape, plus family and kind).' + ANTHROPIC_CLIENTS + ' Newest first, a page at a time.',
    query: Object.entries(anthropicModelsQuerySchema.shape).map(([name, schema]) => ({
      name,
      description: `Anthropic clients: ${schema.description}`,
    })),
    response: {
      oneOf: [
        {
          type: 'object',
          required: ['object', 'data'],
          properties: {
            object: { const: 'list' },
            data: {
              type: 'array',
              items: MODEL,
            },
          },
        },
        {
          type: 'object',
          required: ['data', 'has_more', 'first_id', 'last_id'],
          properties: {
            data: { type: 'array', items: ANTHROPIC_MODEL },
            has_more: { type: 'boolean' },
            first_id: { type: ['string', 'null'] },
            last_id: { type: ['string', 'null'] },
          },
        },
      ],
    },
  },
  {
    path: '/v1/models/{model}',
    acceptsXApiKey: true,
    summary: 'One model your key may use, in the shape of a /v1/models entry; 404 model_not_found for any other.' + ANTHROPIC_CLIENTS,
    params: [{ name: 'model', description: 'a model id, as /v1/models lists it' }],
    errors: ['404'],
    response: { oneOf: [MODEL, ANTHROPIC_MODEL] },
  },
  {
    path: '/v1/dashboard/billing/subscription',
    alias: '/dashboard/billing/subscription',
    summary: "Quota of the key's account: balance = hard_limit_usd − total_usage/100 of the usage endpoint.",
    response: {
      type: 'object',
      required: ['object', 'hard_limit_usd'],
      properties: {
        object: { const: 'billing_subscription' },
        has_payment_method: { type: 'boolean' },
        soft_limit_usd: usd,
        hard_limit_usd: usd,
        system_hard_limit_usd: usd,
        access_until: { type: 'integer' },
      },
    },
  },
  {
    path: '/v1/dashboard/billing/usage',
    alias: '/dashboard/billing/usage',
    summary: "Everything charged to the key's account (in cents), with daily costs in a date range (default: the last 100 days).",
    query: [
      { name: 'start_date', description: 'YYYY-MM-DD, inclusive' },
      { name: 'end_date', description: 'YYYY-MM-DD, exclusive; at most 366 days after start_date' },
    ],
    response: {
      type: 'object',
      required: ['object', 'total_usage', 'daily_costs'],
      properties: {
        object: { const: 'list' },
        total_usage: { type: 'number', description: 'cents' },
        daily_costs: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              timestamp: { type: 'integer' },
              line_items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, cost: { type: 'number' } } } },
            },
          },
        },
      },
    },
  },
];

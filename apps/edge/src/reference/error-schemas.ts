/**
 * The error bodies of SPEC.md §7 as JSON Schemas (contracts renders them in errors.ts: renderShapeA,
 * renderShapeB, renderAnthropic), for the OpenAPI document.
 */
import type { ErrorShape } from '@unigate/contracts';
import type { JsonSchema } from './endpoint-schemas';

const nullableString = { type: ['string', 'null'] };

export const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ErrorShapeA: {
    type: 'object',
    description: 'Shape A: every 429, and the families that speak it.',
    required: ['code', 'message', 'request_id'],
    properties: { code: { type: 'string' }, message: { type: 'string' }, request_id: { type: 'string' } },
  },
  ErrorShapeB: {
    type: 'object',
    description: 'Shape B (OpenAI): a 402 carries the message only.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message'],
        properties: { message: { type: 'string' }, type: { type: 'string' }, code: nullableString, param: nullableString },
      },
    },
  },
  ErrorAnthropic: {
    type: 'object',
    description: "Anthropic's error body (the messages endpoints); a 429 also carries Shape A's fields.",
    required: ['type', 'error'],
    properties: {
      type: { const: 'error' },
      error: { type: 'object', required: ['type', 'message'], properties: { type: { type: 'string' }, message: { type: 'string' } } },
      request_id: { type: 'string' },
    },
  },
};

const NAMES: Record<ErrorShape, string> = { A: 'ErrorShapeA', B: 'ErrorShapeB', anthropic: 'ErrorAnthropic' };

/** The component name of a shape's schema. */
export const errorSchemaName = (shape: ErrorShape) => NAMES[shape];

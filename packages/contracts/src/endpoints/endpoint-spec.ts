/**
 * An endpoint spec: everything about one public operation that is not transport and not vendor —
 * declared once, run by the edge's one pipeline (apps/edge/src/pipeline) and by the services' one
 * runner (packages/providers/src/runner), whose adapters implement its request/response types.
 *
 * Adding a capability means adding a spec here, an adapter per upstream protocol in
 * packages/providers, and a simulator route (docs/architecture.md walks through chat).
 */
import type { z } from 'zod';
import type { ModelInfo, ModelKind } from '../catalog';
import { GatewayError, type ErrorShape } from '../errors';
import type { Usage, UsageUnit } from '../pricing';
import type { Attachment, JsonText } from '../ports';
import { parseOrError } from '../validation';

/** The service that owns an endpoint's calls (one gRPC hop from the edge in distributed mode). */
export type CapabilityService = 'chat' | 'media' | 'video';

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What the pipeline does with a validated request once its model's rules have passed. */
export interface EndpointPlan {
  /** The most the call can cost, in the endpoint's units; null when the endpoint is not billed. */
  worstCase: Usage | null;
  /**
   * How long the hold must outlive the call's answer, in seconds, when the call is settled later
   * than it is answered (a video task settles when it finishes). Default: billing's hold TTL.
   */
  holdTtlSeconds?: number;
}

/**
 * A multipart/form-data request (image edits): its text fields make the object the request schema
 * validates (repeated fields become arrays), its files travel to the service as bytes.
 */
export interface MultipartBody {
  kind: 'multipart';
  /** The largest file, in bytes; a larger one is a 413 before it is read to the end. */
  maxFileBytes: number;
  /** Files per request at most (413 beyond). */
  maxFiles: number;
  /** Text fields per request at most (413 beyond). */
  maxFields: number;
}

/** An answer sent as raw bytes as they come (speech audio) rather than JSON. */
export interface BinaryReply<Req> {
  /** The answer's content type; the model decides it where the request leaves it open (speech's default format). */
  contentType(req: Req, model: ModelInfo): string;
}

/** How a streamed answer is framed as Server-Sent Events. */
export interface SseFraming<Ev> {
  /** The `event:` name of an item (messages and responses name every event; chat completions none). */
  eventName?(item: Ev): string | undefined;
  /** A data line written after the last item (`[DONE]` for chat completions). */
  terminator?: string;
  /** A failure after the stream began, as this protocol reports it; `sent` items went out before it. */
  error(err: GatewayError, requestId: string, sent: number): { event?: string; data: unknown };
  /**
   * The item ended the stream (a terminal event). A failure after it writes nothing more: the service
   * told the failure itself, with what only it knew (a translated Responses stream's output so far).
   */
  ended?(item: Ev | JsonText): boolean;
}

export interface EndpointSpec<Req = unknown, Res = unknown, Ev = unknown> {
  /** Stable name; travels on the wire with every call. */
  readonly name: string;
  /** The public path (POST). */
  readonly path: string;
  /** One sentence on what the operation does, for the generated references (MCP tools, OpenAPI, /docs). */
  readonly summary?: string;
  readonly service: CapabilityService;
  /** The public request schema: a 400 naming the field when it fails. */
  readonly request: z.ZodType<Req>;
  /**
   * Where `request` checks only what every model shares and each model family has a request format of
   * its own (images: alpha, gamma, delta), those formats by family, for the generated references
   * (MCP tools, OpenAPI, /docs) to describe; the family's rules check them once the model is known.
   */
  readonly requestFormats?: Readonly<Record<string, { models: string; schema: z.ZodObject }>>;
  /**
   * A small valid request (the built-in catalogue serves its model). The hostile-input suite mutates
   * it field by field, so a new spec is fuzzed without new test code; docs and tools can show it.
   */
  readonly example: Req;
  /** A whole answer, validated where it crosses a service boundary. */
  readonly response: z.ZodType<Res>;
  /** One stream item, validated where it crosses a service boundary. */
  readonly event?: z.ZodType<Ev>;
  /** Model kinds the endpoint accepts; a model of another kind is a 400 `model_not_supported`. */
  readonly kinds: readonly ModelKind[];
  /** The error code of a model of another kind (default `model_not_supported`; speech says `endpoint_model_mismatch`). */
  readonly kindMismatchCode?: string;
  /** The error code of a request its schema refuses (default `invalid_value`; the video family says `InvalidParameter`). */
  readonly invalidRequestCode?: string;
  /** The price units its usage is measured in (docs/pricing.md). */
  readonly units: readonly UsageUnit[];
  /** Anthropic's `x-api-key` header authenticates too (Bearer always does). */
  readonly acceptsXApiKey?: boolean;
  /** The error body shape (SPEC.md §7); `family` is given once the model is known. */
  errorShape(family?: string): ErrorShape;
  modelOf(req: Req): string;
  isStream(req: Req): boolean;
  /**
   * A model the catalogue does not know, when the endpoint's family says so otherwise than 404
   * (the alpha image family: 400 InvalidParameter in Shape A): the family whose shape answers, and the error.
   */
  unknownModel?(model: string): { family: string; error: GatewayError } | undefined;
  /** The model's rules (a 400 naming the field) and the worst case the hold reserves. */
  plan(model: ModelInfo, req: Req, files: readonly Attachment[]): EndpointPlan;
  /** The request body's format: JSON unless this says multipart. */
  readonly body?: MultipartBody;
  /** The answer's format: JSON (or SSE) unless this says raw bytes. A binary answer is always streamed. */
  readonly binary?: BinaryReply<Req>;
  /** The status of a successful answer (default 200). */
  readonly successStatus?: number;
  readonly sse?: SseFraming<Ev>;
  /**
   * The answer as the client sees it, given the origin it called (`https://host`): links the service
   * made relative to the gateway (`/v1/files/…`) become absolute here.
   */
  localize?(answer: Res, origin: string): Res;
  /**
   * Answers the edge prints in pieces, when printing one in one go could hold the event loop too long
   * (a thousand float vectors are 41 MB of numbers): it writes each piece as it comes and lets other
   * requests run between them. Such an answer crosses the internal wire to be read, not as text.
   */
  readonly inPieces?: PiecewiseAnswer<Req, Res>;
  /** Options read from the request (its headers, the origin it called) and carried to the service. */
  options?(headers: RequestHeaders, origin: string): Record<string, string>;
  /** Headers every answer of this endpoint carries. */
  replyHeaders?(requestId: string): Record<string, string>;
  /**
   * The answer is a task that finishes later: GET `<path>/{id}` (lookupPath) answers it again, in the
   * same schema, until it is done. The reference and the MCP tools describe that route from this.
   */
  readonly lookup?: TaskLookup;
}

/**
 * About the most of an answer's JSON written in one go (characters): a longer one goes out in pieces
 * of this size, with other requests' work between them. One write of 11 MB of text held the event
 * loop ~100 ms (the socket write alone), its pieces ~2.5 ms each.
 */
export const ANSWER_PIECE_CHARS = 256 * 1024;

export interface PiecewiseAnswer<Req, Res> {
  /** Whether the answer to `req` is printed in pieces (otherwise whole, as any answer). */
  when(req: Req): boolean;
  /** The answer's JSON, in pieces that join into it. */
  render(answer: Res, req: Req): Iterable<string>;
}

export interface TaskLookup {
  summary: string;
  /** The route's one path parameter, `id`. */
  params: z.ZodObject<{ id: z.ZodString }>;
}

/** Where a task answered by `spec` is looked up again (OpenAPI path syntax). */
export const lookupPath = (spec: AnyEndpointSpec) => `${spec.path}/{id}`;

// Specs are heterogeneous: registries hold them with their types erased.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpointSpec = EndpointSpec<any, any, any>;

export const fixedShape = (shape: ErrorShape) => () => shape;

/** The request as `spec`'s schema reads it; a refusal is the 400 naming the field, in the spec's code. */
export function parseRequest<Req>(spec: EndpointSpec<Req>, input: unknown): Req {
  const parsed = parseOrError(spec.request, input);
  if (parsed.success) return parsed.data;
  const code = spec.invalidRequestCode;
  throw code ? new GatewayError({ ...parsed.error.toJSON(), code }) : parsed.error;
}

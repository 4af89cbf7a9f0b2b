/**
 * Fault injection rules, set through POST /_sim/faults. A request takes the first rule that matches
 * it (by model and/or path) and has uses left; rules are consumed in the order they were added, so
 * `{status: 429, count: 1}` followed by nothing gives "429 once, then success".
 */

export interface FaultRule {
  match?: { model?: string; path?: string };
  /** Wait this long before answering (before the first byte of a stream too). */
  latency_ms?: number;
  /** Answer with this HTTP status and an error body in the protocol's shape. */
  status?: number;
  /** Error message to put in that body. */
  message?: string;
  /** With `status`: a Retry-After header to send with it (vendors send one with their 429s). */
  retry_after?: string;
  /** How many requests the rule applies to; unlimited when absent. */
  count?: number;
  /** Streams only: destroy the socket after this many content chunks, without a final chunk or [DONE]. */
  cut_after_chunks?: number;
  /** Streams only: delay between chunks for this request. */
  token_delay_ms?: number;
  /**
   * OpenAI chat only: answer 200 with a body that never ends (a JSON answer, or a stream's first event,
   * that goes on for as long as the client reads), the way a runaway upstream or proxy would.
   */
  endless_body?: boolean;
}

export interface ActiveFault extends FaultRule {
  id: number;
  /** Requests the rule has applied to so far. */
  used: number;
}

/** The JSON schema fastify validates a POSTed rule against. */
export const faultRuleJsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    match: {
      type: 'object',
      additionalProperties: false,
      properties: { model: { type: 'string' }, path: { type: 'string' } },
    },
    latency_ms: { type: 'integer', minimum: 0 },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    message: { type: 'string' },
    retry_after: { type: 'string' },
    count: { type: 'integer', minimum: 1 },
    cut_after_chunks: { type: 'integer', minimum: 0 },
    token_delay_ms: { type: 'integer', minimum: 0 },
    endless_body: { type: 'boolean' },
  },
} as const;

export class FaultRules {
  private rules: ActiveFault[] = [];
  private nextId = 1;

  add(rule: FaultRule): ActiveFault {
    const active: ActiveFault = { ...rule, id: this.nextId++, used: 0 };
    this.rules.push(active);
    return active;
  }

  list(): ActiveFault[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /**
   * The rule this request triggers, counting one use of it; undefined when none applies. A rule's
   * Retry-After goes on `reply` here, so no route repeats it.
   */
  take(request: { model?: string; path: string }, reply?: { header(name: string, value: string): unknown }): FaultRule | undefined {
    if (this.rules.length === 0) return undefined; // the hot path when no faults are set
    const index = this.rules.findIndex(
      (r) =>
        (r.match?.model === undefined || r.match.model === request.model) && (r.match?.path === undefined || r.match.path === request.path),
    );
    if (index < 0) return undefined;
    const rule = this.rules[index];
    rule.used++;
    if (rule.count !== undefined && rule.used >= rule.count) this.rules.splice(index, 1);
    if (rule.status && rule.retry_after !== undefined) reply?.header('retry-after', rule.retry_after);
    return rule;
  }
}

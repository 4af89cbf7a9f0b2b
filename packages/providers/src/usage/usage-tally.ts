/**
 * The one usage estimator of the providers: what a call produced, from the upstream's own numbers
 * when it reported them, otherwise counted from what actually went out (a stream cut by the client
 * or the upstream, a vendor that omits usage) with the gateway's token counter (contracts/tokens.ts).
 */
import { countTextTokens, promptUnits, type Usage } from '@unigate/contracts';
import type { MeasuredStream } from '../adapter';

type TokenReport = Pick<
  Usage,
  'input_tokens' | 'cached_input_tokens' | 'cache_write_input_tokens' | 'cache_write_1h_input_tokens' | 'output_tokens'
>;

export class UsageTally {
  private reported: TokenReport = {};
  private produced = '';
  private final = false;
  private promptEstimate?: number;

  /** `promptTokens` estimates the prompt, asked only when the upstream never reported it. */
  constructor(private readonly promptTokens: () => number) {}

  /**
   * Numbers the upstream reported (cumulative, later reports override). `final`: the upstream says
   * the call is complete, so its output count replaces the count of produced text.
   */
  report(u: TokenReport, final = false): void {
    for (const [k, v] of Object.entries(u) as Array<[keyof TokenReport, number | undefined]>)
      if (typeof v === 'number') this.reported[k] = v;
    if (final) this.final = true;
  }

  /** Text (answer, reasoning, tool arguments) that reached the caller. */
  produce(text: string | null | undefined): void {
    if (text) this.produced += text;
  }

  /** True once anything billable came from the upstream. */
  get producedAnything(): boolean {
    return this.final || this.produced.length > 0;
  }

  usage(): Usage {
    if (!this.producedAnything) return {};
    const input = this.reported.input_tokens ?? (this.promptEstimate ??= this.promptTokens());
    const output = this.final && this.reported.output_tokens !== undefined ? this.reported.output_tokens : countTextTokens(this.produced);
    const r = this.reported;
    return {
      ...promptUnits(input, r.cached_input_tokens, r.cache_write_input_tokens, r.cache_write_1h_input_tokens),
      output_tokens: output,
    };
  }
}

/** A stream measured by a tally that sees every item as it passes. */
export class TalliedStream<T> implements MeasuredStream<T> {
  constructor(
    private readonly source: AsyncIterable<T>,
    readonly tally: UsageTally,
    private readonly observe: (item: T, tally: UsageTally) => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const item of this.source) {
      this.observe(item, this.tally);
      yield item;
    }
  }

  usage(): Usage {
    return this.tally.usage();
  }
}

/** `source`'s items transformed one to any number (`map` returns them), its measurement kept. */
export function mapMeasured<T, U>(source: MeasuredStream<T>, map: (item: T) => Iterable<U>, end?: () => Iterable<U>): MeasuredStream<U> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const item of source) yield* map(item);
      if (end) yield* end();
    },
    usage: () => source.usage(),
  };
}

/** `items` measured by someone else's count (a translation of a measured stream). */
export function measuredBy<T>(items: AsyncIterable<T>, usage: () => Usage): MeasuredStream<T> {
  return { [Symbol.asyncIterator]: () => items[Symbol.asyncIterator](), usage };
}

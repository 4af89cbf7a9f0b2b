/**
 * The most of one upstream answer the gateway holds: a JSON answer read whole, an error body, one
 * server-sent event. An upstream (or a proxy before it) that sends more, a runaway body or a line that
 * never ends, would otherwise be collected until the process ran out of memory, cutting every other
 * request it carried. The bound is generous: an answer is several copies in memory while it is read,
 * parsed and encoded again, so one near a quarter of the heap is about the most a process survives.
 */
import { getHeapStatistics } from 'node:v8';
import { errors, type GatewayError } from '@unigate/contracts';

/** V8 strings end near 512 MiB; the text and the parsed value of an answer are both on the heap. */
const ANSWER_CEILING_BYTES = 256 * 1024 * 1024;

/** A quarter of the V8 heap limit (the chart's 512 MiB containers: about 85 MiB), at most 256 MiB. */
export function defaultAnswerLimitBytes(): number {
  return Math.min(Math.floor(getHeapStatistics().heap_size_limit / 4), ANSWER_CEILING_BYTES);
}

/** The error for an answer (or event) past `limit` bytes: the same request would likely get the same answer. */
export function answerTooLarge(limit: number, what = 'answer'): GatewayError {
  return errors.upstream(502, `the upstream's ${what} is larger than ${mebibytes(limit)}, more than the gateway reads`, false);
}

/** An answer's bytes, collected up to `limit`. */
export class AnswerBytes {
  private readonly chunks: Buffer[] = [];
  private received = 0;

  constructor(private readonly limit: number) {}

  /** Keeps `chunk`; past the limit drops all it kept and answers the error to fail with. */
  add(chunk: Buffer): GatewayError | undefined {
    this.received += chunk.length;
    if (this.received <= this.limit) {
      this.chunks.push(chunk);
      return undefined;
    }
    this.chunks.length = 0;
    return answerTooLarge(this.limit);
  }

  whole(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }
}

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Math.round(mib)} MiB` : `${bytes} bytes`;
}

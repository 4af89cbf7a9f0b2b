/**
 * An upstream answer read whole (a JSON reply, not a stream), collected by an undici dispatch handler
 * straight into one buffer. undici's `request()` wraps every response in a Readable stream and an
 * AsyncResource, which for a reply of a few kilobytes read in one go costs tens of microseconds per
 * call on the hot path; a stream is only worth it when the body is consumed as it arrives.
 *
 * Same contract as `request()`: resolves with the status and headers once they arrive, the body
 * completes later; timeouts are the pool's; an abort of `signal` fails whatever is pending with the
 * signal's reason. A body past `maxBytes` is not read on: the request is aborted and fails with
 * answer-limit.ts's 502.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { AnswerBytes } from './answer-limit';

/** What callers read of an upstream body: all of it as text, or its bytes as they come. */
export interface UpstreamBody extends AsyncIterable<Uint8Array> {
  text(): Promise<string>;
}

/** A body that is complete when `bytes` resolves. */
class WholeBody implements UpstreamBody {
  constructor(private readonly bytes: Promise<Buffer>) {}

  async text(): Promise<string> {
    return (await this.bytes).toString('utf8');
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    yield await this.bytes;
  }
}

export interface WholeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: UpstreamBody;
}

/** Sends `opts` on `dispatcher`; the answer's body is collected whole, up to `maxBytes`. */
export function dispatchWhole(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
  maxBytes: number,
): Promise<WholeResponse> {
  return new Promise((resolveHead, rejectHead) => {
    let resolveBody!: (bytes: Buffer) => void;
    let rejectBody!: (err: unknown) => void;
    const bytes = new Promise<Buffer>((resolve, reject) => {
      resolveBody = resolve;
      rejectBody = reject;
    });
    // Failing before the headers rejects both; only the head's rejection has a reader then.
    bytes.catch(() => undefined);
    const collected = new AnswerBytes(maxBytes);
    let onAbort: (() => void) | undefined;
    const settle = () => {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      onAbort = undefined;
    };
    dispatcher.dispatch(opts, {
      onRequestStart(controller) {
        if (!signal) return;
        if (signal.aborted) return controller.abort(signal.reason as Error);
        onAbort = () => controller.abort(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
      },
      onResponseStart(_controller, status, headers) {
        // An informational answer (100 Continue) is not the answer.
        if (status < 200) return;
        resolveHead({ status, headers: headers as IncomingHttpHeaders, body: new WholeBody(bytes) });
      },
      onResponseData(controller, chunk) {
        const tooLarge = collected.add(chunk);
        if (tooLarge) controller.abort(tooLarge);
      },
      onResponseEnd() {
        settle();
        resolveBody(collected.whole());
      },
      onResponseError(_controller, err) {
        settle();
        rejectHead(err);
        rejectBody(err);
      },
    });
  });
}

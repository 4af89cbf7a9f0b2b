/**
 * The caller's side of a session RPC (endpoint.proto's Session): long-lived bidi streams that carry
 * one call at a time, kept in a pool between calls. A call on an idle session is one message each way;
 * a new call would cost a new HTTP/2 stream (headers, metadata, trailers), several times the CPU and
 * about 0.3 ms more per call on 2 cores (docs/architecture.md, "The gRPC hop").
 */
import type { ClientDuplexStream, Metadata } from '@grpc/grpc-js';
import { fromGrpcError, serviceUnavailable } from './errors';
import { HELD_CALLS_METADATA } from './grpc-server';

export interface SessionPoolOptions {
  /** Idle sessions kept; more are closed when their call ends. */
  maxIdle?: number;
  /**
   * A session is closed, not reused, once it is this old, so that behind a proxy that balances per
   * HTTP/2 stream (a mesh) the calls spread again over the replicas as they come and go.
   */
  maxAgeMs?: number;
}

/** One bidi stream: its replies are read as the caller asks for them, so flow control holds per call. */
class Session<Req, Res> {
  readonly born = Date.now();
  /** The server said (in the session's initial metadata) that it takes held calls. */
  takesHeld = false;
  private readonly queue: Res[] = [];
  private waiter?: { resolve: (res: Res | undefined) => void; reject: (err: unknown) => void };
  private failure?: unknown;
  private ended = false;

  constructor(
    private readonly stream: ClientDuplexStream<Req, Res>,
    gone: (session: Session<Req, Res>) => void,
  ) {
    stream.on('metadata', (metadata: Metadata) => (this.takesHeld = metadata.get(HELD_CALLS_METADATA)[0] === '1'));
    stream.on('data', (res: Res) => {
      const waiter = this.waiter;
      this.waiter = undefined;
      if (waiter) return waiter.resolve(res);
      this.queue.push(res);
      stream.pause();
    });
    stream.on('end', () => {
      this.ended = true;
      this.wake();
      gone(this);
    });
    stream.on('error', (err) => {
      this.failure = err;
      this.wake();
      gone(this);
    });
  }

  get usable(): boolean {
    return !this.ended && this.failure === undefined;
  }

  send(req: Req): void {
    this.stream.write(req);
  }

  /** The next reply; undefined once the server has ended the session. */
  next(): Promise<Res | undefined> {
    if (this.queue.length > 0) {
      const res = this.queue.shift()!;
      if (this.queue.length === 0) this.stream.resume();
      return Promise.resolve(res);
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** No more calls from this side; the server ends the session in turn. */
  close(): void {
    this.stream.end();
  }

  /** Abandons the running call (the server's signal aborts) and the session with it. */
  cancel(): void {
    this.stream.cancel();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (!waiter) return;
    if (this.failure !== undefined) waiter.reject(this.failure);
    else waiter.resolve(undefined);
  }
}

/**
 * A call that may go out before it is allowed to run (endpoint.proto's SessionCall.held): on a session
 * whose server takes held calls, `held` is sent at once and `release` once `until` resolves; on any
 * other session, `until` is awaited first and the plain call sent after it. When `until` rejects, the
 * call fails with its error and its session is cancelled, so the server never runs it.
 */
export interface HeldCall<Req> {
  held: Req;
  release: Req;
  until: Promise<unknown>;
}

export class SessionPool<Req, Res> {
  private readonly idle = new Set<Session<Req, Res>>();
  private readonly maxIdle: number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly open: () => ClientDuplexStream<Req, Res>,
    options: SessionPoolOptions = {},
  ) {
    this.maxIdle = options.maxIdle ?? 64;
    this.maxAgeMs = options.maxAgeMs ?? 30_000;
  }

  /** Idle sessions right now. */
  get idleCount(): number {
    return this.idle.size;
  }

  /**
   * One call: `req` on an idle session (or a new one), then its replies up to the one `last` accepts.
   * A failure arrives as the GatewayError it carried (fromGrpcError); `signal` cancels the call. A
   * session that the server ended before answering (it was draining) never started the call, so the
   * call is sent once more on a new session. With `hold`, the call may go out before it may run.
   */
  async *call(req: Req, last: (res: Res) => boolean, signal?: AbortSignal, hold?: HeldCall<Req>): AsyncGenerator<Res> {
    for (let attempt = 1; ; attempt++) {
      const session = this.acquire();
      const cancel = () => session.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      let answered = false;
      let released = false;
      try {
        if (hold && session.takesHeld) {
          session.send(hold.held);
          await hold.until;
          signal?.throwIfAborted();
          session.send(hold.release);
        } else {
          if (hold) {
            // Nothing is on this session yet: refused, it goes back to the pool as it was.
            await hold.until.catch((err: unknown) => {
              released = true;
              signal?.removeEventListener('abort', cancel);
              this.release(session);
              throw err;
            });
            signal?.throwIfAborted();
          }
          session.send(req);
        }
        for (;;) {
          const res = await session.next();
          if (res === undefined) break;
          answered = true;
          if (last(res)) {
            // Back in the pool before the caller sees the last reply: it may never ask for more.
            released = true;
            signal?.removeEventListener('abort', cancel);
            this.release(session);
            yield res;
            return;
          }
          yield res;
        }
      } catch (err) {
        throw signal?.aborted ? (signal.reason ?? fromGrpcError(err)) : fromGrpcError(err);
      } finally {
        signal?.removeEventListener('abort', cancel);
        // Stopped early (the caller left, or a failure): the call ends with the session.
        if (!released && session.usable) session.cancel();
      }
      if (answered || attempt > 1) throw serviceUnavailable();
    }
  }

  private acquire(): Session<Req, Res> {
    for (const session of this.idle) {
      this.idle.delete(session);
      // Too old to reuse: also never one that sat idle long enough for a proxy's idle timeout to cut it.
      if (this.fresh(session)) return session;
      session.close();
    }
    return new Session(this.open(), (gone) => this.idle.delete(gone));
  }

  private release(session: Session<Req, Res>): void {
    if (this.fresh(session) && this.idle.size < this.maxIdle) this.idle.add(session);
    else session.close();
  }

  private fresh(session: Session<Req, Res>): boolean {
    return session.usable && Date.now() - session.born < this.maxAgeMs;
  }
}

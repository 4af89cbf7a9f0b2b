/**
 * The caller's side of a session RPC (endpoint.proto's Session): long-lived bidi streams that carry
 * one call at a time, kept in a pool between calls. A call on an idle session is one message each way;
 * a new call would cost a new HTTP/2 stream (headers, metadata, trailers), several times the CPU and
 * about 0.3 ms more per call on 2 cores (docs/architecture.md, "The gRPC hop").
 */
import type { ClientDuplexStream, Metadata } from '@grpc/grpc-js';
import { fromGrpcError, serviceUnavailable } from './errors';
import { HELD_CALLS_METADATA, SESSION_STOPS_METADATA } from './grpc-server';

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
  /** ...and that it takes stops. */
  takesStops = false;
  /** That metadata has been read: until then, neither of the above is known. */
  metadataRead = false;
  private readonly onMetadata: Array<() => void> = [];
  private readonly queue: Res[] = [];
  private waiter?: { resolve: (res: Res | undefined) => void; reject: (err: unknown) => void };
  private failure?: unknown;
  private ended = false;

  constructor(
    private readonly stream: ClientDuplexStream<Req, Res>,
    gone: (session: Session<Req, Res>) => void,
  ) {
    stream.on('metadata', (metadata: Metadata) => {
      this.takesHeld = metadata.get(HELD_CALLS_METADATA)[0] === '1';
      this.takesStops = metadata.get(SESSION_STOPS_METADATA)[0] === '1';
      this.metadataRead = true;
      for (const run of this.onMetadata.splice(0)) run();
    });
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

  /**
   * Runs `run` once the session's initial metadata has been read (at once if it has). Replies follow
   * that metadata on the wire, so it runs before any reply is read; never on a session that fails first.
   */
  afterMetadata(run: () => void): void {
    if (this.metadataRead) run();
    else this.onMetadata.push(run);
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
 * call fails with its error and the server never runs it.
 */
export interface HeldCall<Req> {
  held: Req;
  release: Req;
  until: Promise<unknown>;
}

/**
 * How a call is stopped when its caller leaves (endpoint.proto's SessionCall.stop), on a server that
 * takes stops: `req` is sent, what the call still sends is read up to its last reply, which goes to
 * `last` instead of the caller (it says what the call cost), and the session serves the next call.
 */
export interface StopCall<Req, Res> {
  req: Req;
  last: (res: Res) => void;
}

export interface SessionCallOptions<Req, Res> {
  /** Whether `res` is the call's last reply: the session is free again after it. */
  last: (res: Res) => boolean;
  /** The caller left: the call is stopped (`stop`) or, without a stop, cancelled with its session. */
  signal?: AbortSignal;
  /** The call may go out before it may run. */
  hold?: HeldCall<Req>;
  stop?: StopCall<Req, Res>;
}

/**
 * How long a stopped call's last reply is waited for before its session is cancelled instead. The
 * server answers a stop at once (it aborts the call, which records its usage and ends); a server too
 * busy or hung to do so in this time leaves the call's cost unknown, as a cancel does.
 */
export const STOP_GRACE_MS = 1_000;

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
   * A failure arrives as the GatewayError it carried (fromGrpcError). A session that the server ended
   * before answering (it was draining) never started the call, so the call is sent once more on a new
   * session. A caller that leaves (`signal` aborts, or it stops reading before the last reply) stops
   * the call when the server takes stops: once the call has run, the generator ends only after the
   * stopped call's last reply (or STOP_GRACE_MS), so its cost is known when the caller's cleanup runs.
   * Otherwise the call is cancelled with its session.
   */
  async *call(req: Req, { last, signal, hold, stop }: SessionCallOptions<Req, Res>): AsyncGenerator<Res> {
    for (let attempt = 1; ; attempt++) {
      const session = this.acquire();
      /** Something of the call is on the session; `ran`: the call itself, free to run. */
      let sent = false;
      let ran = false;
      /** Set once the caller leaves: the session is cancelled if the call's last reply does not follow in time. */
      let grace: NodeJS.Timeout | undefined;
      let stopSent = false;
      const stopCall = () => {
        if (stopSent) return;
        stopSent = true;
        session.send(stop!.req);
      };
      // A call on a session whose server may take stops (nothing says otherwise yet).
      const stoppable = () => sent && stop !== undefined && session.usable && (session.takesStops || !session.metadataRead);
      const leave = () => {
        if (!stoppable()) return session.cancel();
        grace ??= setTimeout(() => session.cancel(), STOP_GRACE_MS);
        // A new session's first call can be left before the metadata saying whether its server takes
        // stops has been read: the stop waits for it (within the grace), as a cancel would lose the cost.
        session.afterMetadata(() => (session.takesStops ? stopCall() : session.cancel()));
      };
      signal?.addEventListener('abort', leave, { once: true });
      let answered = false;
      let released = false;
      try {
        if (hold && session.takesHeld) {
          session.send(hold.held);
          sent = true;
          await hold.until;
          signal?.throwIfAborted();
          session.send(hold.release);
        } else {
          if (hold) {
            // Nothing is on this session yet: refused, it goes back to the pool as it was.
            await hold.until.catch((err: unknown) => {
              released = true;
              signal?.removeEventListener('abort', leave);
              this.release(session);
              throw err;
            });
            signal?.throwIfAborted();
          }
          session.send(req);
          sent = true;
        }
        ran = true;
        for (;;) {
          const res = await session.next();
          if (res === undefined) break;
          answered = true;
          if (last(res)) {
            // Back in the pool before the caller sees the last reply: it may never ask for more.
            released = true;
            signal?.removeEventListener('abort', leave);
            this.release(session);
            if (grace) {
              // The caller left while waiting: its reason is the failure, the reply only says the cost.
              stop!.last(res);
              signal?.throwIfAborted();
            }
            yield res;
            return;
          }
          // Once stopped, what still comes is not the caller's.
          if (!grace) yield res;
        }
      } catch (err) {
        throw signal?.aborted ? (signal.reason ?? fromGrpcError(err)) : fromGrpcError(err);
      } finally {
        signal?.removeEventListener('abort', leave);
        // Stopped early (the caller left, or a failure): the call ends, by a stop or with the session.
        if (!released && stoppable()) {
          leave();
          const ended = this.readToLast(session, last, stop!.last).finally(() => clearTimeout(grace));
          // A call that never ran (refused while held) costs nothing: its caller need not wait.
          if (ran) await ended;
        } else {
          clearTimeout(grace);
          if (!released && session.usable) session.cancel();
        }
      }
      if (answered || attempt > 1) throw serviceUnavailable();
    }
  }

  /** A stopped call's replies, read to its last (which goes to `onLast`); the session is then free. */
  private async readToLast(session: Session<Req, Res>, last: (res: Res) => boolean, onLast: (res: Res) => void) {
    try {
      for (;;) {
        const res = await session.next();
        if (res === undefined) return;
        if (last(res)) {
          this.release(session);
          return onLast(res);
        }
      }
    } catch {
      // Cancelled after the grace, or the session failed: the call's cost stays unknown.
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

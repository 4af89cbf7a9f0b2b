/**
 * kafkajs 2.2.4 (its last release) wakes every broker connection for nothing, in two ways. Both are
 * patched here, on the RequestQueue kafkajs itself loads; kafka-event-bus.ts applies it when it loads
 * kafkajs (with its first bus).
 *
 * 1. It spins: `scheduleCheckPendingRequests` arms a timer even when nothing is pending, with a
 *    negative delay (Node runs it after 1 ms), and the timer re-arms itself (tulios/kafkajs#1556,
 *    #1604, #1704; the fix in #1667 was never released). Measured here: an idle service woke ~1,700
 *    times a second and used 2–8 % of a core, on the cores its requests need. With nothing pending
 *    there is nothing to check: a request queued later schedules its own check (`push`), and a
 *    finished request checks the queue itself (`fulfillRequest`). So the check is only armed while
 *    requests wait — throttled, or behind `maxInFlightRequests` — exactly as before.
 *
 * 2. Every connection runs its request-timeout check every 100 ms for as long as it is connected
 *    (`scheduleRequestTimeoutCheck`, `Math.min(requestTimeout, 100)`), though there is only something
 *    to time out while a request is in flight; most connections (a producer's, the group
 *    coordinator's between heartbeats) idle. The check now runs only while a request is in flight:
 *    started when one is sent, stopped when the last one has come back. It checks exactly what
 *    kafkajs's does, as often.
 */

interface SocketRequestLike {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

interface RequestQueueLike {
  pending: unknown[];
  inflight: Map<number, SocketRequestLike>;
  enforceRequestTimeout: boolean;
  requestTimeout: number;
  requestTimeoutIntervalId?: NodeJS.Timeout | null;
  isConnected(): boolean;
  destroy(): void;
  [TIMEOUT_CHECK_ARMED]?: boolean;
}

interface RequestQueuePrototype {
  scheduleCheckPendingRequests(this: RequestQueueLike): void;
  scheduleRequestTimeoutCheck(this: RequestQueueLike): void;
  sendSocketRequest(this: RequestQueueLike, request: unknown): void;
  destroy(this: RequestQueueLike): void;
  [PATCHED]?: true;
}

const PATCHED = Symbol.for('unigate.kafkajs.idle-loop-fixed');
/** The connection is up and enforces request timeouts: check them whenever a request is in flight. */
const TIMEOUT_CHECK_ARMED = Symbol('timeout-check-armed');

/** kafkajs's own check, as in `scheduleRequestTimeoutCheck`, plus: stop once nothing is in flight. */
function checkTimeouts(queue: RequestQueueLike): void {
  queue.inflight.forEach((request) => {
    if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
  });
  if (!queue.isConnected()) queue.destroy();
  else if (queue.inflight.size === 0) stopTimeoutCheck(queue);
}

function stopTimeoutCheck(queue: RequestQueueLike): void {
  if (queue.requestTimeoutIntervalId) clearInterval(queue.requestTimeoutIntervalId);
  queue.requestTimeoutIntervalId = null;
}

function startTimeoutCheck(queue: RequestQueueLike): void {
  if (!queue[TIMEOUT_CHECK_ARMED] || queue.requestTimeoutIntervalId || queue.inflight.size === 0) return;
  queue.requestTimeoutIntervalId = setInterval(() => checkTimeouts(queue), Math.min(queue.requestTimeout, 100));
}

export function fixKafkajsIdleLoop(): void {
  // kafkajs ships its sources without an exports map, so its internal module resolves by path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueuePrototype };
  const proto = RequestQueue.prototype;
  if (proto[PATCHED]) return;
  const { scheduleCheckPendingRequests, scheduleRequestTimeoutCheck, sendSocketRequest, destroy } = proto;
  for (const [name, fn] of Object.entries({ scheduleCheckPendingRequests, scheduleRequestTimeoutCheck, sendSocketRequest, destroy })) {
    if (typeof fn !== 'function') {
      throw new Error(`kafkajs RequestQueue has no ${name}: re-check the idle-loop fix for this kafkajs version`);
    }
  }
  proto.scheduleCheckPendingRequests = function () {
    if (this.pending.length === 0) return;
    scheduleCheckPendingRequests.call(this);
  };
  // Called once the connection is up (connection.js `onConnect`).
  proto.scheduleRequestTimeoutCheck = function () {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this[TIMEOUT_CHECK_ARMED] = true;
    startTimeoutCheck(this);
  };
  // Every request goes out through here, whether sent at once or after waiting in `pending`.
  proto.sendSocketRequest = function (request) {
    sendSocketRequest.call(this, request);
    startTimeoutCheck(this);
  };
  // Called on disconnect, and by the check when the connection is gone.
  proto.destroy = function () {
    this[TIMEOUT_CHECK_ARMED] = false;
    destroy.call(this);
  };
  proto[PATCHED] = true;
}

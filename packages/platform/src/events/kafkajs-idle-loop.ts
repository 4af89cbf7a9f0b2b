/**
 * kafkajs 2.2.4 (its last release) spins on every broker connection: RequestQueue's
 * `scheduleCheckPendingRequests` arms a timer even when nothing is pending, with a negative delay
 * (Node runs it after 1 ms), and the timer re-arms itself (tulios/kafkajs#1556, #1604, #1704; the
 * fix in #1667 was never released). Measured here: an idle service woke ~1,700 times a second and
 * used 2–8 % of a core, on the cores its requests need.
 *
 * With nothing pending there is nothing to check: a request queued later schedules its own check
 * (`push`), and a finished request checks the queue itself (`fulfillRequest`). So the check is only
 * armed while requests wait — throttled, or behind `maxInFlightRequests` — exactly as before.
 *
 * kafka-event-bus.ts applies it when it loads kafkajs (with its first bus), to the RequestQueue kafkajs
 * itself loads.
 */

interface RequestQueueLike {
  pending: unknown[];
}

type Scheduler = (this: RequestQueueLike) => void;

const PATCHED = Symbol.for('unigate.kafkajs.idle-loop-fixed');

export function fixKafkajsIdleLoop(): void {
  // kafkajs ships its sources without an exports map, so its internal module resolves by path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: { scheduleCheckPendingRequests: Scheduler } };
  const proto = RequestQueue.prototype as { scheduleCheckPendingRequests: Scheduler; [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const schedule = proto.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function') {
    throw new Error('kafkajs RequestQueue has no scheduleCheckPendingRequests: re-check the idle-loop fix for this kafkajs version');
  }
  proto.scheduleCheckPendingRequests = function (this: RequestQueueLike) {
    if (this.pending.length === 0) return;
    schedule.call(this);
  };
  proto[PATCHED] = true;
}

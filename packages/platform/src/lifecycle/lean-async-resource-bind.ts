/**
 * Node 20's `AsyncResource.prototype.bind` gives every bound function a deprecated `asyncResource`
 * accessor (DEP0172) through `Object.defineProperties`, with two new getter/setter closures each
 * time. Fastify binds one per request with a body (its content-type parser), and something that
 * leaves in old space (most likely the hidden-class transition each definition adds) keeps the
 * request's closures reachable: young-generation collections then promote the whole request (body,
 * reply, pipeline state), and only a full collection frees it. Measured on a bare Fastify app: 1.8 MB
 * promoted at every other scavenge, against none with this bind, and 28–70 % more requests per
 * second; in standalone, 3× less promoted under sequential requests (docs/operations.md, "Memory").
 * Node is removing the property (nodejs/node#58618).
 *
 * This bind keeps what callers rely on: `fn` runs inside the resource's async scope (so
 * AsyncLocalStorage and the trace context follow it), with the caller's `this` or the given
 * `thisArg`, its arguments, its return value and its throw. It leaves out the deprecated property.
 */
import { AsyncResource } from 'node:async_hooks';

const LEAN = Symbol.for('unigate.async-resource.lean-bind');

type Bind = AsyncResource['bind'] & { [LEAN]?: true };

function leanBind<Func extends (...args: never[]) => unknown>(this: AsyncResource, fn: Func, thisArg?: ThisParameterType<Func>): Func {
  if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function');
  return boundTo(this, fn as unknown as (...args: unknown[]) => unknown, thisArg) as unknown as Func;
}

function boundTo(resource: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg: unknown) {
  return thisArg === undefined
    ? function (this: unknown, ...args: unknown[]) {
        return resource.runInAsyncScope(fn, this, ...args);
      }
    : (...args: unknown[]) => resource.runInAsyncScope(fn, thisArg, ...args);
}

/** Replaces `AsyncResource.prototype.bind` with the lean one, once per process. */
export function useLeanAsyncResourceBind(): void {
  const proto = AsyncResource.prototype as unknown as { bind: Bind };
  if (proto.bind[LEAN]) return;
  proto.bind = Object.assign(leanBind, { [LEAN]: true as const }) as unknown as Bind;
}

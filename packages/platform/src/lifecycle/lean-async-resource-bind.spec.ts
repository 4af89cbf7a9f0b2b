import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { useLeanAsyncResourceBind } from './lean-async-resource-bind';

// The bind is process-wide, and a jest worker shares node:async_hooks across test files: an earlier file
// that made an edge app in-process may have installed it already, from its own module registry (so its
// TypeError is another realm's, and `original` may be lean too).
const original = AsyncResource.prototype.bind;
const LEAN = Symbol.for('unigate.async-resource.lean-bind');
afterAll(() => {
  AsyncResource.prototype.bind = original;
});

describe('the lean AsyncResource bind', () => {
  beforeAll(() => useLeanAsyncResourceBind());

  it('runs the function in the async scope the resource was made in, with its arguments and result', () => {
    const als = new AsyncLocalStorage<string>();
    const bound = als.run('request-1', () => new AsyncResource('test').bind((a: number, b: number) => `${als.getStore()}:${a + b}`));
    expect(als.run('request-2', () => bound(2, 3))).toBe('request-1:5');
    expect(bound(1, 1)).toBe('request-1:2');
  });

  it("passes the caller's this, or the bound thisArg", () => {
    function who(this: { name: string } | undefined) {
      return this?.name;
    }
    const resource = new AsyncResource('test');
    const free = resource.bind(who);
    expect(free.call({ name: 'caller' })).toBe('caller');
    // Node documents bind(fn[, thisArg]); its types declare only fn.
    const bindWithThis = resource.bind as unknown as (fn: typeof who, thisArg: { name: string }) => typeof who;
    const fixed = bindWithThis.call(resource, who, { name: 'bound' });
    expect(fixed.call({ name: 'caller' })).toBe('bound');
  });

  it('lets a throw through and checks its argument', () => {
    const bound = new AsyncResource('test').bind(() => {
      throw new Error('boom');
    });
    expect(() => bound()).toThrow('boom');
    expect(() => new AsyncResource('test').bind(42 as unknown as () => void)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: 'The "fn" argument must be of type function' }),
    );
  });

  it('defines no property on the bound function (the per-call hidden class that promoted requests)', () => {
    const bound = new AsyncResource('test').bind(() => 1);
    expect(Object.getOwnPropertyNames(bound)).not.toContain('asyncResource');
  });

  it('is installed once', () => {
    const installed = AsyncResource.prototype.bind;
    useLeanAsyncResourceBind();
    expect(AsyncResource.prototype.bind).toBe(installed);
    expect((installed as unknown as Record<symbol, unknown>)[LEAN]).toBe(true);
  });
});

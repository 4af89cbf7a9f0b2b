import { waitFor } from './wait';

describe('waitFor', () => {
  it('resolves once the condition holds, sync or async, polling at its interval', async () => {
    let checks = 0;
    await waitFor('the third check', () => ++checks === 3, 1_000, 1);
    expect(checks).toBe(3);
    let ready = false;
    setTimeout(() => (ready = true), 30);
    await waitFor('the flag', async () => ready, 1_000, 5);
    expect(ready).toBe(true);
  });

  it('rejects after its timeout, naming what it waited for', async () => {
    const started = Date.now();
    await expect(waitFor('a condition that never holds', () => false, 50, 5)).rejects.toThrow(
      'timed out after 50 ms waiting for a condition that never holds',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('lets a failing check fail the wait', async () => {
    await expect(
      waitFor('a broken check', () => {
        throw new Error('check failed');
      }),
    ).rejects.toThrow('check failed');
  });
});

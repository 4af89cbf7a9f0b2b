/**
 * Turns for CPU work done in slices on the event loop (MP3 encoding): one slice per iteration of the
 * loop, whichever call it belongs to. Each call yielding on its own (`setImmediate`) would let every
 * call in progress run a slice in the same iteration: ten long speech requests would hold every other
 * request ten slices per iteration. Taking turns, they share one slice per iteration, and an
 * otherwise idle loop still iterates at once, so the work goes as fast as when it was alone.
 */
export class CpuTurns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves at the next turn: after the I/O of at least one loop iteration has run. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}

/** The turns every slice of this process takes. */
export const cpuTurns = new CpuTurns();

/**
 * Runs async jobs one after another, in the order they were queued. The embedded ledger puts every
 * database write and every load of an account's money on one lane, so a load never reads between a
 * write and the memory update that goes with it; a lingering Kafka subscription (subscribeBatch)
 * handles its partitions' batches on one, so their waits overlap but their handlers do not.
 */
export class SerialLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job);
    // The next job waits for this one whatever its outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once everything queued so far has run. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}

/**
 * Where results that outlive a request live (alpha image results): bytes under a key with their
 * content type and the moment they expire. Every replica reads the same store — the data directory
 * in standalone, an S3-compatible bucket in distributed mode (s3-object-store.ts).
 */
export interface StoredObject {
  data: Buffer;
  contentType: string;
  /** Epoch milliseconds after which the object is refused and swept. */
  expiresAt: number;
}

export interface ObjectStore {
  put(key: string, object: StoredObject): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** Deletes every object expired at `now`; answers how many. */
  sweep(now?: number): Promise<number>;
}

/** Keys are ours (random hex plus an extension): anything else is refused before touching storage. */
export const OBJECT_KEY = /^[a-f0-9]{32}\.(png|jpg|jpeg|webp|wav|mp3|mp4|json)$/;

/** Runs `store.sweep()` every `intervalMs` without keeping the process alive; answers a stop function. */
export function startSweeper(store: ObjectStore, intervalMs: number, onError: (err: unknown) => void): () => void {
  const timer = setInterval(() => void store.sweep().catch(onError), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

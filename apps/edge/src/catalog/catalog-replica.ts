/**
 * The catalogue on this edge replica: the catalog service's snapshot, held in memory, so resolving a
 * model (aliases, the weighted channel choice) costs no network hop. Refreshed when the catalog
 * service announces a new one (`catalog.updated`) and on an interval; not ready until the first
 * snapshot is in.
 */
import { GatewayError, type CatalogPort, type CatalogSnapshot, type ModelInfo, type ModelRoute } from '@unigate/contracts';
import { CatalogService, fromSnapshot } from '@unigate/catalog/lookup';
import type { Logger } from '@unigate/platform';

export interface SnapshotSource {
  snapshot(): Promise<CatalogSnapshot>;
}

/** How often the replica checks for a new catalogue without being told. */
export const CATALOG_REFRESH_MS = 60_000;
/** How soon a snapshot is fetched again while none is held, or an announced one has not loaded. */
export const CATALOG_RETRY_MS = 1_000;
/** While fetches keep failing (retried every second), a warning at most this often: the first and then one per period. */
export const CATALOG_FAILING_TOLD_EVERY_MS = 30_000;

export class CatalogReplica implements CatalogPort {
  private current?: { version: string; catalog: CatalogService };
  private timer?: NodeJS.Timeout;
  private fetching?: Promise<void>;
  /** Announcements so far (refresh calls), and how many of them a loaded snapshot was fetched after. */
  private announced = 0;
  private caughtUp = 0;
  private closed = false;
  /** Fetches failed in a row, and when the last warning about them was written. */
  private failures = 0;
  private toldAt = -Infinity;

  constructor(
    private readonly source: SnapshotSource,
    private readonly logger: Logger,
    private readonly refreshMs = CATALOG_REFRESH_MS,
    private readonly retryMs = CATALOG_RETRY_MS,
  ) {}

  /** Loads the first snapshot in the background (retrying every second) and keeps it fresh. */
  start(): void {
    void this.fetchAndSchedule();
  }

  /**
   * A new catalogue was announced (or its announcement may have been missed): a snapshot is fetched
   * now, and again every second until one fetched after this call has loaded. A fetch that fails (the
   * catalog service restarting as it announces) or that was already under way (it may predate the
   * new catalogue) does not count.
   */
  refresh(): Promise<void> {
    this.announced++;
    return this.fetchAndSchedule();
  }

  private fetchAndSchedule(): Promise<void> {
    clearTimeout(this.timer);
    return this.fetch().finally(() => this.schedule());
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    const behind = !this.current || this.caughtUp < this.announced;
    this.timer = setTimeout(() => void this.fetchAndSchedule(), behind ? this.retryMs : this.refreshMs);
    this.timer.unref();
  }

  /** One fetch at a time: a call meanwhile shares it. A failure keeps the catalogue held. */
  private fetch(): Promise<void> {
    const since = this.announced;
    this.fetching ??= this.source
      .snapshot()
      .then((s) => {
        this.caughtUp = Math.max(this.caughtUp, since);
        if (this.failures > 0) this.logger.info({ failed_attempts: this.failures }, 'catalog snapshot fetched again');
        this.failures = 0;
        if (s.version === this.current?.version) return;
        this.current = { version: s.version, catalog: new CatalogService(fromSnapshot(s)) };
        this.logger.info({ version: s.version, models: s.models.length }, 'catalog snapshot loaded');
      })
      .catch((err: unknown) => this.failed(err))
      .finally(() => (this.fetching = undefined));
    return this.fetching;
  }

  /** A failed fetch: told at once, then at most every CATALOG_FAILING_TOLD_EVERY_MS while they go on failing. */
  private failed(err: unknown): void {
    this.failures++;
    const now = performance.now();
    if (this.failures > 1 && now - this.toldAt < CATALOG_FAILING_TOLD_EVERY_MS) return;
    this.toldAt = now;
    this.logger.warn(
      { err: String(err), failed_attempts: this.failures, held_version: this.current?.version ?? null },
      this.current ? 'catalog snapshot not loaded; keeping the one held' : 'catalog snapshot not loaded; no catalogue held yet',
    );
  }

  async resolve(model: string): Promise<ModelRoute> {
    return this.catalog().resolveNow(model);
  }

  async list(): Promise<ModelInfo[]> {
    return this.catalog().listNow();
  }

  /** Readiness: a snapshot is held. */
  async checkReady(): Promise<void> {
    if (!this.current) throw new Error('catalog: no snapshot yet');
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private catalog(): CatalogService {
    if (!this.current) {
      throw new GatewayError({
        status: 503,
        code: 'catalog_unavailable',
        type: 'server_error',
        message: 'The model catalogue is not loaded yet; retry shortly.',
        retryable: true,
        retryAfter: 1,
      });
    }
    return this.current.catalog;
  }
}

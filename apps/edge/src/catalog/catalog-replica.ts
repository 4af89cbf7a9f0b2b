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
const RETRY_MS = 1_000;

export class CatalogReplica implements CatalogPort {
  private current?: { version: string; catalog: CatalogService };
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;

  constructor(
    private readonly source: SnapshotSource,
    private readonly logger: Logger,
    private readonly refreshMs = CATALOG_REFRESH_MS,
  ) {}

  /** Loads the first snapshot in the background (retrying every second) and keeps it fresh. */
  start(): void {
    const tick = () => {
      const next = this.current ? this.refreshMs : RETRY_MS;
      this.timer = setTimeout(() => void this.refresh().finally(tick), next);
      this.timer.unref();
    };
    void this.refresh().finally(tick);
  }

  /** Fetches the snapshot now; a failure keeps the catalogue it had. */
  refresh(): Promise<void> {
    this.refreshing ??= this.source
      .snapshot()
      .then((s) => {
        if (s.version === this.current?.version) return;
        this.current = { version: s.version, catalog: new CatalogService(fromSnapshot(s)) };
        this.logger.info({ version: s.version, models: s.models.length }, 'catalog snapshot loaded');
      })
      .catch((err: unknown) => this.logger.warn({ err: String(err) }, 'catalog snapshot not loaded; keeping the one held'))
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
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

/**
 * The catalogue as the rest of the gateway sees it (CatalogPort): model facts and the ordered upstream
 * channels for a model name. Holds immutable data — frozen once, handed out without copying — and the
 * only per-call work is the random draw that spreads traffic across equal-priority channels. The
 * catalog service builds it from its configuration; every edge replica builds its own from the
 * service's snapshot (snapshot.ts), so resolving a model costs no network hop.
 */
import { deepFreeze, errors, type CatalogPort, type Channel, type ModelInfo, type ModelRoute } from '@unigate/contracts';
import { orderChannels } from './channel-order';
import type { RandomSource } from './random';

export interface CatalogData {
  /** Canonical model id → facts, in listing order. */
  models: ReadonlyMap<string, ModelInfo>;
  /** Canonical model id → every channel (unordered; order is decided per call). */
  channels: ReadonlyMap<string, readonly Channel[]>;
  /**
   * Alternative name → canonical model id (e.g. a vendor's own model name used by Claude Code). A key
   * ending in `*` matches by prefix; exact keys win, then the longest prefix.
   */
  aliases: ReadonlyMap<string, string>;
}

/** `claude-sonnet-*` → matches `claude-sonnet-4-5-20250929`. */
export function isPrefixAlias(alias: string): boolean {
  return alias.endsWith('*');
}

export class CatalogService implements CatalogPort {
  private readonly prefixes: ReadonlyArray<{ prefix: string; target: string }>;

  constructor(
    private readonly data: CatalogData,
    private readonly random: RandomSource = Math.random,
  ) {
    // Frozen: callers in the same process share these objects, and none may change the catalogue.
    for (const m of data.models.values()) deepFreeze(m);
    for (const list of data.channels.values()) for (const c of list) Object.freeze(c);
    this.prefixes = [...data.aliases]
      .filter(([alias]) => isPrefixAlias(alias))
      .map(([alias, target]) => ({ prefix: alias.slice(0, -1), target }))
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  async resolve(model: string): Promise<ModelRoute> {
    return this.resolveNow(model);
  }

  async list(): Promise<ModelInfo[]> {
    return this.listNow();
  }

  /** Every model, in catalogue order. */
  listNow(): ModelInfo[] {
    return [...this.data.models.values()];
  }

  /** Synchronous resolve for in-process callers; throws GatewayError model_not_found. */
  resolveNow(model: string): ModelRoute {
    const id = this.canonicalId(model);
    const info = id === undefined ? undefined : this.data.models.get(id);
    if (id === undefined || !info) throw errors.modelNotFound(model);
    return { model: info, channels: orderChannels(this.data.channels.get(id) ?? [], this.random) };
  }

  /** The canonical id for a model name or alias; undefined when neither exists. */
  canonicalId(model: string): string | undefined {
    if (this.data.models.has(model)) return model;
    const exact = this.data.aliases.get(model);
    if (exact !== undefined) return exact;
    return this.prefixes.find((p) => model.startsWith(p.prefix))?.target;
  }

  /** Alias → canonical id, for docs and diagnostics. */
  aliases(): Record<string, string> {
    return Object.fromEntries(this.data.aliases);
  }

  /** The data it serves, to hand to another process (snapshot.ts). */
  snapshotData(): CatalogData {
    return this.data;
  }
}

/**
 * The catalogue as the rest of the gateway sees it (CatalogPort): model facts and the ordered upstream
 * channels for a model name. Holds immutable data built at start; the only per-call state is the random
 * draw that spreads traffic across equal-priority channels.
 */
import { errors, type CatalogPort, type Channel, type ModelInfo, type ModelRoute } from '@unigate/contracts';
import { orderChannels } from './channel-order';
import { isPrefixAlias } from './default-aliases';
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

export class CatalogService implements CatalogPort {
  constructor(
    private readonly data: CatalogData,
    private readonly random: RandomSource = Math.random,
  ) {}

  async resolve(model: string): Promise<ModelRoute> {
    return this.resolveNow(model);
  }

  async list(): Promise<ModelInfo[]> {
    return this.listNow();
  }

  /** Synchronous list for in-process callers, in catalogue order. */
  listNow(): ModelInfo[] {
    return [...this.data.models.values()].map((m) => structuredClone(m));
  }

  /** Synchronous resolve for in-process callers; throws GatewayError model_not_found. */
  resolveNow(model: string): ModelRoute {
    const id = this.canonicalId(model);
    const info = id === undefined ? undefined : this.data.models.get(id);
    if (id === undefined || !info) throw errors.modelNotFound(model);
    const channels = orderChannels(this.data.channels.get(id) ?? [], this.random).map((c) => ({ ...c }));
    // Copies: callers in the same process (standalone) must not be able to change the catalogue.
    return { model: structuredClone(info), channels };
  }

  /** The canonical id for a model name or alias; undefined when neither exists. */
  canonicalId(model: string): string | undefined {
    if (this.data.models.has(model)) return model;
    const exact = this.data.aliases.get(model);
    if (exact !== undefined) return exact;
    let best: { length: number; target: string } | undefined;
    for (const [alias, target] of this.data.aliases) {
      if (!isPrefixAlias(alias)) continue;
      const prefix = alias.slice(0, -1);
      if (model.startsWith(prefix) && (!best || prefix.length > best.length)) best = { length: prefix.length, target };
    }
    return best?.target;
  }

  /** Alias → canonical id, for docs and diagnostics. */
  aliases(): Record<string, string> {
    return Object.fromEntries(this.data.aliases);
  }
}

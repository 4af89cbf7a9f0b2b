/**
 * Built-in catalogue + UNIGATE_CONFIG + environment → the immutable data CatalogService serves.
 * Cross-references the schema cannot see (unknown provider, alias to nothing, key env var unset, protocol
 * unable to carry a model's kind) are checked here, all of them, so one start reports every mistake.
 */
import { priceSchema, type Channel, type ModelInfo, type Prices } from '@unigate/contracts';
import { DEFAULT_ALIASES } from '../domain/default-aliases';
import { BUILTIN_MODELS } from '../domain/models';
import { defaultProtocol, protocolsFor, simulatorBaseUrl } from '@unigate/providers';
import type { CatalogData } from '../lookup/catalog.service';
import type { CatalogConfig, ModelConfig, PriceOverride, ProviderConfig } from './config.schema';
import { ConfigError } from './config-error';

export type Env = Readonly<Record<string, string | undefined>>;

/** Fixed `created` for models added by configuration (stable across restarts, unlike "now"). */
const CONFIG_MODEL_CREATED = 1767225600; // 2026-01-01

interface ResolvedProvider extends ProviderConfig {
  api_key: string;
}

export function buildCatalogData(config: CatalogConfig, env: Env, simUrl: string, source = 'UNIGATE_CONFIG'): CatalogData {
  const problems: string[] = [];
  const providers = resolveProviders(config.providers, env, problems);

  const models = new Map<string, ModelInfo>(BUILTIN_MODELS.map((m) => [m.id, m]));
  for (const [id, entry] of Object.entries(config.models)) {
    const merged = mergeModel(id, models.get(id), entry, problems);
    // Only a chat model's prompt holds images the hold prices by it.
    if (merged && entry.max_image_tokens !== undefined && merged.kind !== 'chat')
      problems.push(`models.${id}.max_image_tokens: only a chat model takes it ('${id}' is a ${merged.kind} model)`);
    if (merged) models.set(id, merged);
  }

  for (const [id, override] of Object.entries(config.prices)) {
    const model = models.get(id);
    if (!model) problems.push(`prices.${id}: unknown model '${id}' (add it under models first)`);
    else models.set(id, { ...model, prices: mergePrices(model.prices, override) });
  }

  const channels = new Map<string, Channel[]>();
  for (const model of models.values()) {
    const configured = config.models[model.id]?.channels;
    channels.set(
      model.id,
      configured ? configured.map((c, i) => toChannel(model, c, i, configured, providers, problems)) : [simulatorChannel(model, simUrl)],
    );
  }

  const aliases = new Map<string, string>(Object.entries(DEFAULT_ALIASES));
  for (const [alias, target] of Object.entries(config.aliases)) {
    if (models.has(alias)) problems.push(`aliases.${alias}: '${alias}' is already a model id`);
    else if (!models.has(target)) problems.push(`aliases.${alias}: unknown model '${target}'`);
    else aliases.set(alias, target);
  }

  if (problems.length > 0) throw new ConfigError(source, problems);
  return { models, channels, aliases };
}

/** The default route: the simulator, speaking the protocol the model's vendor family will use. */
export function simulatorChannel(model: Pick<ModelInfo, 'id' | 'family' | 'kind'>, simUrl: string): Channel {
  const protocol = defaultProtocol(model);
  return {
    id: 'sim',
    protocol,
    base_url: simulatorBaseUrl(protocol, simUrl),
    api_key: '',
    upstream_model: model.id,
    priority: 0,
    weight: 1,
  };
}

function resolveProviders(list: ProviderConfig[], env: Env, problems: string[]): Map<string, ResolvedProvider> {
  const out = new Map<string, ResolvedProvider>();
  list.forEach((p, i) => {
    if (out.has(p.name)) problems.push(`providers[${i}].name: duplicate provider '${p.name}'`);
    let apiKey = '';
    if (p.api_key_env !== undefined) {
      const value = env[p.api_key_env];
      // Name the variable, never its value.
      if (!value) problems.push(`providers[${i}].api_key_env: environment variable ${p.api_key_env} is not set`);
      else apiKey = value;
    }
    out.set(p.name, { ...p, base_url: p.base_url.replace(/\/+$/, ''), api_key: apiKey });
  });
  return out;
}

function mergeModel(id: string, base: ModelInfo | undefined, entry: ModelConfig, problems: string[]): ModelInfo | undefined {
  const { channels: _channels, prices, ...facts } = entry;
  if (base) {
    // A built-in model's identity is fixed; its other facts may be adjusted.
    if (facts.kind !== undefined && facts.kind !== base.kind)
      problems.push(`models.${id}.kind: built-in model '${id}' is a ${base.kind} model`);
    if (facts.family !== undefined && facts.family !== base.family)
      problems.push(`models.${id}.family: built-in model '${id}' belongs to family ${base.family}`);
    return { ...base, ...facts, prices: prices ? mergePrices(base.prices, prices) : base.prices };
  }
  if (!facts.kind) problems.push(`models.${id}.kind: is required for a model that is not built in`);
  if (!facts.family) problems.push(`models.${id}.family: is required for a model that is not built in`);
  if (!facts.kind || !facts.family) return undefined;
  return {
    ...facts,
    id,
    family: facts.family,
    kind: facts.kind,
    owned_by: facts.owned_by ?? facts.family,
    created: facts.created ?? CONFIG_MODEL_CREATED,
    prices: mergePrices(priceSchema.parse({}), prices ?? {}),
  };
}

function mergePrices(base: Prices, override: PriceOverride): Prices {
  const defined = Object.fromEntries(Object.entries(override).filter(([, v]) => v !== undefined));
  const merged = priceSchema.parse({ ...base, ...defined });
  // A cache write is priced as a multiple of input (1.25× for five minutes, 2× for an hour at
  // Anthropic): an input price overridden alone takes each built-in write price along at its ratio,
  // never leaving writes below input.
  for (const key of ['cache_write_input_per_mtok', 'cache_write_1h_input_per_mtok'] as const) {
    const builtIn = base[key];
    if (override.input_per_mtok !== undefined && override[key] === undefined && builtIn !== undefined && base.input_per_mtok > 0)
      merged[key] = Math.round(override.input_per_mtok * (builtIn / base.input_per_mtok));
  }
  return merged;
}

function toChannel(
  model: ModelInfo,
  c: NonNullable<ModelConfig['channels']>[number],
  index: number,
  all: NonNullable<ModelConfig['channels']>,
  providers: Map<string, ResolvedProvider>,
  problems: string[],
): Channel {
  const at = `models.${model.id}.channels[${index}]`;
  const provider = providers.get(c.provider);
  if (!provider) problems.push(`${at}.provider: unknown provider '${c.provider}'`);
  else if (!protocolsFor(model.kind).includes(provider.protocol))
    problems.push(`${at}.provider: protocol ${provider.protocol} cannot serve ${model.kind} model '${model.id}'`);
  // The provider name is the channel id; a second use of the same provider gets a #n suffix.
  const uses = all.slice(0, index).filter((o) => o.provider === c.provider).length;
  return {
    id: uses === 0 ? c.provider : `${c.provider}#${uses + 1}`,
    protocol: provider?.protocol ?? 'openai-chat',
    base_url: provider?.base_url ?? '',
    api_key: provider?.api_key ?? '',
    upstream_model: c.upstream_model ?? model.id,
    priority: c.priority,
    weight: c.weight,
  };
}

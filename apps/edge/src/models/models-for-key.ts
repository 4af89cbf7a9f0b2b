import type { CatalogPort, KeyPrincipal, ModelInfo } from '@unigate/contracts';

/** The catalogue's models a key may use (a key limited to some models sees only those). */
export async function modelsForKey(catalog: CatalogPort, principal: KeyPrincipal): Promise<ModelInfo[]> {
  const models = await catalog.list();
  return principal.models.length ? models.filter((m) => principal.models.includes(m.id)) : models;
}

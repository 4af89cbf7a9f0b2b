/**
 * The catalogue as one serialisable snapshot, and back: what the catalog service sends every edge
 * replica (gRPC `Snapshot`), which builds its own CatalogService from it. The version is a hash of
 * the content, so an unchanged catalogue keeps its version across restarts.
 */
import { createHash } from 'node:crypto';
import type { CatalogSnapshot } from '@unigate/contracts';
import type { CatalogData } from './catalog.service';

export function toSnapshot(data: CatalogData): CatalogSnapshot {
  const body = {
    models: [...data.models.values()],
    channels: Object.fromEntries([...data.channels].map(([id, list]) => [id, [...list]])),
    aliases: Object.fromEntries(data.aliases),
  };
  return { version: createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 16), ...body };
}

export function fromSnapshot(s: CatalogSnapshot): CatalogData {
  return {
    models: new Map(s.models.map((m) => [m.id, m])),
    channels: new Map(Object.entries(s.channels)),
    aliases: new Map(Object.entries(s.aliases)),
  };
}

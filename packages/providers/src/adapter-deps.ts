/**
 * What some adapters need beyond HTTP, given by the service that runs them: where results that
 * outlive the request are kept (alpha image results, served back as signed links).
 */
import type { ResultStore } from '@unigate/contracts';

export type { ResultStore };

/** Which account an upstream-stored conversation (a gamma interaction) belongs to, until when. */
export interface InteractionRegistry {
  owner(id: string): Promise<{ account_id: string; expiresAt: number } | undefined>;
  remember(id: string, accountId: string, expiresAt: number): Promise<void>;
}

export interface AdapterDeps {
  results?: ResultStore;
  interactions?: InteractionRegistry;
}

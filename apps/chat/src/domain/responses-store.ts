/**
 * Where the chat service keeps Responses that were created with `store` (the default), so a later
 * request continues one with `previous_response_id`. A stored response is its whole conversation as
 * Responses input items — the input it was answered from, earlier turns included, and its output — so
 * a continuation is one read. Responses belong to the account that created them.
 */
import type { ResponsesInputItem } from '@unigate/contracts';

export interface StoredResponse {
  id: string;
  account_id: string;
  model: string;
  /** The conversation up to and including this response's output. */
  items: ResponsesInputItem[];
}

export interface ResponsesStore {
  /** The account's response with this id, or null (unknown, or another account's). */
  load(accountId: string, id: string): Promise<StoredResponse | null>;
  save(response: StoredResponse): Promise<void>;
}

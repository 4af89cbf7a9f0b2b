/**
 * Where the chat service keeps Responses that were created with `store` (the default), so a later
 * request continues one with `previous_response_id`. A stored response holds its own turn — the new
 * input it was answered from and its output — and the id of the response it continued; its
 * conversation is that chain read back from the first turn. Responses belong to the account that
 * created them.
 */
import type { ResponsesInputItem, ResponsesResponse } from '@unigate/contracts';

export interface StoredResponse {
  id: string;
  account_id: string;
  model: string;
  /** The response this one continued, or null. */
  previous_id: string | null;
  /** This turn: its new input and its output. */
  items: ResponsesInputItem[];
  /** The response as it was answered, given back by GET /v1/responses/{id}. */
  response: ResponsesResponse;
}

export interface ResponsesStore {
  /**
   * The conversation up to and including this response's output, or null: an unknown id, another
   * account's, or a chain with a turn that is no longer stored.
   */
  conversation(accountId: string, id: string): Promise<ResponsesInputItem[] | null>;
  /**
   * Keeps a turn; false, keeping nothing, when the turn it continued is no longer stored in its
   * account (it expired while this one was being answered).
   */
  save(response: StoredResponse): Promise<boolean>;
  /** The response as it was answered, or null: unknown, another account's, or stored before answers were kept. */
  answer(accountId: string, id: string): Promise<ResponsesResponse | null>;
  /** Deletes the response; false when there was none in the account. */
  remove(accountId: string, id: string): Promise<boolean>;
  /**
   * Deletes the responses created before `before` whose conversation (every response linked to the
   * same first turn) has none created since: a conversation stays whole while any of its turns is
   * young, since continuing it reads every turn back. Returns how many went.
   */
  expire(before: Date): Promise<number>;
}

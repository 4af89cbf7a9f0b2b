/**
 * GET and DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items on the chat service's
 * stored responses, in the caller's account; anything else is a 404 naming the id, as OpenAI answers one.
 */
import {
  errors,
  listedItems,
  pageOfItems,
  type InputItemList,
  type InputItemsQuery,
  type ResponsesResponse,
  type StoredResponsePort,
} from '@unigate/contracts';
import type { ResponsesStore } from './responses-store';

export class StoredResponseReads implements StoredResponsePort {
  constructor(private readonly store: Pick<ResponsesStore, 'answer' | 'remove' | 'conversation'>) {}

  async retrieve(accountId: string, id: string): Promise<ResponsesResponse> {
    const response = await this.store.answer(accountId, id);
    if (!response) throw notFound(id);
    return response;
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!(await this.store.remove(accountId, id))) throw notFound(id);
  }

  async inputItems(accountId: string, id: string, query: InputItemsQuery): Promise<InputItemList> {
    const response = await this.retrieve(accountId, id);
    const conversation = await this.store.conversation(accountId, id);
    if (!conversation) throw errors.notFound(`Input items of response '${id}' (an earlier turn of its conversation is no longer stored)`);
    // The stored conversation ends with this response's own output.
    return pageOfItems(listedItems(id, conversation.slice(0, conversation.length - response.output.length)), query);
  }
}

const notFound = (id: string) => errors.notFound(`Response with id '${id.slice(0, 200)}'`);

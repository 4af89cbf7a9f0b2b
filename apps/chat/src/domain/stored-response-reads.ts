/**
 * GET and DELETE /v1/responses/{id} on the chat service's stored responses: the response as it was
 * answered, in the caller's account; anything else is a 404 naming the id, as OpenAI answers one.
 */
import { errors, type ResponsesResponse, type StoredResponsePort } from '@unigate/contracts';
import type { ResponsesStore } from './responses-store';

export class StoredResponseReads implements StoredResponsePort {
  constructor(private readonly store: Pick<ResponsesStore, 'answer' | 'remove'>) {}

  async retrieve(accountId: string, id: string): Promise<ResponsesResponse> {
    const response = await this.store.answer(accountId, id);
    if (!response) throw notFound(id);
    return response;
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!(await this.store.remove(accountId, id))) throw notFound(id);
  }
}

const notFound = (id: string) => errors.notFound(`Response with id '${id.slice(0, 200)}'`);

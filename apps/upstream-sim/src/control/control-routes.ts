/**
 * The simulator's own control surface under /_sim: fault rules and the log of received requests.
 *
 *   POST   /_sim/faults     body: FaultRule            → 201 the stored rule with its id
 *   GET    /_sim/faults                                → 200 {data: rules}
 *   DELETE /_sim/faults                                → 204, every rule removed
 *   GET    /_sim/requests?last=n                       → 200 {data: requests, oldest first}
 *   DELETE /_sim/requests                              → 204
 */
import type { FastifyInstance } from 'fastify';
import type { SimState } from '../sim-state';
import { faultRuleJsonSchema, type FaultRule } from './faults';

export const CONTROL_PREFIX = '/_sim';

export async function controlRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { faults, requests } = opts.state;

  app.post<{ Body: FaultRule }>('/faults', { schema: { body: faultRuleJsonSchema } }, async (req, reply) => {
    return reply.code(201).send(faults.add(req.body));
  });
  app.get('/faults', async () => ({ data: faults.list() }));
  app.delete('/faults', async (_req, reply) => {
    faults.clear();
    return reply.code(204).send();
  });

  app.get<{ Querystring: { last?: number } }>(
    '/requests',
    { schema: { querystring: { type: 'object', properties: { last: { type: 'integer', minimum: 0 } } } } },
    async (req) => ({ data: requests.list(req.query.last) }),
  );
  app.delete('/requests', async (_req, reply) => {
    requests.clear();
    return reply.code(204).send();
  });
}

/**
 * Every edge replica resolves models from its own copy of the catalogue, and a catalog service that
 * starts with a new catalogue announces it (`catalog.updated`): the edges pick it up within seconds,
 * long before their refresh interval.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/admin';
import { startDistributed, type Stack } from './support/stacks';
import { useStack } from './support/use-stack';

let stack: Stack;
useStack(
  () => startDistributed({}, { edges: 2 }),
  (s) => (stack = s),
);

const chat = (origin: string, model: string) =>
  fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 }),
  }).then(async (r) => (await r.arrayBuffer(), r.status));

it('answers from each replica’s copy, and takes a new catalogue as soon as the catalog service announces it', async () => {
  for (const edge of stack.edges) expect(await chat(edge.origin, 'fresh-alias')).toBe(404);

  const config = join(mkdtempSync(join(tmpdir(), 'catalog-refresh-')), 'unigate.yaml');
  writeFileSync(config, 'aliases:\n  fresh-alias: gamma-2.5-flash\n');
  await stack.restart!('catalog', { env: { UNIGATE_CONFIG: config } });

  for (const edge of stack.edges)
    await eventually(
      () => chat(edge.origin, 'fresh-alias'),
      (status) => status === 200,
      10_000,
    );
});

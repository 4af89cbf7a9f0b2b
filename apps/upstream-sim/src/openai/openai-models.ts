/** The model list the simulator advertises. Chat accepts any model name; these are just the listed ones. */
export const SIM_MODELS = ['sim-chat', 'sim-chat-mini', 'sim-reasoner'] as const;

const CREATED = 1_715_367_049;

export function modelObject(id: string) {
  return { id, object: 'model' as const, created: CREATED, owned_by: 'unigate-sim' };
}

export function modelList() {
  return { object: 'list' as const, data: SIM_MODELS.map(modelObject) };
}

import { errors, type AnyEndpointSpec, type CatalogPort, type KeyPrincipal, type ModelRoute } from '@unigate/contracts';

/**
 * The model's route, once it is known to serve this endpoint and the key may use it: what every
 * request checks before anything is held or called (the pipeline's, and a WebSocket prewarm's).
 */
export async function routeFor(catalog: CatalogPort, spec: AnyEndpointSpec, principal: KeyPrincipal, model: string): Promise<ModelRoute> {
  const route = await catalog.resolve(model);
  requireRouteAllowed(spec, principal, model, route);
  return route;
}

/** The resolved `route` serves this endpoint (400) and the key may use it (403). */
export function requireRouteAllowed(spec: AnyEndpointSpec, principal: KeyPrincipal, model: string, route: ModelRoute): void {
  if (!spec.kinds.includes(route.model.kind)) {
    const kind = route.model.kind;
    throw errors.invalidRequest(
      // Clients show it as it is (Claude Code: `API Error: 400 The model … is an embedding model …`).
      `The model '${model}' is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} model and cannot be used with ${spec.path}.`,
      'model',
      spec.kindMismatchCode ?? 'model_not_supported',
    );
  }
  if (principal.models.length > 0 && !principal.models.includes(route.model.id) && !principal.models.includes(model)) {
    throw errors.modelForbidden(model);
  }
}

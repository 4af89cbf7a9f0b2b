/** Nest injection tokens for the ports the edge's controllers talk to (gRPC clients or in-process services). */
export const BILLING_PORT = Symbol('BILLING_PORT');
export const CATALOG_PORT = Symbol('CATALOG_PORT');
export const EDGE_OPTIONS = Symbol('EDGE_OPTIONS');

/** Nest injection tokens for the ports the edge talks to (gRPC clients or in-process services). */
export const CHAT_PORT = Symbol('CHAT_PORT');
export const BILLING_PORT = Symbol('BILLING_PORT');
export const CATALOG_PORT = Symbol('CATALOG_PORT');
export const EDGE_OPTIONS = Symbol('EDGE_OPTIONS');
export const EDGE_LOGGER = Symbol('EDGE_LOGGER');

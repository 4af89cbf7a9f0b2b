/** Nest injection token for the CatalogPort implementation. */
export const CATALOG_PORT = Symbol('CATALOG_PORT');

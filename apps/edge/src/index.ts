export { createEdgeApp, type EdgeAppOptions } from './create-edge-app';
export type { EdgePorts } from './edge.module';

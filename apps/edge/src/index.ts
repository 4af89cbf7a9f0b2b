export { createEdgeApp, drainEdgeApp, type EdgeAppOptions, type EdgePorts } from './create-edge-app';

/**
 * The two deployments the e2e suite runs against, both as real processes built from dist/: standalone
 * (one process, embedded storage) and distributed (edge + chat + billing + catalog on real Postgres,
 * the Kafka test broker and gRPC), each in front of the upstream simulator. The process layout lives in
 * @unigate/testing, which `npm run bench` starts too.
 */
export { ROOT, newApiKey, startDistributed, startStandalone, type DistributedOptions, type Edge, type Stack } from '@unigate/testing';

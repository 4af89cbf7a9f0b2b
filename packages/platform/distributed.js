// `@unigate/platform/distributed` (see src/distributed.ts): gRPC transport and the service host, loaded only by distributed services.
module.exports = require('./dist/distributed');

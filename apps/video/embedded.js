// `@unigate/video/embedded` (see src/embedded.ts): video for standalone, without BullMQ, Kafka or gRPC.
module.exports = require('./dist/embedded');

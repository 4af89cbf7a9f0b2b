// `@unigate/platform/embedded-postgres` (see src/database/embedded-postgres.ts): standalone's embedded Postgres alone, without TypeORM, so it can start before the rest loads.
module.exports = require('./dist/database/embedded-postgres');

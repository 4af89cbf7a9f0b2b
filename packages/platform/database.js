// `@unigate/platform/database` (see src/database/index.ts): TypeORM and embedded Postgres, loaded only by services with a database.
module.exports = require('./dist/database');

// `@unigate/catalog/lookup` (see src/lookup/index.ts): resolving model names from catalogue data.
module.exports = require('./dist/lookup');

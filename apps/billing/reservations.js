// `@unigate/billing/reservations` (see src/reservations/index.ts): the reservation client alone.
module.exports = require('./dist/reservations');

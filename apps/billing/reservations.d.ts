export * from './dist/reservations';

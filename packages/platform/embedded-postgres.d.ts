export * from './dist/database/embedded-postgres';

export * from './dist/database';

export * from './dist/lookup';

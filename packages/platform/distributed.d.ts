export * from './dist/distributed';

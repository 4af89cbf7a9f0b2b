export * from './dist/embedded';

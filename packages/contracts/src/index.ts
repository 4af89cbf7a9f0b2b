export * from './errors';
export * from './validation';
export * from './chat';
export * from './catalog';
export * from './pricing';
export * from './events';
export * from './admin';
export * from './ports';

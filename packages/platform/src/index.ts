export * from './logger';
export * from './events/event-bus';

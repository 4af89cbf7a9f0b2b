import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Nest's own log lines go through pino, so a process writes one JSON log stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  // Nest's 'log' level is start-up chatter (every route mapped): debug, not info.
  log(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

/** TypeORM's log lines, through our pino logger: errors, slow queries and migrations only. */
import type { Logger as TypeOrmLogger } from 'typeorm';
import type { Logger } from 'pino';

export class PinoTypeOrmLogger implements TypeOrmLogger {
  constructor(private readonly logger: Logger) {}

  logQuery(): void {
    /* every query would drown the log; traces carry them instead */
  }

  logQueryError(error: string | Error, query: string): void {
    this.logger.warn({ err: error, query: truncate(query) }, 'query failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ duration_ms: time, query: truncate(query) }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.info(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}

function truncate(query: string): string {
  return query.length > 500 ? `${query.slice(0, 500)}…` : query;
}

import { Module } from '@nestjs/common';

/**
 * The media service shell: it runs, answers /health/* and /metrics, and is deployed with the rest, so
 * the topology is complete; its capabilities arrive with their own issues.
 */
@Module({})
export class MediaAppModule {}

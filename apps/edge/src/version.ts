import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The edge's package version (the MCP server's and the OpenAPI document's); the same from src/ and dist/. */
export const EDGE_VERSION = (JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as { version: string }).version;

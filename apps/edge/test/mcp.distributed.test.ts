import { mcpSuite } from './support/mcp-suite';
import { startDistributed } from './support/stacks';

// Two edge replicas: the MCP calls go to the second, HTTP calls to the first, over one Redis and billing.
describe('distributed (2 edge replicas): MCP server', () => mcpSuite(() => startDistributed({}, { edges: 2 })));

import { mcpSuite } from './support/mcp-suite';
import { startStandalone } from './support/stacks';

describe('standalone: MCP server', () => mcpSuite(() => startStandalone()));

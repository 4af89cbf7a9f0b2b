import { mcpSuite } from './support/mcp-suite';
import { FAST_VIDEO_ENV } from '@unigate/testing';
import { startStandalone } from './support/stacks';

// Fast video polls: the video tool's task ends within a second.
describe('standalone: MCP server', () => mcpSuite(() => startStandalone(FAST_VIDEO_ENV)));

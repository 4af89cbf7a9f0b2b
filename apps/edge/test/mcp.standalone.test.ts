import { mcpSuite } from './support/mcp-suite';
import { startStandalone } from './support/stacks';
import { FAST_VIDEO_ENV } from './support/video-suite';

// Fast video polls: the video tool's task ends within a second.
describe('standalone: MCP server', () => mcpSuite(() => startStandalone(FAST_VIDEO_ENV)));

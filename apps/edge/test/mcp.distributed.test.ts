import { mcpSuite } from './support/mcp-suite';
import { FAST_VIDEO_ENV } from '@unigate/testing';
import { startDistributed } from './support/stacks';

// Two edge replicas: the MCP calls go to the second, HTTP calls to the first, over one Redis and billing.
// Fast video polls: the video tool's task ends within a second.
describe('distributed (2 edge replicas): MCP server', () => mcpSuite(() => startDistributed(FAST_VIDEO_ENV, { edges: 2 })));

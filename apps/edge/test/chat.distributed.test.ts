import { chatSuite } from './support/chat-suite';
import { startDistributed } from './support/stacks';

describe('distributed (edge + chat + billing + catalog over gRPC and Kafka): chat completions', () => chatSuite(() => startDistributed()));

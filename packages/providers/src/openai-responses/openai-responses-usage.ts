/**
 * Measuring a native Responses call: the terminal event (or the whole response) carries the usage;
 * until then — a stream cut short — the produced text, arguments and summaries are counted.
 */
import {
  countResponsesPromptTokens,
  usageFromResponses,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import { UsageTally } from '../usage/usage-tally';

export class ResponsesUsageTracker {
  readonly tally: UsageTally;

  constructor(req: ResponsesRequest) {
    this.tally = new UsageTally(() => countResponsesPromptTokens(req));
  }

  /** A whole response: its usage is final. */
  response(res: ResponsesResponse): void {
    if (res.usage) this.tally.report(usageFromResponses(res.usage), true);
    else for (const item of res.output) this.tally.produce(JSON.stringify(item));
  }

  event(ev: ResponsesStreamEvent): void {
    switch (ev.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.tally.produce(ev.delta);
        return;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        if (ev.response.usage) this.tally.report(usageFromResponses(ev.response.usage), true);
        return;
      default:
        return;
    }
  }
}

/**
 * What a capability service's runner reports about upstream calls, as metrics and log lines: every
 * attempt by model, channel and outcome, and usage that could not be handed to billing (logged with
 * everything needed to replay it).
 */
import type { AttemptOutcome, Channel, EndpointCall, ModelRoute, Usage } from '@unigate/contracts';
import type { Logger } from '../logger';
import { upstreamDuration, upstreamRequests } from './metrics';

export function upstreamObservers(logger: Logger) {
  return {
    onAttempt(route: ModelRoute, channel: Channel, outcome: AttemptOutcome, error?: unknown, requestId?: string, elapsedMs?: number): void {
      upstreamRequests.inc({ model: route.model.id, channel: channel.id, outcome });
      // Answers only: a failure's time is how long it took to fail (a timeout, a refused connection).
      if (outcome === 'ok' && elapsedMs !== undefined)
        upstreamDuration.observe({ model: route.model.id, channel: channel.id }, elapsedMs / 1000);
      // The caller leaving, or a request the adapter refused (its access line says 400), is routine
      // and says nothing about the upstream.
      if (outcome === 'cancelled')
        logger.debug({ request_id: requestId, model: route.model.id, channel: channel.id }, 'upstream attempt cancelled: the caller left');
      else if (outcome === 'invalid_request')
        logger.debug(
          { request_id: requestId, model: route.model.id, channel: channel.id, err: describe(error) },
          'upstream attempt not made: the request is invalid for this channel',
        );
      // The upstream refused the request itself (its 4xx goes to the client as it is): at info, not as
      // a failure, yet visible, since a refusal of what the gateway translated may be the gateway's.
      else if (outcome === 'rejected')
        logger.info(
          {
            request_id: requestId,
            model: route.model.id,
            channel: channel.id,
            upstream_status: (error as { upstreamStatus?: number } | undefined)?.upstreamStatus,
            err: describe(error),
          },
          'upstream rejected the request',
        );
      else if (outcome !== 'ok') {
        // The client's message leaves out the upstream's address; the system error behind it (cause) has it.
        const cause = (error as { cause?: unknown } | undefined)?.cause;
        logger.warn(
          {
            request_id: requestId,
            model: route.model.id,
            channel: channel.id,
            err: describe(error),
            ...(cause !== undefined && { cause: describe(cause) }),
          },
          'upstream attempt failed',
        );
      }
    },
    onUsageLost(call: EndpointCall, usage: Usage, error: unknown): void {
      // The answer already happened; keep the fact in the log so an operator can replay it.
      logger.error(
        {
          request_id: call.request_id,
          account_id: call.account_id,
          hold_id: call.hold_id,
          model: call.route.model.id,
          usage,
          err: describe(error),
        },
        'usage could not be recorded',
      );
    },
  };
}

function describe(err: unknown) {
  return err instanceof Error ? { name: err.name, message: err.message } : err === undefined ? undefined : String(err);
}

import { GatewayError } from '@unigate/contracts';

/** The GatewayError `run` throws (a refusal under test); anything else it throws, or nothing, fails the test. */
export function gatewayErrorOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a GatewayError');
}

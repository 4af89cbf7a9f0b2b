/**
 * A bad UNIGATE_CONFIG stops the service at start with a message naming the file and the field. It is an
 * operator problem, never client-visible, so it is a plain Error rather than a GatewayError.
 */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid UNIGATE_CONFIG (${source}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

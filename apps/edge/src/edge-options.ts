/** What an edge instance is configured with, in either deployment mode. */
export interface EdgeOptions {
  adminToken: string;
}

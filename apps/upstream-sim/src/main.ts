/** Runs the simulator on its own: UNIGATE_SIM_PORT (or PORT, default 8090) on HOST (default every address). */
import { listenHost } from '@unigate/contracts';
import { createSimulator } from './index';

async function main(): Promise<void> {
  const port = Number(process.env.UNIGATE_SIM_PORT ?? process.env.PORT ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${port}`);
  const sim = await createSimulator({ port, host: listenHost().parse(process.env.HOST) });
  process.stdout.write(`${JSON.stringify({ msg: 'upstream simulator listening', url: sim.url, openai_base_url: `${sim.url}/v1` })}\n`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`upstream simulator failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

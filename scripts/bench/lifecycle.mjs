/**
 * Everything the bench starts registers how to stop it here; stopAll() runs those in reverse order at
 * the end, on an error, and on Ctrl-C / SIGTERM (a second Ctrl-C kills at once). Processes started
 * through @unigate/testing also die on their own within a second if the bench is killed outright.
 */
const stops = [];

export const log = (message) => process.stderr.write(`[bench] ${message}\n`);

/** Registers `stop` and returns a function that runs it early (and only once). */
export function onStop(stop) {
  let done;
  const once = () => (done ??= Promise.resolve().then(stop));
  stops.push(once);
  return once;
}

export async function stopAll() {
  while (stops.length) {
    try {
      await stops.pop()();
    } catch (err) {
      log(`while stopping: ${err.message}`);
    }
  }
}

export function stopOnSignals() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`${signal}: stopping everything it started`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

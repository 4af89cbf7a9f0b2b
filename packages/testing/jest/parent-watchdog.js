/**
 * Preloaded (`node --require`) into every process startNodeProcess() spawns. Jest workers never run
 * `process.on('exit')` hooks registered from test code (the test sandbox has its own `process`), and a
 * worker killed by jest cannot clean up at all — so the child watches its owner instead and exits
 * when the owner is gone. The timer is unref'd: it never keeps the app alive by itself.
 */
'use strict';
const owner = Number(process.env.UNIGATE_TEST_OWNER_PID);
if (owner > 0) {
  setInterval(() => {
    try {
      process.kill(owner, 0);
    } catch {
      process.kill(process.pid, 'SIGKILL');
    }
  }, 500).unref();
}

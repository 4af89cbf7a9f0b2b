/** Side-effect entry: `import '@unigate/platform/telemetry-register'` as the first line of a main.ts. */
import { basename, dirname } from 'node:path';
import { startTelemetry } from './telemetry';

// apps/<name>/dist/main.js → <name>
startTelemetry(process.env.UNIGATE_SERVICE_NAME ?? basename(dirname(dirname(require.main?.filename ?? 'x/unigate/x'))));

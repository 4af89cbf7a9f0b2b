import { resolve } from 'node:path';

/** Where standalone keeps its database, journal, results and generated secrets: UNIGATE_DATA_DIR. */
export const DEFAULT_DATA_DIR = './.unigate';

export const dataDirFrom = (env: NodeJS.ProcessEnv): string => resolve(env.UNIGATE_DATA_DIR ?? DEFAULT_DATA_DIR);

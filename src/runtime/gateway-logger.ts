import { pino, type Logger } from 'pino';
import { StartupError } from './startup-error.js';

const LEVELS = [...Object.keys(pino.levels.values), 'silent'];

/** The gateway's logger: JSON lines on standard output at `level` (`LOG_LEVEL`, default `info`). */
export function gatewayLogger(level = 'info'): Logger {
  if (!LEVELS.includes(level)) throw new StartupError('LOG_LEVEL', `unknown level "${level}" (one of ${LEVELS.join(', ')})`);
  return pino({ level });
}

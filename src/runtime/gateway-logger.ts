import { fstatSync } from 'node:fs';
import { pino, type Logger } from 'pino';
import { StartupError } from './startup-error.js';

const LEVELS = [...Object.keys(pino.levels.values), 'silent'];

const STDOUT = 1;

/**
 * The gateway's logger: JSON lines on standard output at `level` (`LOG_LEVEL`, default `info`).
 *
 * Standard output redirected to a regular file is written synchronously: a write to a file never
 * waits on a reader, and one `write` per line costs less than handing each line to libuv's thread
 * pool (a request's line about 3 % of its CPU). A pipe, a socket or a terminal keeps pino's
 * asynchronous writes, so a slow reader never stalls requests.
 */
export function gatewayLogger(level = 'info'): Logger {
  if (!LEVELS.includes(level)) throw new StartupError('LOG_LEVEL', `unknown level "${level}" (one of ${LEVELS.join(', ')})`);
  return pino({ level }, pino.destination({ dest: STDOUT, sync: isRegularFile(STDOUT) }));
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

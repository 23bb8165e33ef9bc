import { fstatSync, writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import { StartupError } from './startup-error.js';

const LEVELS = [...Object.keys(pino.levels.values), 'silent'];

const STDOUT = 1;

/**
 * The gateway's logger: JSON lines on standard output at `level` (`LOG_LEVEL`, default `info`).
 *
 * Standard output redirected to a regular file gets the lines of each turn of the event loop in one
 * write at the turn's end (TurnWrites): a write to a file never waits on a reader, and under load a
 * line handed to libuv's thread pool, or a `write` of its own, cost 3 to 4 % of a request's CPU. A pipe, a socket or a terminal keeps pino's
 * own asynchronous writes, so a slow reader never stalls requests.
 */
export function gatewayLogger(level = 'info'): Logger {
  if (!LEVELS.includes(level)) throw new StartupError('LOG_LEVEL', `unknown level "${level}" (one of ${LEVELS.join(', ')})`);
  return isRegularFile(STDOUT) ? pino({ level }, new TurnWrites(STDOUT)) : pino({ level });
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/**
 * Lines gathered during one turn of the event loop and written together once it ends (`setImmediate`),
 * synchronously, in the order they came; whatever is still gathered when the process exits is
 * written then. A line is never held past the turn that logged it.
 */
export class TurnWrites implements DestinationStream {
  #lines: string[] = [];
  #scheduled = false;
  readonly #flush = (): void => this.flush();

  constructor(private readonly fd: number) {
    process.once('exit', this.#flush);
  }

  write(line: string): void {
    this.#lines.push(line);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  /** Writes what was gathered. Lines the file refuses (a full disk) are dropped: the log never stops the gateway. */
  flush(): void {
    this.#scheduled = false;
    if (this.#lines.length === 0) return;
    const text = this.#lines.length === 1 ? (this.#lines[0] as string) : this.#lines.join('');
    this.#lines = [];
    const bytes = Buffer.from(text);
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(this.fd, bytes, written);
    } catch {
      // nowhere left to say so
    }
  }
}

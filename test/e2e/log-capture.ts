import { pino, type Logger } from 'pino';

/** One JSON log line as pino wrote it. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

export const INFO = 30;
export const WARN = 40;

export interface LogCapture {
  logger: Logger;
  /** Every line written so far, parsed. */
  lines: LogLine[];
  /** Everything written so far, as written. */
  text(): string;
  /** The lines matching `match`, once at least `count` of them were written (a line is written when its response closes). */
  until(match: (line: LogLine) => boolean, count?: number): Promise<LogLine[]>;
}

/** A pino logger at `level` whose output is kept in memory, for tests that read the log. */
export function captureLog(level = 'info'): LogCapture {
  const raw: string[] = [];
  const lines: LogLine[] = [];
  const logger = pino({ level }, {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as LogLine);
    },
  });
  return {
    logger,
    lines,
    text: () => raw.join(''),
    async until(match, count = 1) {
      for (let poll = 0; poll < 500; poll += 1) {
        const found = lines.filter(match);
        if (found.length >= count) return found;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`fewer than ${count} matching log line(s) among:\n${raw.join('')}`);
    },
  };
}

/** The one `info` line a request ends with. */
export function isRequestLine(line: LogLine): boolean {
  return line.level === INFO && line.msg === 'request';
}

/**
 * Why the gateway cannot start, told in one line naming the option (flag, variable or file) at
 * fault and the cause: `--database: cannot connect to postgres://app@db:5432/app (ECONNREFUSED)`.
 * The command line prints the message alone, with no stack, and exits 2.
 */
export class StartupError extends Error {
  constructor(
    /** The flag (`--port`), environment variable or file the problem lies in. */
    readonly option: string,
    readonly reason: string,
  ) {
    super(`${option}: ${reason}`);
    this.name = 'StartupError';
  }

  /** The same problem, named after where the value came from (a variable rather than its flag). */
  renamed(option: string): StartupError {
    return new StartupError(option, this.reason);
  }
}

/** An error's code or first line, whatever threw it (AggregateError of several addresses included). */
export function errorCause(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorCause(error.errors[0]);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
  if (typeof code === 'string' && message !== '' && !message.includes(code)) return `${message} (${code})`;
  return message !== '' ? message : code ?? 'unknown error';
}

/** A database URL as it may be shown: without its password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

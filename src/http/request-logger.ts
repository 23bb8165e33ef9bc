import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type LogArguments = unknown[];
type LogMethod = (...args: LogArguments) => void;

/**
 * Fastify's `request.log` (and `reply.log`): the child of the app's logger with the request id bound,
 * made only when the request writes its first line through it. Most requests write none there (the
 * gateway's own lines go to the app's logger, see request-log.ts), and making a child logger cost
 * every request its bindings and a new logger object. A line written through it is the one the
 * child would have written.
 */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}

class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child's level: its own once made, else the one it would be made with. */
  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal(...args: LogArguments): void {
    (this.#logger().fatal as LogMethod)(...args);
  }

  error(...args: LogArguments): void {
    (this.#logger().error as LogMethod)(...args);
  }

  warn(...args: LogArguments): void {
    (this.#logger().warn as LogMethod)(...args);
  }

  info(...args: LogArguments): void {
    (this.#logger().info as LogMethod)(...args);
  }

  debug(...args: LogArguments): void {
    (this.#logger().debug as LogMethod)(...args);
  }

  trace(...args: LogArguments): void {
    (this.#logger().trace as LogMethod)(...args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }
}

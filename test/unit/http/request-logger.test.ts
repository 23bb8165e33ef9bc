import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLoggerFactory } from '../../../src/http/request-logger.js';

type Line = Record<string, unknown>;

const apps: FastifyInstance[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app logging through `requestLoggerFactory` into `lines`, counting the child loggers made once it is ready. */
async function appLoggingTo(lines: Line[]): Promise<{ app: FastifyInstance; childrenMade: () => number }> {
  const logger: Logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
  let made = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<Logger['child']>) => {
    made += 1;
    return child(...args);
  }) as Logger['child'];
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
  });
  app.get('/quiet', () => ({ ok: true }));
  app.get('/warns', (request) => {
    request.log.warn({ detail: 'x' }, 'something odd');
    request.log.info('and more');
    return { ok: true };
  });
  app.get('/level', (request) => ({ level: request.log.level }));
  apps.push(app);
  await app.ready();
  const atStart = made;
  return { app, childrenMade: () => made - atStart };
}

describe('the request logger', () => {
  it('a request writing nothing through request.log makes no child logger', async () => {
    const lines: Line[] = [];
    const { app, childrenMade } = await appLoggingTo(lines);
    for (let sent = 0; sent < 3; sent += 1) expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(childrenMade()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('lines written through request.log carry the request id and their fields, from one child per request', async () => {
    const lines: Line[] = [];
    const { app, childrenMade } = await appLoggingTo(lines);
    await app.inject({ url: '/warns' });
    await app.inject({ url: '/warns' });
    expect(childrenMade()).toBe(2);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, reqId: 'req-1', detail: 'x', msg: 'something odd' }),
      expect.objectContaining({ level: 30, reqId: 'req-1', msg: 'and more' }),
      expect.objectContaining({ level: 40, reqId: 'req-2', detail: 'x', msg: 'something odd' }),
      expect.objectContaining({ level: 30, reqId: 'req-2', msg: 'and more' }),
    ]);
  });

  it('reading its level makes no child and gives the app logger’s', async () => {
    const { app, childrenMade } = await appLoggingTo([]);
    expect((await app.inject({ url: '/level' })).json()).toEqual({ level: 'info' });
    expect(childrenMade()).toBe(0);
  });
});

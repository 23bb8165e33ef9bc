import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { gatewayLogger, TurnWrites } from '../../../src/runtime/gateway-logger.js';

const LOGGER_SOURCE = new URL('../../../src/runtime/gateway-logger.ts', import.meta.url).pathname;
const REGISTER_TYPESCRIPT = new URL('../../support/typescript-child/register.mjs', import.meta.url).pathname;

describe('LOG_LEVEL', () => {
  it('names the level of the gateway logger, info by default', () => {
    expect(gatewayLogger().level).toBe('info');
    expect(gatewayLogger('debug').level).toBe('debug');
    expect(gatewayLogger('silent').level).toBe('silent');
  });

  it('an unknown level is refused naming the variable and the levels there are', () => {
    expect(() => gatewayLogger('verbose')).toThrow('LOG_LEVEL: unknown level "verbose" (one of trace, debug, info, warn, error, fatal, silent)');
  });
});

describe('log lines written to a file', () => {
  it('are gathered over a turn of the event loop and written once, in order, at its end', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'switchyard-log-'));
    const path = join(folder, 'out.log');
    const fd = openSync(path, 'w');
    try {
      const output = new TurnWrites(fd);
      const logger = pino({ level: 'info' }, output);
      logger.info({ n: 1 }, 'first');
      logger.info({ n: 2 }, 'second');
      expect(readFileSync(path, 'utf8')).toBe('');
      await new Promise((resolve) => setImmediate(resolve));
      const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { msg: string; n: number });
      expect(lines.map((line) => [line.msg, line.n])).toEqual([['first', 1], ['second', 2]]);
      logger.info('third, flushed by hand as at exit');
      output.flush();
      expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
    } finally {
      closeSync(fd);
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('the lines logged just before the process exits reach standard output, a file or a pipe', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'switchyard-log-'));
    const script = `const { gatewayLogger } = await import(${JSON.stringify(LOGGER_SOURCE)});
      const log = gatewayLogger(); log.info({ n: 1 }, 'first'); log.info('last words'); process.exit(0);`;
    const run = (stdout: number | 'pipe') => new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', REGISTER_TYPESCRIPT, '--input-type=module', '-e', script], { stdio: ['ignore', stdout, 'inherit'] });
      let piped = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        piped += chunk.toString();
      });
      child.once('error', reject);
      child.once('close', () => resolve(piped));
    });
    const messages = (text: string) => text.trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg);
    try {
      const path = join(folder, 'out.log');
      const fd = openSync(path, 'w');
      try {
        await run(fd);
      } finally {
        closeSync(fd);
      }
      expect(messages(readFileSync(path, 'utf8'))).toEqual(['first', 'last words']);
      // a pipe keeps pino's own writes: both lines reach it, but a write the pipe refused for a moment
      // (EAGAIN, under load) may reach it after the line flushed at exit
      expect(messages(await run('pipe')).sort()).toEqual(['first', 'last words']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a line the file refuses is dropped without stopping the gateway', () => {
    const output = new TurnWrites(-1);
    output.write('{"msg":"lost"}\n');
    expect(() => output.flush()).not.toThrow();
  });
});

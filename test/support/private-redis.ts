import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from './free-port.js';

/**
 * A redis-server of a test's own on a free loopback port, for a test that kills and restarts it
 * (the shared test Redis is never stopped). Nothing is persisted: a restart starts empty, its
 * script cache included.
 */
export interface PrivateRedis {
  url: string;
  port: number;
  /** kill -9: connections drop and new ones are refused until `start`. */
  stop(): Promise<void>;
  /** Starts a new server on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
}

/**
 * Whether redis-server is installed here. Where not, tests needing a private one are skipped with
 * the reason printed, except under CI=true, where they fail.
 */
export const PRIVATE_REDIS_AVAILABLE: boolean = (() => {
  if (spawnSync('redis-server', ['--version']).status === 0) return true;
  const reason = 'no redis-server on the PATH';
  if (process.env.CI === 'true') throw new Error(`CI=true requires redis-server for the fleet restart tests: ${reason}`);
  console.warn(`private Redis tests skipped: ${reason}`);
  return false;
})();

/** A redis-server on `port`, once it says it accepts connections. */
async function redisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (!child.stdout) throw new Error('redis-server has no stdout');
  const said: string[] = [];
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      said.push(line);
      if (line.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`redis-server on port ${port} exited (${code ?? signal}):\n${said.join('\n')}`)));
  });
  // keep reading, so a full pipe never blocks the server
  child.stderr?.resume();
  return child;
}

function gone(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: ChildProcess | undefined = await redisServer(port);
  const stop = async () => {
    const stopping = server;
    server = undefined;
    if (!stopping) return;
    stopping.kill('SIGKILL');
    await gone(stopping);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async start() {
      if (server) throw new Error('the private Redis is already running');
      server = await redisServer(port);
    },
    close: stop,
  };
}

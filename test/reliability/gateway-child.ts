import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';

const REGISTER_TYPESCRIPT = new URL('../support/typescript-child/register.mjs', import.meta.url).pathname;
const GATEWAY_PROCESS = new URL('./gateway-process.ts', import.meta.url).pathname;

/** A gateway running in a process of its own (see gateway-process.ts), for a test to kill. */
export interface GatewayChild {
  child: ChildProcess;
  url: string;
  instanceId: string;
  /** Its log lines (warnings and up) as they arrive on stderr. */
  logs: string[];
}

export interface GatewayProcessOptions {
  configPath: string;
  databaseUrl: string;
  recovery: Partial<RecoverySettings>;
  /** `--key-store`: where the data keys live (default beside the database). */
  keyStoreUrl?: string;
  /** `--redis`: the Redis the fleet shares. */
  redisUrl?: string;
  /** The host name the process reports, as if it ran on a machine of its own (see gateway-process.ts). */
  hostName?: string;
  /** Added to the test process's environment (SWITCHYARD_MASTER_KEY, say). */
  env?: Record<string, string>;
}

/** The gateway in a child process, once it listens. */
export async function spawnGatewayProcess(options: GatewayProcessOptions): Promise<GatewayChild> {
  const args = [options.configPath, options.databaseUrl, ...(options.keyStoreUrl === undefined ? [] : [options.keyStoreUrl])];
  if (options.redisUrl !== undefined) args.push('--redis', options.redisUrl);
  if (options.hostName !== undefined) args.push('--host-name', options.hostName);
  const child = spawn(process.execPath, ['--import', REGISTER_TYPESCRIPT, GATEWAY_PROCESS, ...args], {
    env: { ...process.env, ...options.env, SWITCHYARD_TEST_RECOVERY: JSON.stringify(options.recovery) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  if (!child.stdout || !child.stderr) throw new Error('the gateway process has no stdout or stderr');
  createInterface({ input: child.stderr }).on('line', (line) => logs.push(line));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code, signal) => reject(new Error(`gateway process exited (${code ?? signal}) before listening:\n${logs.join('\n')}`)));
  });
  lines.close();
  const announced = JSON.parse(first) as { url: string; instanceId: string };
  return { child, url: announced.url, instanceId: announced.instanceId, logs };
}

/** Whether the process still runs (neither exited nor killed). */
export function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Resolves once the process is gone and reaped, so its pid no longer answers. */
export function exited(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

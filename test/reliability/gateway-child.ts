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
}

/** The gateway in a child process, once it listens. */
export async function spawnGatewayProcess(options: { configPath: string; databaseUrl: string; recovery: Partial<RecoverySettings> }): Promise<GatewayChild> {
  const child = spawn(process.execPath, ['--import', REGISTER_TYPESCRIPT, GATEWAY_PROCESS, options.configPath, options.databaseUrl], {
    env: { ...process.env, SWITCHYARD_TEST_RECOVERY: JSON.stringify(options.recovery) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  if (!child.stdout) throw new Error('the gateway process has no stdout');
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code, signal) => reject(new Error(`gateway process exited (${code ?? signal}) before listening:\n${stderr}`)));
  });
  lines.close();
  const announced = JSON.parse(first) as { url: string; instanceId: string };
  return { child, url: announced.url, instanceId: announced.instanceId };
}

/** Resolves once the process is gone and reaped, so its pid no longer answers. */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';

const DEFAULT_SIM_PORT = 9101;

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('Port must be a whole number from 0 to 65535.');
  return port;
}

interface SimCommandOptions {
  port: number;
  host: string;
}

/** Serves until SIGTERM or SIGINT, then closes the listener and its connections. */
async function runSimulator(options: SimCommandOptions): Promise<void> {
  // loaded only for this command: the simulator stays out of the gateway's memory
  const { startSimulator } = await import('../sim/server.js');
  const simulator = await startSimulator({ port: options.port, host: options.host });
  process.stdout.write(`simulator listening on ${simulator.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await simulator.close();
}

export function registerSimCommand(program: Command): void {
  program
    .command('sim')
    .description('Run the provider simulator (OpenAI-compatible chat wire with scripted behaviours)')
    .option('--port <n>', 'port to listen on (0 = any free port)', parsePort, DEFAULT_SIM_PORT)
    .option('--host <h>', 'address to bind', '127.0.0.1')
    .action(async (options: SimCommandOptions) => {
      await runSimulator(options);
    });
}

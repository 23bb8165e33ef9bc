import type { Session } from 'node:inspector';
import { setFlagsFromString } from 'node:v8';
import { Option, type Command } from 'commander';
import { StartupError } from '../runtime/startup-error.js';
import { renamedForSource } from './option-source.js';
import { DEFAULT_DATABASE_URL } from '../store/database-url.js';

interface ServeOptions {
  config?: string;
  port: string;
  host: string;
  database: string;
  keyStore?: string;
  redis?: string;
}

/** Flags that may come from the environment instead, by the variable's name. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Start the gateway (the embedded demo when no config file is given)')
    .addOption(new Option('--config <file>', 'catalogue/config YAML').env('SWITCHYARD_CONFIG'))
    .addOption(new Option('--port <n>', 'port to listen on').env('PORT').default('8080'))
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--database <url>', 'sqlite:PATH or postgres://…').env('SWITCHYARD_DATABASE_URL').default(DEFAULT_DATABASE_URL))
    .addOption(new Option('--key-store <url>', 'where the data keys sealing stored files live: sqlite:PATH or postgres://… (default: keys.db beside a SQLite database, else sqlite:./data/keys.db)').env('SWITCHYARD_KEY_STORE_URL'))
    .addOption(new Option('--redis <url>', 'redis://host:port shared by every instance: exact rate limits across a fleet').env('SWITCHYARD_REDIS_URL'))
    .action(async (options: ServeOptions, command: Command) => {
      try {
        await serve(options);
      } catch (error) {
        throw renamedForSource(error, command);
      }
    });
}

/**
 * How far, in percent, V8 lets the old generation grow past what its last full collection kept
 * before it collects again. Left to itself on a machine with memory to spare, V8 allows 300 %: a
 * gateway keeping about 40 MiB lets its old generation reach about 130 MiB under load, nearly all
 * of it requests' leftovers promoted there, and holds near 300 MiB. At 30 % it collects every
 * second or two under load instead of every fifteen (each about 10 ms of pause, the marking mostly
 * done beside the requests), and stays under 200 MiB (bench/README.md).
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * The V8 flag bounding the heap's growth, unless the process was started with a heap setting of
 * its own (`node --heap-growing-percent=…` or `--max-old-space-size=…`, the latter also in NODE_OPTIONS):
 * an operator's choice stands.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions = ''): string | undefined {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  const ownSetting = given.some((flag) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size|max[-_]heap[-_]size)\b/.test(flag));
  return ownSetting ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Gives back what starting up left in V8's heap: one full collection of the kind a low-memory
 * notification asks for, which also shrinks the young generation. Building the catalogue and
 * compiling the modules grow the young generation to its largest (32 MiB, nearly all of it empty
 * once started) and leave about 12 MiB of garbage in the old one; V8's own memory reducer gives
 * them back only after 20 to 30 s of quiet. About 75 ms, once, before the port opens: a started
 * gateway then holds about 115 MiB where it held 155-165 (bench/README.md). A Node built without the
 * inspector skips it.
 */
export async function releaseStartupMemory(): Promise<void> {
  let session: Session;
  try {
    // imported here: on a Node built without the inspector the import itself throws
    const inspector = await import('node:inspector');
    session = new inspector.Session();
    session.connect();
  } catch {
    return;
  }
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (error) => (error ? reject(error) : resolve())));
  } finally {
    session.disconnect();
  }
}

async function serve(options: ServeOptions): Promise<void> {
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535) throw new StartupError('--port', `not a port number: ${JSON.stringify(options.port)}`);
  // read by V8 each time it sizes the heap after a full collection, so it holds from here on
  const heapGrowth = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (heapGrowth) setFlagsFromString(heapGrowth);
  // SIGHUP reloads the config file (and, while starting or draining, does nothing): it never ends the process
  let reload = (): void => undefined;
  process.on('SIGHUP', () => reload());
  // loaded once the flags are known good: a refused start answers at once
  const { startGateway } = await import('../runtime/gateway.js');
  const gateway = await startGateway({
    ...(options.config ? { configPath: options.config } : {}),
    port,
    host: options.host,
    databaseUrl: options.database,
    ...(options.keyStore !== undefined && { keyStoreUrl: options.keyStore }),
    ...(options.redis !== undefined && { redisUrl: options.redis }),
    beforeListen: releaseStartupMemory,
  });
  if (gateway.demoKey) {
    const note = gateway.demoKey.created ? 'new demo key' : 'demo key';
    console.log(`${note} (saved in ./data/demo-key.txt): ${gateway.demoKey.key}`);
    console.log('try: curl', `${gateway.url}/api/v1/chat/completions`, '-H "Authorization: Bearer $(cat data/demo-key.txt)"',
      `-H 'Content-Type: application/json' -d '{"model":"switchyard/demo-chat","messages":[{"role":"user","content":"Hello"}]}'`);
    console.log(`dashboard: ${gateway.url}/dashboard (sign in as ${gateway.demoKey.login.email}; the password is in ./data/demo-login.txt)`);
  }
  console.log(`listening on ${gateway.url}`);
  const stop = () => {
    gateway.close().then(() => process.exit(0), () => process.exit(1));
  };
  reload = () => void gateway.reload('SIGHUP');
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

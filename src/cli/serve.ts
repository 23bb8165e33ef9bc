import { setFlagsFromString } from 'node:v8';
import { Option, type Command } from 'commander';
import { StartupError } from '../runtime/startup-error.js';
import { renamedForSource } from './option-source.js';
import { heapGrowthFlag, releaseStartupMemory } from './process-memory.js';
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

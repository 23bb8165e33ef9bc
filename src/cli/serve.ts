import type { Command } from 'commander';
import { startGateway, DEFAULT_DATABASE_URL } from '../runtime/gateway.js';

interface ServeOptions {
  config?: string;
  port: string;
  host: string;
  database: string;
  redis?: string;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Start the gateway (the embedded demo when no config file is given)')
    .option('--config <file>', 'catalogue/config YAML', process.env.SWITCHYARD_CONFIG)
    .option('--port <n>', 'port to listen on', process.env.PORT ?? '8080')
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--database <url>', 'sqlite:PATH or postgres://…', process.env.SWITCHYARD_DATABASE_URL ?? DEFAULT_DATABASE_URL)
    .option('--redis <url>', 'Redis for shared rate limits and coordination', process.env.SWITCHYARD_REDIS_URL)
    .action(async (options: ServeOptions) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port number: ${options.port}`);
      const gateway = await startGateway({
        ...(options.config ? { configPath: options.config } : {}),
        port,
        host: options.host,
        databaseUrl: options.database,
      });
      if (gateway.demoKey) {
        const note = gateway.demoKey.created ? 'new demo key' : 'demo key';
        console.log(`${note} (saved in ./data/demo-key.txt): ${gateway.demoKey.key}`);
        console.log('try: curl', `${gateway.url}/api/v1/chat/completions`, '-H "Authorization: Bearer $(cat data/demo-key.txt)"',
          `-H 'Content-Type: application/json' -d '{"model":"switchyard/demo-chat","messages":[{"role":"user","content":"Hello"}]}'`);
      }
      console.log(`listening on ${gateway.url}`);
      const stop = () => {
        gateway.close().then(() => process.exit(0), () => process.exit(1));
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}

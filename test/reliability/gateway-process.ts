/**
 * A gateway in a process of its own, for tests that kill it: `node --import
 * ./test/support/typescript-child/register.mjs test/reliability/gateway-process.ts CONFIG DATABASE_URL
 * [KEY_STORE_URL] [--redis URL] [--host-name NAME]`. Recovery settings (the batch lease and poll among
 * them) come as JSON in SWITCHYARD_TEST_RECOVERY; instances sharing a key store share the master key
 * in SWITCHYARD_MASTER_KEY. `--host-name` makes the process report another host name, as if it ran
 * on a machine of its own: the other instances then know it is gone only by its stale heartbeat,
 * never by its process id. Logs (warnings and up) go to stderr; once listening it prints one JSON
 * line `{url, instanceId, pid}` on stdout.
 */
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startGateway } from '../../src/runtime/gateway.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { redis: { type: 'string' }, 'host-name': { type: 'string' } },
});
const [configPath, databaseUrl, keyStoreUrl] = positionals;
if (!configPath || !databaseUrl) throw new Error('usage: gateway-process.ts CONFIG DATABASE_URL [KEY_STORE_URL] [--redis URL] [--host-name NAME]');
const hostName = values['host-name'];
if (hostName !== undefined) {
  // read where the instance registry names this process's host (and where pino stamps its lines)
  os.hostname = () => hostName;
  syncBuiltinESMExports();
}
const gateway = await startGateway({
  configPath,
  databaseUrl,
  ...(keyStoreUrl !== undefined && { keyStoreUrl }),
  ...(values.redis !== undefined && { redisUrl: values.redis }),
  port: 0,
  watch: false,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  recovery: JSON.parse(process.env.SWITCHYARD_TEST_RECOVERY ?? '{}') as object,
});
process.stdout.write(`${JSON.stringify({ url: gateway.url, instanceId: gateway.instanceId, pid: process.pid })}\n`);

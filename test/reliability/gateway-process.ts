/**
 * A gateway in a process of its own, for tests that kill it: `node --import
 * ./test/support/typescript-child/register.mjs test/reliability/gateway-process.ts CONFIG DATABASE_URL
 * [KEY_STORE_URL]`. Recovery settings (the batch lease and poll among them) come as JSON in
 * SWITCHYARD_TEST_RECOVERY; instances sharing a key store share the master key in
 * SWITCHYARD_MASTER_KEY. Logs (warnings and up) go to stderr; once listening it prints one JSON line
 * `{url, instanceId, pid}` on stdout.
 */
import { pino } from 'pino';
import { startGateway } from '../../src/runtime/gateway.js';

const [configPath, databaseUrl, keyStoreUrl] = process.argv.slice(2);
if (!configPath || !databaseUrl) throw new Error('usage: gateway-process.ts CONFIG DATABASE_URL [KEY_STORE_URL]');
const gateway = await startGateway({
  configPath,
  databaseUrl,
  ...(keyStoreUrl !== undefined && { keyStoreUrl }),
  port: 0,
  watch: false,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  recovery: JSON.parse(process.env.SWITCHYARD_TEST_RECOVERY ?? '{}') as object,
});
process.stdout.write(`${JSON.stringify({ url: gateway.url, instanceId: gateway.instanceId, pid: process.pid })}\n`);

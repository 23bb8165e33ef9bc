import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../../src/runtime/gateway.js';
import { runCli } from '../support/cli-child.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, type ScratchDatabase } from '../support/store-engines.js';
import { send, startHarness, type ModelSpec } from './harness.js';

/** Verdicts are stored: they survive a restart, and `switchyard probe` stores them for running servers. */
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
const MODELS: ModelSpec[] = [{
  id: 'acme/tools',
  endpoints: [
    { provider: 'sim-a', upstream_model: 'chat;prose', pricing: { prompt: '0.0000001', completion: '0.0000001' } },
    { provider: 'sim-b', upstream_model: 'chat;tools' },
  ],
}];

function sqliteFile(): ScratchDatabase {
  return { url: `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchyard-checks-')), 'db.sqlite')}`, drop: async () => undefined };
}

const ENGINES: { name: string; open(): Promise<ScratchDatabase> }[] = [
  { name: 'sqlite', open: async () => sqliteFile() },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres', open: freshPostgresDatabase }] : []),
];

describe.each(ENGINES)('on $name', ({ open }) => {
  it('a failed check survives a restart: the new instance routes tool requests away at once', async () => {
    const database = await open();
    const harness = await startHarness({ models: MODELS, databaseUrl: database.url });
    try {
      await harness.gateway.checks.runAll();
      await harness.gateway.close();
      const restarted = await startGateway({ configPath: harness.configPath, databaseUrl: database.url, port: 0, watch: false, logger: pino({ level: 'silent' }) });
      try {
        const reply = await send({ ...harness, baseUrl: `${restarted.url}/api/v1` }, {
          path: '/chat/completions', body: { model: 'acme/tools', tools: TOOLS, messages: [{ role: 'user', content: 'Hi' }] },
        });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.headers.get('x-provider-name')).toBe('Sim B');
      } finally {
        await restarted.close();
      }
    } finally {
      await harness.sim.close();
      await database.drop();
    }
  });

  it('switchyard probe prints the verdicts, stores them, and a running server reads them', async () => {
    const database = await open();
    const harness = await startHarness({ models: MODELS, databaseUrl: database.url });
    try {
      const json = await runCli(['probe', '--config', harness.configPath, '--database', database.url, '--json']);
      expect(json.code, json.stderr).toBe(0);
      const { checks } = JSON.parse(json.stdout) as { checks: Array<Record<string, unknown>> };
      expect(checks).toEqual(expect.arrayContaining([
        expect.objectContaining({ endpoint: 'sim-a/acme/tools', capability: 'tools', verdict: 'fail', probe_version: 1, serving_revision: expect.stringMatching(/^[0-9a-f]{16}$/) }),
        expect.objectContaining({ endpoint: 'sim-b/acme/tools', capability: 'tools', verdict: 'pass', detail: 'called probe_lookup with JSON arguments' }),
      ]));
      await harness.gateway.checks.refresh();
      const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/tools', tools: TOOLS, messages: [{ role: 'user', content: 'Hi' }] } });
      expect(reply.headers.get('x-provider-name')).toBe('Sim B');
      const table = await runCli(['probe', '--config', harness.configPath, '--database', database.url]);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^ENDPOINT\s+CAPABILITY\s+VERDICT\s+DETAIL$/m);
      expect(table.stdout).toMatch(/^sim-a\/acme\/tools\s+tools\s+fail\s+the endpoint answered without the tool call/m);
      expect(table.stdout).toContain('2 checks: 1 passed, 1 failed, 0 inconclusive');
    } finally {
      await harness.close();
      await database.drop();
    }
  }, 60_000);
});

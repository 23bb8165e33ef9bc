import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceRoutingDefaults } from '../../src/accounts/workspace-routing.js';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/two-hosts',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat', pricing: { prompt: '0.0000001', completion: '0.0000002' } },
          { provider: 'sim-b', upstream_model: 'chat' },
        ],
      },
    ],
  });
});

afterAll(async () => harness.close());

async function servedBy(body: Record<string, unknown> = {}): Promise<string> {
  const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/two-hosts', messages: [{ role: 'user', content: 'Hi' }], ...body } });
  expect(reply.status).toBe(200);
  return (reply.json as { provider: string }).provider;
}

describe('workspace routing defaults', () => {
  it('apply to every request of the workspace, take effect at once, and sit beneath the request preferences', async () => {
    expect(await servedBy()).toBe('Sim A');

    await setWorkspaceRoutingDefaults(harness.gateway.store, harness.workspaceId, { ignore: ['sim-a'] });
    expect(await servedBy()).toBe('Sim B');

    await setWorkspaceRoutingDefaults(harness.gateway.store, harness.workspaceId, { order: ['sim-b'] });
    expect(await servedBy()).toBe('Sim B');
    expect(await servedBy({ provider: { order: ['sim-a'] } })).toBe('Sim A');

    await setWorkspaceRoutingDefaults(harness.gateway.store, harness.workspaceId, null);
    expect(await servedBy()).toBe('Sim A');
  });

  it('a default that excludes every endpoint is reported like a request preference', async () => {
    await setWorkspaceRoutingDefaults(harness.gateway.store, harness.workspaceId, { only: ['sim-c'] });
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/two-hosts', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.code).toBe(503);
    await setWorkspaceRoutingDefaults(harness.gateway.store, harness.workspaceId, null);
  });

  it('refuses a malformed default, naming the member', async () => {
    await expect(setWorkspaceRoutingDefaults(harness.gateway.store, harness.workspaceId, { sort: 'fastest' })).rejects.toThrow(/provider\.sort/);
    await expect(setWorkspaceRoutingDefaults(harness.gateway.store, 'ws_missing', {})).rejects.toThrow(/no workspace/);
  });
});

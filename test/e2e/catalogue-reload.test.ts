import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueYaml, send, startHarness, type Harness, type ModelSpec } from './harness.js';

const ORIGINAL: ModelSpec[] = [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }];
const EXTRA: ModelSpec = { id: 'acme/new', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=2' }] };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: ORIGINAL });
});

afterAll(async () => harness.close());

async function statusOf(model: string): Promise<number> {
  const reply = await send(harness, { path: '/chat/completions', body: { model, messages: [{ role: 'user', content: 'Hi' }] } });
  return reply.status;
}

/** Polls until `model` answers `status`, for at most `ms`; returns the last status seen. */
async function awaitStatus(model: string, status: number, ms = 5_000): Promise<number> {
  const deadline = Date.now() + ms;
  let seen = await statusOf(model);
  while (seen !== status && Date.now() < deadline) {
    await sleep(100);
    seen = await statusOf(model);
  }
  return seen;
}

describe('catalogue reload', () => {
  it('a model added to the file is served shortly after the write', async () => {
    expect(await statusOf('acme/new')).toBe(404);
    await writeFile(harness.configPath, catalogueYaml(harness.sim.url, [...ORIGINAL, EXTRA]));
    expect(await awaitStatus('acme/new', 200)).toBe(200);
    expect(await statusOf('acme/chat')).toBe(200);
  });

  it('a broken YAML file leaves the previous catalogue serving', async () => {
    await writeFile(harness.configPath, 'providers: [unclosed\nmodels: {');
    await sleep(600);
    expect(await statusOf('acme/new')).toBe(200);
    expect(await statusOf('acme/chat')).toBe(200);
  });

  it('a file with an invalid field leaves the previous catalogue serving', async () => {
    const invalid: ModelSpec = { id: 'acme/bad', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', pricing: { prompt: 'cheap' } }] };
    await writeFile(harness.configPath, catalogueYaml(harness.sim.url, [ORIGINAL[0] as ModelSpec, invalid]));
    await sleep(600);
    expect(await statusOf('acme/new')).toBe(200);
    expect(await statusOf('acme/bad')).toBe(404);
  });

  it('a valid file after a broken one is loaded again, and a removed model stops being served', async () => {
    await writeFile(harness.configPath, catalogueYaml(harness.sim.url, ORIGINAL));
    expect(await awaitStatus('acme/new', 404)).toBe(404);
    expect(await statusOf('acme/chat')).toBe(200);
  });
});

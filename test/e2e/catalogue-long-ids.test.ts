import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

/** A slug past the router's default of 100 characters a segment. */
const LONG_ID = `acme/${'long-'.repeat(40)}chat`;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: LONG_ID, name: 'Acme: Long', created: '2025-06-01', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }],
  });
});

afterAll(async () => harness.close());

describe('model ids longer than 100 characters', () => {
  it('a served one answers every read that names it', async () => {
    const [author, slug] = LONG_ID.split('/');
    for (const path of [`/models/${LONG_ID}`, `/model/${LONG_ID}`, `/models/${author}%2F${slug}`, `/models/${LONG_ID}/endpoints`]) {
      const reply = await send(harness, { path, key: null });
      expect(reply.status, path).toBe(200);
    }
  });

  it('an unknown one is 404 not_found, however long', async () => {
    for (const length of [101, 1_000, 8_000]) {
      const reply = await send(harness, { path: `/models/acme/${'x'.repeat(length)}`, key: null });
      expect(reply.status, `${length}`).toBe(404);
      expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('not_found');
    }
  });
});

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_TTL_MS } from '../../src/billing/ledger.js';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { accountMoney, send, startHarness, type Harness, type ModelSpec } from './harness.js';
import { expectRestartRefusal, holdRequest } from './held-request.js';
import { tapLedger, type LedgerTap } from './ledger-tap.js';

/** Speech under faults of the service itself: a restart, a ledger that cannot record, a caller who leaves. */

const PRICE = '0.00001';
const INPUT = 'A sentence long enough to be spoken in several pieces.';
const CHARACTERS = [...INPUT].length;

function speechModel(id: string, upstream: string): ModelSpec {
  return {
    id,
    endpoints: [{
      provider: 'sim-a', upstream_model: upstream, input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: [],
      speech_envelope: { voices: ['alloy'], codecs: ['wav'] }, pricing: { character: PRICE },
    }],
  };
}

/** The simulator writes the audio in 4 pieces; `tps=0.5` leaves 2 s between them. */
const MODELS = [speechModel('acme/tts', 'tts'), speechModel('acme/slow-tts', 'tts;tps=0.5')];

const speechBody = (model: string) => ({ model, input: INPUT, voice: 'alloy', response_format: 'wav' });

interface SpeechReading {
  status: number;
  generationId: string;
  bytes: number;
  /** The body ended with its terminating chunk. */
  complete: boolean;
}

interface OpenSpeech {
  /** The first body bytes arrived. */
  firstBytes: Promise<void>;
  /** The connection closed; how the body ended. */
  ended: Promise<SpeechReading>;
  /** Drops the connection, as a caller who leaves. */
  leave(): void;
}

/** A speech call on its own connection, read as it arrives. */
function openSpeech(harness: Harness, body: unknown): OpenSpeech {
  let first: () => void = () => undefined;
  const firstBytes = new Promise<void>((resolve) => {
    first = resolve;
  });
  const outgoing = httpRequest(`${harness.baseUrl}/audio/speech`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
  });
  const ended = new Promise<SpeechReading>((resolve, reject) => {
    outgoing.on('error', (error) => {
      if (!outgoing.destroyed) reject(error);
    });
    outgoing.on('response', (incoming) => {
      let bytes = 0;
      incoming.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        first();
      });
      incoming.on('error', () => undefined);
      incoming.on('close', () => resolve({
        status: incoming.statusCode ?? 0,
        generationId: String(incoming.headers['x-generation-id'] ?? ''),
        bytes,
        complete: incoming.complete,
      }));
    });
  });
  outgoing.end(JSON.stringify(body));
  return { firstBytes, ended, leave: () => outgoing.destroy() };
}

interface GenerationData {
  status: string;
  error: { code: number; message: string } | null;
  cost_usd: string;
  cost_lines: unknown[];
}

async function generation(harness: Harness, id: string): Promise<{ status: number; data?: GenerationData }> {
  const reply = await send(harness, { path: `/generation?id=${id}` });
  return { status: reply.status, ...(reply.status === 200 && { data: (reply.json as { data: GenerationData }).data }) };
}

describe('a restart while speech is in flight', () => {
  it('past the drain grace the body is broken off, recorded 503 server and charged nothing; a request arriving during the drain is 503 provider_overloaded with Retry-After: 5', async () => {
    const draining = await startHarness({ models: MODELS, settings: { drainGraceMs: 50 } });
    const tap = tapLedger(draining);
    let closing: Promise<void> | undefined;
    try {
      const speech = openSpeech(draining, speechBody('acme/slow-tts'));
      const late = await holdRequest(draining, '/audio/speech', speechBody('acme/tts'));
      await speech.firstBytes;
      closing = draining.gateway.close();
      const cut = await speech.ended;
      const refused = await late.finish();
      await closing;

      expect(cut.status).toBe(200);
      expect(cut.bytes).toBeGreaterThan(0);
      expect(cut.complete).toBe(false);
      const [closed, ...more] = tap.of(cut.generationId);
      expect(more).toEqual([]);
      expect(closed?.failed).toBe(false);
      expect(closed?.record).toMatchObject({
        status: 'error',
        errorCode: 503,
        errorMessage: 'The service restarted before the answer finished; retry in 5 seconds',
        cost: 0n,
      });

      expectRestartRefusal(refused);
      expect(draining.sim.requests().filter((request) => request.path === '/v1/audio/speech')).toHaveLength(1);
    } finally {
      await (closing ?? draining.gateway.close()).catch(() => undefined);
      await draining.sim.close();
    }
  });
});

let harness: Harness;
let tap: LedgerTap;

beforeAll(async () => {
  harness = await startHarness({ models: MODELS });
  tap = tapLedger(harness);
});

afterAll(async () => harness.close());

describe('a ledger that cannot record speech’s charge', () => {
  it('breaks the body off; the hold stays reserved, uncharged, until the reconciler releases it; no generation is recorded', async () => {
    const before = await accountMoney(harness);
    tap.down = true;
    const reply = await openSpeech(harness, speechBody('acme/tts')).ended;
    tap.down = false;
    expect(reply.status).toBe(200);
    expect(reply.bytes).toBeGreaterThan(0);
    expect(reply.complete).toBe(false);
    expect(tap.of(reply.generationId).map((call) => [call.method, call.failed])).toEqual([['settle', true]]);

    const held = await accountMoney(harness);
    expect(held.balance).toBe(before.balance);
    expect(held.reserved).toBeGreaterThan(before.reserved);
    expect(await harness.gateway.services.ledger.releaseExpired(new Date(Date.now() + DEFAULT_HOLD_TTL_MS + 60_000))).toBe(1);
    expect(await accountMoney(harness)).toEqual(before);
    // a hold kept in the process writes no pending generation: it is recorded by its settlement only
    expect(await generation(harness, reply.generationId)).toMatchObject({ status: 404 });
  });

  it('with the ledger back, speech is whole and charged once, per character', async () => {
    const before = await accountMoney(harness);
    const reply = await openSpeech(harness, speechBody('acme/tts')).ended;
    expect(reply.complete).toBe(true);
    const exact = parseUsd(PRICE) * BigInt(CHARACTERS);
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(exact);
    expect(after.reserved).toBe(before.reserved);
    expect(tap.of(reply.generationId).map((call) => [call.method, call.failed])).toEqual([['settle', false]]);
  });
});

describe('a caller who leaves mid-speech', () => {
  it('is recorded cancelled with 408 and charged for every character synthesised for it', async () => {
    const before = await accountMoney(harness);
    const calls = tap.calls.length;
    const speech = openSpeech(harness, speechBody('acme/slow-tts'));
    await speech.firstBytes;
    speech.leave();
    const { generationId } = await speech.ended;
    await tap.untilCalls(calls + 1);
    const { data } = await generation(harness, generationId);
    const exact = parseUsd(PRICE) * BigInt(CHARACTERS);
    expect(data?.status).toBe('cancelled');
    expect(data?.error).toEqual({ code: 408, message: 'Request aborted client-side before it finished' });
    expect(data?.cost_usd).toBe(formatUsd(exact));
    expect(data?.cost_lines).toEqual([{ key: 'character', quantity: String(CHARACTERS), amount_usd: formatUsd(exact) }]);
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(exact);
    expect(after.reserved).toBe(before.reserved);
  });
});

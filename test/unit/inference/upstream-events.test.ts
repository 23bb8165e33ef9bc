import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src/core/events.js';
import { STOP, UpstreamEvents, type ReadStep } from '../../../src/inference/upstream-events.js';
import { adapterFor } from '../../../src/upstream/registry.js';
import { Transport } from '../../../src/upstream/transport.js';
import { chunk, sse } from './scripted-transport.js';

const WORDS = ['Hel', 'lo', ' there', ',', ' friend', '.'];

/** Each path a provider's stream: frames written a few ms apart, so that they arrive as reads of their own. */
const STREAMS: Record<string, (res: ServerResponse) => Promise<void>> = {
  '/words': async (res) => {
    for (const word of WORDS) await spaced(res, sse([chunk.text(word)], { done: false }));
    res.end(sse([chunk.finish(), chunk.usage(5, WORDS.length)]));
  },
  '/endless': async (res) => {
    for (let n = 0; !res.destroyed; n += 1) await spaced(res, sse([chunk.text(`w${n} `)], { done: false }));
  },
  '/error-then-more': async (res) => {
    await spaced(res, sse([chunk.text('Hel')], { done: false }));
    await spaced(res, sse([chunk.error('model crashed')], { done: false }));
    for (let n = 0; !res.destroyed; n += 1) await spaced(res, sse([chunk.text('never')], { done: false }));
  },
};

async function spaced(res: ServerResponse, text: string): Promise<void> {
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(text);
  await sleep(4);
}

let server: Server;
let url = '';
const closed = new Map<string, Promise<unknown>>();
const transport = new Transport();
const adapter = adapterFor('openai');

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    closed.set(path, once(res, 'close'));
    req.resume();
    req.on('end', () => void STREAMS[path]?.(res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await transport.close();
});

/** The stream at `path` as the executor reads it: its first read pulled (the commit), put back, then the rest handed over by `each`. */
async function committed(path: string): Promise<UpstreamEvents> {
  if (!adapter) throw new Error('no OpenAI adapter');
  const response = await transport.send(url, { path, headers: {}, body: { model: 'm', stream: true } }, AbortSignal.timeout(5_000));
  const events = new UpstreamEvents(adapter, response.body);
  const first = await events.next();
  if (first.done) throw new Error('no first read');
  events.unread(first.value);
  return events;
}

/** Every read `each` hands over, stepped as `answer` says. */
async function readsOf(events: UpstreamEvents, answer: (read: CoreEvent[], reads: CoreEvent[][]) => ReadStep = () => undefined): Promise<CoreEvent[][]> {
  const reads: CoreEvent[][] = [];
  await events.each((read) => {
    reads.push(read);
    return answer(read, reads);
  });
  return reads;
}

const texts = (reads: CoreEvent[][]) => reads.flat().flatMap((event) => (event.type === 'text.delta' ? [event.text] : []));

describe('a committed stream handed over read by read as it arrives', () => {
  it('the events are those pulled one read at a time: none lost or repeated between the commit and `each`', async () => {
    const pulled: CoreEvent[] = [];
    const reader = await committed('/words');
    for (let read = await reader.next(); !read.done; read = await reader.next()) pulled.push(...read.value);
    const reads = await readsOf(await committed('/words'));
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.flat()).toEqual(pulled);
    expect(texts(reads)).toEqual(WORDS);
    expect(reads.flat().map((event) => event.type).slice(-2)).toEqual(['finish', 'usage']);
  });

  it('a step answering a promise holds the next read until it settles', async () => {
    let release = () => {};
    let held = 0;
    const reading = readsOf(await committed('/words'), (_read, reads) => {
      if (reads.length !== 2) return undefined;
      held = reads.length;
      return new Promise((resolve) => {
        release = resolve;
      });
    });
    await sleep(80);
    expect(held).toBe(2);
    release();
    const reads = await reading;
    expect(reads.length).toBeGreaterThan(2);
    expect(texts(reads)).toEqual(WORDS);
  });

  it('a step answering STOP ends the reads and lets go of the provider', async () => {
    const reads = await readsOf(await committed('/endless'), (_read, all) => (all.length === 3 ? STOP : undefined));
    expect(reads).toHaveLength(3);
    await closed.get('/endless');
  });

  it('an error event is the last read and lets go of the provider', async () => {
    const reads = await readsOf(await committed('/error-then-more'));
    expect(reads.flat().at(-1)).toMatchObject({ type: 'error', failure: { providerMessage: 'model crashed' } });
    expect(texts(reads)).toEqual(['Hel']);
    await closed.get('/error-then-more');
  });

  it('a step that throws rejects `each` with its error and lets go of the provider', async () => {
    const fault = new Error('translation fault');
    const events = await committed('/endless');
    await expect(readsOf(events, (_read, all) => {
      if (all.length === 2) throw fault;
      return undefined;
    })).rejects.toBe(fault);
    await closed.get('/endless');
  });
});

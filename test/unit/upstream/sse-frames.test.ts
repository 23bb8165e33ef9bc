import { describe, expect, test } from 'vitest';
import { readSseFrames, sseFramesOf } from '../../../src/upstream/sse-frames.js';

const TEXT = ': keep-alive\n\ndata: {"a":1}\n\nevent: tool_call_dispatch\ndata: {"b":\ndata: 2}\n\r\ndata: [DONE]';

async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += size) yield bytes.slice(start, start + size);
}

describe('server-sent event frames', () => {
  test('a whole text: comments dropped, named events kept, data lines joined, a last frame without its blank line kept', () => {
    expect(sseFramesOf(TEXT)).toEqual([
      { data: '{"a":1}' },
      { data: '{"b":\n2}', event: 'tool_call_dispatch' },
      { data: '[DONE]' },
    ]);
  });

  test('a byte-order mark opening the body is dropped; characters cut between reads are read whole; a broken byte is U+FFFD', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: {"t":"café ☕ 😀"}\n\ndata: '), 0xff, ...new TextEncoder().encode('\n\n')]);
    async function* oneByteAtATime(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < body.length; at += 1) yield body.slice(at, at + 1);
    }
    const frames = [];
    for await (const frame of readSseFrames(oneByteAtATime())) frames.push(frame);
    expect(frames).toEqual([{ data: '{"t":"café ☕ 😀"}' }, { data: '\ufffd' }]);
  });

  test('read as it arrives, in chunks cutting lines and characters, the same frames as the whole text', async () => {
    const frames = [];
    for await (const frame of readSseFrames(chunked(`${TEXT}\n\n`, 3))) frames.push(frame);
    expect(frames).toEqual(sseFramesOf(TEXT));
  });
});

import { describe, expect, it } from 'vitest';
import { jsonBodyText, rememberedJsonText } from '../../../src/core/json-text.js';

function tools(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    type: 'function',
    function: { name: `lookup_${index}`, description: `Looks up "record" ${index}\n\u2028 of the yard`, parameters: { type: 'object', required: ['id'] } },
  }));
}

describe('a body written out with the members already written out', () => {
  it('writes what JSON.stringify writes, members JSON leaves out left out, whatever was remembered', () => {
    const bodies: Record<string, unknown>[] = [
      {},
      { model: 'm', messages: [{ role: 'user', content: 'a "quoted"\\ line\n\u0000' }], max_tokens: 64, temperature: 0.5, stream: true },
      { model: 'm', user: undefined, hook: () => 1, at: new Date(0), stop: null, nested: { deep: [1, 'two', { three: false }] }, '0': 'index-like', 'a"b': 1 },
      { model: 'm', tools: tools(3), tool_choice: 'auto', seed: undefined },
    ];
    for (const body of bodies) {
      expect(jsonBodyText(body)).toBe(JSON.stringify(body));
      for (const value of Object.values(body)) if (typeof value === 'object' && value !== null) rememberedJsonText(value);
      expect(jsonBodyText(body)).toBe(JSON.stringify(body));
    }
  });

  it('takes a remembered member as it was written, once: written out again, the body writes it out itself', () => {
    const offered = tools(2);
    const body = { model: 'm', tools: offered };
    const written = rememberedJsonText(offered);
    expect(rememberedJsonText(offered)).toBe(written);
    // changed behind its text's back, which a request's members never are: the text shows which was sent
    offered[0]!.function.name = 'renamed';
    expect(jsonBodyText(body)).toBe(`{"model":"m","tools":${written}}`);
    expect(jsonBodyText(body)).toBe(JSON.stringify(body));
    expect(jsonBodyText(body)).toContain('renamed');
  });
});

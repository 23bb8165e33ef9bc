import { describe, expect, it } from 'vitest';
import { assertBodyDepth, MAX_BODY_DEPTH } from '../../../../src/dialects/shared/body-depth.js';

/** A body offering `tools` tools (4 objects each) whose first tool's schema nests `levels` levels below the body. */
function body(tools: number, levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  // the body (1), tools (2), the tool (3), function (4), parameters (5), then `levels - 5` more
  for (let level = 5; level < levels; level += 1) schema = { not: schema };
  return {
    model: 'm',
    tools: Array.from({ length: tools }, (_, index) => ({ type: 'function', function: { name: `f${index}`, parameters: index === 0 ? schema : { type: 'object' } } })),
  };
}

function refusal(judged: unknown): string | undefined {
  try {
    assertBodyDepth(judged);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('how deeply a body may nest, judged as often as it is asked', () => {
  it('a large body at the limit passes every time; a large body one level deeper is refused every time, naming its path', () => {
    const atLimit = body(50, MAX_BODY_DEPTH);
    expect(refusal(atLimit)).toBeUndefined();
    expect(refusal(atLimit)).toBeUndefined();
    const tooDeep = body(50, MAX_BODY_DEPTH + 1);
    for (let judged = 0; judged < 2; judged += 1) {
      expect(refusal(tooDeep)).toMatch(/^tools\[0\]\.function\.parameters\.not\.not…: nested deeper than 128 levels$/);
    }
  });

  it('a small body is judged alike', () => {
    expect(refusal(body(1, MAX_BODY_DEPTH))).toBeUndefined();
    expect(refusal(body(1, MAX_BODY_DEPTH + 1))).toMatch(/nested deeper than 128 levels$/);
    expect(refusal('text')).toBeUndefined();
    expect(refusal(null)).toBeUndefined();
  });
});

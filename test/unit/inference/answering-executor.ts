import type { CoreEvent } from '../../../src/core/events.js';
import type { Plan } from '../../../src/core/plan.js';
import type { CoreRequest } from '../../../src/core/request.js';
import type { Answer, InferenceExecutor } from '../../../src/inference/executor.js';

/** An executor answering every whole chat "Hi" from the plan's first endpoint, counting the calls it was sent. */
export class AnsweringExecutor implements InferenceExecutor {
  sent = 0;

  async complete(_request: CoreRequest, plan: Plan): Promise<Answer<CoreEvent[]>> {
    this.sent += 1;
    const attempt = plan.attempts[0];
    if (!attempt) throw new Error('empty plan');
    const events: CoreEvent[] = [
      { type: 'text.start', index: 0 },
      { type: 'text.delta', index: 0, text: 'Hi' },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 1 } },
    ];
    return { attempt, events, failures: [], startedAt: Date.now() };
  }
  stream(): never {
    throw new Error('not scripted');
  }
  relay(): never {
    throw new Error('not scripted');
  }
  unary(): never {
    throw new Error('not scripted');
  }
  unaryStream(): never {
    throw new Error('not scripted');
  }
}

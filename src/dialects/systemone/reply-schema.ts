import { Type } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';

const Probability = Type.Number({ minimum: 0, maximum: 1 });

const common = {
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How peaked the distribution is: 0 uniform, 1 certain' }),
  basis: Type.Union([Type.Literal('logprobs'), Type.Literal('answer')], {
    description: 'The answer token\'s log-probabilities, or the label the model wrote, taken as certain',
  }),
};

/** One question's typed answer (answers.ts builds it). */
const Answer = tagged('type', [
  Type.Object({ type: Type.Literal('choice'), choice: Type.String(), probabilities: Type.Record(Type.String(), Probability), ...common }),
  Type.Object({
    type: Type.Literal('score'),
    score: Type.Number({ minimum: 0, description: 'The expected level, levels numbered from 0, lowest first' }),
    legend: Type.Record(Type.String(), Type.Unknown()),
    probabilities: Type.Record(Type.String(), Probability),
    ...common,
  }),
  Type.Object({ type: Type.Literal('noul'), noul: Type.Number({ minimum: 0, maximum: 1, description: 'Probability that the statement is true' }), ...common }),
]);

/** The typed-decision reply (spec 01): every question answered, by its key. */
export const DecisionReplySchema = Type.Object({
  id: Type.String({ description: 'Generation id' }),
  model: Type.String(),
  provider: Type.String(),
  answers: Type.Record(Type.String(), Answer),
  usage: Type.Object({
    input_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    output_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    cost: Type.Number({ minimum: 0 }),
  }),
});

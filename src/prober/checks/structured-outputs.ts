import { chatAnswer, jsonObject, quoted } from '../chat-reply.js';
import { answersChat, judgeFailure, type CapabilityCheck, type Judgement, type ProbeReply } from '../probe.js';

/** The schema a structured-outputs probe asks for, and what the reply must hold to match it. */
const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
  required: ['city', 'population'],
  additionalProperties: false,
};

/**
 * Structured outputs (rule 1): an endpoint declaring `structured_outputs` (and `response_format`,
 * which a `json_schema` request needs as well) must answer a `json_schema` response format with
 * JSON matching the schema.
 */
export const structuredOutputsCheck: CapabilityCheck = {
  name: 'structured outputs',
  probes(endpoint) {
    const declared = endpoint.supportedParameters;
    if (!answersChat(endpoint) || !declared.has('structured_outputs') || !declared.has('response_format')) return [];
    const body = {
      messages: [{ role: 'user', content: 'Name the largest city of France and its population, as JSON.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'city', strict: true, schema: SCHEMA } },
      max_tokens: 256,
    };
    return [{ capability: 'structured_outputs', body, judge: judgeStructured }];
  },
};

export function judgeStructured(reply: ProbeReply): Judgement {
  if (reply.kind === 'failed') return judgeFailure(reply);
  if (reply.kind !== 'answer') return { inconclusive: 'expected a whole reply' };
  const content = chatAnswer(reply.body).content ?? '';
  const json = jsonObject(content);
  if (!json) return { passed: false, detail: `the reply is not a JSON object: ${quoted(content)}` };
  const problem = schemaProblem(json);
  return problem ? { passed: false, detail: `the JSON does not match the schema: ${problem}` } : { passed: true, detail: 'answered JSON matching the schema' };
}

function schemaProblem(json: Record<string, unknown>): string | undefined {
  if (typeof json.city !== 'string') return 'city is not a string';
  if (!Number.isInteger(json.population)) return 'population is not an integer';
  const extra = Object.keys(json).filter((key) => !(key in SCHEMA.properties));
  return extra.length > 0 ? `members not in the schema: ${extra.join(', ')}` : undefined;
}

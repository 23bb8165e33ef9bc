import type { ServerResponse } from 'node:http';
import type { ParsedBody } from './chat-route.js';
import { embeddingVector, entryTokens, inputEntries } from './embedding-vectors.js';
import { sendError, sendJson } from './json-reply.js';
import { isPlainObject } from '../core/plain-object.js';
import { resolveOperationBehaviour, servesOperation, type OperationBehaviour } from './operation-behaviour.js';

/** Floats as little-endian float32 bytes, base64: what OpenAI sends for `encoding_format: base64`. */
function base64Vector(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

function usageBody(entries: readonly unknown[], behaviour: OperationBehaviour): Record<string, unknown> | undefined {
  if (behaviour.usage === 'none') return undefined;
  const split = new Map<string, number>();
  for (const entry of entries) entryTokens(entry, split);
  const zero = behaviour.usage === 'zero';
  const total = zero ? 0 : [...split.values()].reduce((sum, count) => sum + count, 0);
  const usage: Record<string, unknown> = { prompt_tokens: total, total_tokens: total };
  if (behaviour.split) {
    usage.prompt_tokens_details = Object.fromEntries([...split].map(([modality, count]) => [`${modality}_tokens`, zero ? 0 : count]));
  }
  return usage;
}

/**
 * `POST /v1/embeddings`: one deterministic vector per input entry (floats, or base64 float32 when
 * asked), of the requested `dimensions` or the model's width, with o200k token usage.
 */
export function handleEmbeddings(res: ServerResponse, parsed: ParsedBody): void {
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendError(res, 400, 'We could not parse the JSON body of your request.');
  const body = parsed.value;
  const model = typeof body.model === 'string' ? body.model : '';
  if (model === '') return sendError(res, 400, 'you must provide a model parameter', { param: 'model' });
  if (!servesOperation(model, 'embed')) return sendError(res, 404, `The model ${model} does not support embeddings`, { code: 'model_not_supported' });
  const resolved = resolveOperationBehaviour(model);
  if (!resolved.ok) return sendError(res, 400, resolved.problem, { param: 'model', code: 'invalid_simulator_behaviour' });
  const behaviour = resolved.behaviour;
  if (behaviour.errorStatus !== undefined) return sendError(res, behaviour.errorStatus, `simulated failure ${behaviour.errorStatus}`);
  const entries = inputEntries(body.input);
  if (!entries) return sendError(res, 400, "'input' must be a non-empty string or array", { param: 'input' });
  const width = typeof body.dimensions === 'number' ? body.dimensions : behaviour.dims;
  const base64 = body.encoding_format === 'base64';
  const data = entries.map((entry, index) => {
    const vector = embeddingVector(entry, width);
    return { object: 'embedding', index, embedding: base64 ? base64Vector(vector) : vector };
  });
  const usage = usageBody(entries, behaviour);
  sendJson(res, 200, { object: 'list', data, model, ...(usage && { usage }) });
}

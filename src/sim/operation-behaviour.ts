/**
 * Behaviours of the simulator's embeddings and rerank routes, chosen by the upstream model name
 * (`embed;dims=16;split`, `rerank;no_usage`). Keys:
 *
 * - `dims=N`        embeddings: native width when the request names no `dimensions` (default 8)
 * - `no_usage`      no usage at all (embeddings `usage`, rerank `usage` / `meta.billed_units`)
 * - `zero_usage`    every count reported as an explicit 0
 * - `split`         embeddings: `usage.prompt_tokens_details` split by modality
 * - `error=STATUS`  that status and an OpenAI-style error body
 *
 * A model whose base name (before the first `;`) does not start with the operation's prefix
 * (`embed`, `rerank`) does not serve it: 404. An unknown key or a bad value is answered with 400.
 */
export interface OperationBehaviour {
  dims: number;
  usage: 'reported' | 'none' | 'zero';
  split: boolean;
  errorStatus: number | undefined;
}

export const DEFAULT_EMBEDDING_WIDTH = 8;
const COUNT = /^\d+$/;

export type OperationBehaviourResult = { ok: true; behaviour: OperationBehaviour } | { ok: false; problem: string };

export function resolveOperationBehaviour(model: string): OperationBehaviourResult {
  const behaviour: OperationBehaviour = { dims: DEFAULT_EMBEDDING_WIDTH, usage: 'reported', split: false, errorStatus: undefined };
  for (const item of model.split(';').slice(1)) {
    const problem = applyItem(behaviour, item);
    if (problem) return { ok: false, problem: `simulator behaviour ${problem}` };
  }
  return { ok: true, behaviour };
}

function applyItem(behaviour: OperationBehaviour, item: string): string | undefined {
  const [key = '', value] = item.split('=', 2);
  switch (key) {
    case '':
      return undefined;
    case 'dims':
      if (value === undefined || !COUNT.test(value) || Number(value) < 1 || Number(value) > 4096) return `dims needs a width from 1 to 4096, got ${value ?? 'nothing'}`;
      behaviour.dims = Number(value);
      return undefined;
    case 'no_usage':
      behaviour.usage = 'none';
      return undefined;
    case 'zero_usage':
      behaviour.usage = 'zero';
      return undefined;
    case 'split':
      behaviour.split = true;
      return undefined;
    case 'error':
      if (value === undefined || !COUNT.test(value) || Number(value) < 400 || Number(value) > 599) return `error needs a status from 400 to 599, got ${value ?? 'nothing'}`;
      behaviour.errorStatus = Number(value);
      return undefined;
    default:
      return `unknown key "${key}"`;
  }
}

/** True when the model's base name serves the operation (`embed…` for embeddings, `rerank…` for rerank). */
export function servesOperation(model: string, prefix: string): boolean {
  return (model.split(';', 1)[0] ?? '').startsWith(prefix);
}

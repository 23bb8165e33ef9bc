import type { SimBehaviour } from './behaviour.js';
import { carriesModality } from './input-parts.js';

/** A request body breaking `refuse_param` or `require_param`: what to answer with 400. */
export interface ParamProblem {
  message: string;
  param: string;
  code: 'unsupported_parameter' | 'missing_required_parameter' | 'unsupported_input';
}

/** refuse_param, require_param and refuse_input, judged on the body as the wire sent it. */
export function paramProblem(body: Record<string, unknown>, behaviour: SimBehaviour): ParamProblem | undefined {
  const { refuseParam, requireParam, refuseInput } = behaviour;
  if (refuseInput !== undefined && carriesModality(body, refuseInput)) {
    return { message: `This model does not accept ${refuseInput} input.`, param: 'messages', code: 'unsupported_input' };
  }
  if (refuseParam !== undefined && Object.hasOwn(body, refuseParam)) {
    const message = `Unsupported parameter: '${refuseParam}' is not supported with this model.`;
    return { message, param: refuseParam, code: 'unsupported_parameter' };
  }
  if (requireParam !== undefined && !Object.hasOwn(body, requireParam)) {
    return { message: `Missing required parameter: '${requireParam}'.`, param: requireParam, code: 'missing_required_parameter' };
  }
  return undefined;
}

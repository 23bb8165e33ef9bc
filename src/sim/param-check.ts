import type { SimBehaviour } from './behaviour.js';

/** A request body breaking `refuse_param` or `require_param`: what to answer with 400. */
export interface ParamProblem {
  message: string;
  param: string;
  code: 'unsupported_parameter' | 'missing_required_parameter';
}

/** refuse_param and require_param, judged on the body as the wire sent it. */
export function paramProblem(body: Record<string, unknown>, behaviour: SimBehaviour): ParamProblem | undefined {
  const { refuseParam, requireParam } = behaviour;
  if (refuseParam !== undefined && Object.hasOwn(body, refuseParam)) {
    const message = `Unsupported parameter: '${refuseParam}' is not supported with this model.`;
    return { message, param: refuseParam, code: 'unsupported_parameter' };
  }
  if (requireParam !== undefined && !Object.hasOwn(body, requireParam)) {
    return { message: `Missing required parameter: '${requireParam}'.`, param: requireParam, code: 'missing_required_parameter' };
  }
  return undefined;
}

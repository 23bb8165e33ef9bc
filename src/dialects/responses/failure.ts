import type { GatewayError } from '../../core/errors.js';
import { STATEFUL_MEMBERS } from './decode.js';

/** `response.error.code` of a committed stream that failed, by the failure's class. */
export function failureCode(error: GatewayError): 'invalid_prompt' | 'rate_limit_exceeded' | 'context_length_exceeded' | 'server_error' {
  switch (error.code) {
    case 'context_length_exceeded':
      return 'context_length_exceeded';
    case 'rate_limit_exceeded':
    case 'provider_rate_limited':
      return 'rate_limit_exceeded';
    case 'invalid_request':
    case 'provider_rejected':
    case 'payload_too_large':
      return 'invalid_prompt';
    default:
      return 'server_error';
  }
}

/** The failure's message, ending with the engine's diagnostic when one came back. */
export function failureMessage(error: GatewayError): string {
  const diagnostic = error.metadata.provider_message;
  if (typeof diagnostic !== 'string' || diagnostic === '' || error.message.endsWith(diagnostic)) return error.message;
  return `${error.message}: ${diagnostic}`;
}

/**
 * The body of an HTTP refusal of a streamed request before its stream committed:
 * `{error:{message, type: invalid_request_error, code: null, metadata}}` with the shared envelope's
 * metadata. `previous_response_id` and `background` keep the shared envelope (rule 4).
 */
export function responsesStreamRefusal(error: GatewayError): unknown {
  if ((STATEFUL_MEMBERS as readonly unknown[]).includes(error.metadata.field)) return undefined;
  return {
    error: {
      message: error.message,
      type: 'invalid_request_error',
      code: null,
      metadata: { error_type: error.errorType, ...error.metadata },
    },
  };
}

import { GatewayError } from '../core/errors.js';

const RESTART_HEADERS = { 'retry-after': '5', 'x-should-retry': 'true' };

/** The answer to a new request while the instance restarts: 503 `provider_overloaded` (repeating is correct). */
export function restartError(): GatewayError {
  return new GatewayError('restarting', 'The service is restarting; retry in 5 seconds', { headers: { ...RESTART_HEADERS } });
}

/** An admitted request the restart cut short (spec 02: 503 `server`, repeat): in-band once a stream opened. */
export function cutByRestartError(): GatewayError {
  return new GatewayError('server_unavailable', 'The service restarted before the answer finished; retry in 5 seconds', {
    headers: { ...RESTART_HEADERS },
  });
}

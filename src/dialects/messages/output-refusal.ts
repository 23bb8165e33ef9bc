import { GatewayError } from '../../core/errors.js';
import type { CoreEvent } from '../../core/events.js';

export const AUDIO_REFUSAL_MESSAGE = 'The answer carried generated audio, which the messages dialect has no block for; '
  + 'use /chat/completions or /responses for speech output';

/** A reply carrying generated audio is refused with 422 (in a stream: an `error` event). */
export function refuseMessagesOutput(event: CoreEvent): GatewayError | undefined {
  return event.type === 'audio.delta' ? new GatewayError('unsupported_output', AUDIO_REFUSAL_MESSAGE) : undefined;
}

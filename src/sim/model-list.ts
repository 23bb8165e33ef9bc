/**
 * Base model names the simulator lists; any name (with behaviour keys) is accepted when chatting.
 * `image` generates pictures as gpt-image does (`dall-e…` names answer as DALL·E); `transcribe`
 * transcribes as gpt-4o-transcribe (billed in tokens, json and text), `whisper` as whisper-1
 * (billed by duration, every format).
 */
const MODEL_IDS = ['chat', 'chat-large', 'chat-small', 'tools', 'image', 'transcribe', 'whisper'] as const;

const LISTED_SINCE = 1735689600; // 2025-01-01T00:00:00Z, fixed so the listing is deterministic

export function modelListBody(): Record<string, unknown> {
  return {
    object: 'list',
    data: MODEL_IDS.map((id) => ({ id, object: 'model', created: LISTED_SINCE, owned_by: 'simulator' })),
  };
}

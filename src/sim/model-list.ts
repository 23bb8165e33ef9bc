/** Base model names the simulator lists; any name (with behaviour keys) is accepted when chatting. */
const MODEL_IDS = ['chat', 'chat-large', 'chat-small', 'tools'] as const;

const LISTED_SINCE = 1735689600; // 2025-01-01T00:00:00Z, fixed so the listing is deterministic

export function modelListBody(): Record<string, unknown> {
  return {
    object: 'list',
    data: MODEL_IDS.map((id) => ({ id, object: 'model', created: LISTED_SINCE, owned_by: 'simulator' })),
  };
}

/** The request bodies of the benchmark: a short chat turn, non-streamed and streamed. */

/** @param {string} model */
export function replyBody(model) {
  return JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16 });
}

/** @param {string} model */
export function streamBody(model) {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Hello' }],
    max_tokens: 16,
    stream: true,
    stream_options: { include_usage: true },
  });
}

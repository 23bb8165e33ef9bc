/**
 * The request bodies of the benchmark: a short chat turn, non-streamed and streamed; and the large
 * requests (a 100 KB prompt, 200 tools) that show the cost of estimating and translating big bodies.
 */

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

/** A conversation whose user turn is 100 KB of varied prose. @param {string} model */
export function largePromptBody(model) {
  const words = ['signal', 'junction', 'freight', 'timetable', 'points', 'siding', 'shunter', 'ballast', 'gradient', 'platform', 'viaduct', 'semaphore'];
  let text = '';
  for (let index = 0; text.length < 100_000; index += 1) {
    text += `${words[index % words.length]} ${words[(index * 7) % words.length]} number ${index}, then ${words[(index * 5) % words.length]}. `;
  }
  return { model, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: text.slice(0, 100_000) }], max_tokens: 64, temperature: 0 };
}

/** A short question offering 200 function tools, each with a small JSON schema. @param {string} model */
export function manyToolsBody(model) {
  const tools = Array.from({ length: 200 }, (_, index) => ({
    type: 'function',
    function: {
      name: `lookup_${index}`,
      description: `Looks up record ${index} of the yard's inventory by its id and returns its state.`,
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', description: 'The record id' }, detail: { type: 'string', enum: ['short', 'full'] } },
        required: ['id'],
      },
    },
  }));
  return { model, messages: [{ role: 'user', content: 'Which siding is free?' }], tools, max_tokens: 64, temperature: 0 };
}

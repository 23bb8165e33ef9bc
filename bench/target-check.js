/**
 * One request of each kind to each target before any load, so a misconfigured target fails the
 * benchmark loudly instead of producing fast error replies that look like throughput.
 */
import { request } from 'undici';
import { replyBody, streamBody } from './chat-bodies.js';

async function send(target, body) {
  const response = await request(target.url, {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/**
 * Throws, naming the target and showing its answer, unless a reply has a choice and a stream
 * ends with `data: [DONE]`.
 * @param {{ name: string, url: string, headers: Record<string, string>, model: string }} target
 */
export async function checkTarget(target) {
  const reply = await send(target, replyBody(target.model));
  const parsed = reply.status === 200 ? JSON.parse(reply.text) : undefined;
  if (!Array.isArray(parsed?.choices) || parsed.choices.length === 0) {
    throw new Error(`${target.name}: non-streamed chat answered ${reply.status}: ${reply.text.slice(0, 500)}`);
  }
  const stream = await send(target, streamBody(target.model));
  if (stream.status !== 200 || !stream.text.includes('data: [DONE]')) {
    throw new Error(`${target.name}: streamed chat answered ${stream.status}: ${stream.text.slice(0, 500)}`);
  }
}

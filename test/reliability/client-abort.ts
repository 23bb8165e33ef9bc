import { request as httpRequest } from 'node:http';
import type { SeededRandom } from './seeded-random.js';

/**
 * A caller who leaves: a request on its own connection, destroyed after a delay (counted from when
 * the whole request was written) or after a number of body chunks arrived.
 */

export type AbortPoint = { after: 'delay'; ms: number } | { after: 'chunks'; count: number };

export interface AbortRequest {
  route: 'chat' | 'messages' | 'responses' | 'speech' | 'systemone';
  path: string;
  body: Record<string, unknown>;
  stream: boolean;
  point: AbortPoint;
  /** Sent as X-Title, so the generation is found by its app title. */
  title: string;
}

export interface AbortResult {
  /** The whole reply arrived before the caller left. */
  completed: boolean;
  status: number | undefined;
  chunks: number;
}

/** Sends the request and leaves at its abort point; resolves once the connection is closed. */
export function leaveAt(url: string, key: string, subject: AbortRequest): Promise<AbortResult> {
  const payload = JSON.stringify(subject.body);
  return new Promise((resolve) => {
    let chunks = 0;
    let status: number | undefined;
    let completed = false;
    let timer: NodeJS.Timeout | undefined;
    const outgoing = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-title': subject.title, 'content-length': Buffer.byteLength(payload) },
    });
    const leave = (): void => {
      if (!completed) outgoing.destroy();
    };
    outgoing.on('response', (incoming) => {
      status = incoming.statusCode;
      incoming.on('data', () => {
        chunks += 1;
        if (subject.point.after === 'chunks' && chunks >= subject.point.count) leave();
      });
      incoming.on('end', () => {
        completed = true;
      });
      incoming.on('error', () => undefined);
      if (subject.point.after === 'chunks' && subject.point.count === 0) leave();
    });
    outgoing.on('error', () => undefined);
    outgoing.on('close', () => {
      clearTimeout(timer);
      resolve({ completed, status, chunks });
    });
    outgoing.end(payload, () => {
      if (subject.point.after === 'delay') timer = setTimeout(leave, subject.point.ms);
    });
  });
}

function directive(random: SeededRandom, speech: boolean): string {
  if (speech) return `[[sim tps=${random.int(4, 20)} ttft=${random.int(0, 200)}]]`;
  return `[[sim tokens=${random.int(4, 30)} tps=${random.int(40, 200)} ttft=${random.int(0, 250)}]]`;
}

/** A random request of a random route with a random abort point; streamed answers may be left after some chunks. */
export function abortRequest(index: number, prefix: string, random: SeededRandom): AbortRequest {
  const route = random.pick(['chat', 'messages', 'responses', 'speech', 'systemone'] as const);
  const stream = route === 'speech' || (route !== 'systemone' && random.chance(0.6));
  const text = `Tell me about lighthouses, request ${index}. ${directive(random, route === 'speech')}`;
  const point: AbortPoint = stream && random.chance(0.5) ? { after: 'chunks', count: random.int(0, route === 'speech' ? 5 : 35) } : { after: 'delay', ms: random.int(0, 450) };
  const title = `${prefix}-${index}`;
  switch (route) {
    case 'chat':
      return { route, path: '/chat/completions', stream, point, title, body: { model: 'acme/chat', stream, messages: [{ role: 'user', content: text }] } };
    case 'messages':
      return { route, path: '/messages', stream, point, title, body: { model: 'acme/chat', stream, max_tokens: 64, messages: [{ role: 'user', content: text }] } };
    case 'responses':
      return { route, path: '/responses', stream, point, title, body: { model: 'acme/chat', stream, input: text } };
    case 'speech':
      return { route, path: '/audio/speech', stream, point, title, body: { model: 'acme/tts', input: text, voice: 'alloy', response_format: 'wav' } };
    case 'systemone':
      return {
        route, path: '/systemone', stream, point, title,
        body: { model: 'acme/judge', state: text, questions: { urgency: { type: 'choice', instructions: 'How urgent?', criteria: { low: 'can wait', high: 'act now' } } } },
      };
  }
}

export function abortTitle(subject: AbortRequest): string {
  const point = subject.point.after === 'delay' ? `after ${subject.point.ms} ms` : `after ${subject.point.count} chunks`;
  return `${subject.title} ${subject.route} ${subject.stream ? 'streamed' : 'whole'} left ${point}`;
}

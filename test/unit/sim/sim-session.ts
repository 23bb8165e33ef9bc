import { afterAll, beforeAll } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/server.js';
import { startSimulator } from '../../../src/sim/server.js';

/** A simulator started before a test file's tests and closed after them. */
export interface SimSession {
  /** POSTs a chat completion request body as JSON. */
  chat(body: unknown): Promise<Response>;
  /** POSTs and parses the JSON reply. */
  json<T = Record<string, unknown>>(body: unknown): Promise<T>;
  /** POSTs a streamed request and reads the whole SSE text. */
  stream(body: Record<string, unknown>): Promise<string>;
}

export function useSimulator(): SimSession {
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const chat = (body: unknown): Promise<Response> => {
    if (!sim) throw new Error('simulator not started');
    return fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  };
  return {
    chat,
    json: async <T>(body: unknown) => (await (await chat(body)).json()) as T,
    stream: async (body) => (await chat({ ...body, stream: true })).text(),
  };
}

export function userMessage(content: string): Array<{ role: string; content: string }> {
  return [{ role: 'user', content }];
}

export interface SimMessage {
  role: string;
  content: string | null;
  refusal: string | null;
  reasoning?: string;
  reasoning_details?: Array<Record<string, unknown>>;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  images?: Array<{ type: string; image_url: { url: string } }>;
  audio?: { id: string; data: string; expires_at: number; transcript: string };
}

export interface SimUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

/** A non-streamed reply with the members OpenAI's types leave out. */
export interface SimReply {
  created: number;
  choices: Array<{ message: SimMessage; finish_reason: string }>;
  usage?: SimUsage;
}

export function messageOf(reply: SimReply): SimMessage {
  const message = reply.choices[0]?.message;
  if (!message) throw new Error('reply has no choice');
  return message;
}

import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';

/**
 * The official `openai` client on one instance of a fleet, retrying nothing on its own: every
 * answer the test sees is the one the instance gave.
 */
export function fleetClient(url: string, key: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/api/v1`, apiKey: key, maxRetries: 0, timeout: 30_000 });
}

/** What a caller saw of one streamed chat completion read through the client. */
export interface StreamRead {
  /** The X-Generation-Id of the answer; null when none opened. */
  generationId: string | null;
  text: string;
  chunks: number;
  finishReason: string | null;
  /** `done` when the stream ended as a stream ends, else the error that cut it. */
  ending: 'done' | string;
}

/** Streams one chat completion to its end (or until it breaks), calling `onChunk` after each content chunk. */
export async function streamChat(client: OpenAI, body: Omit<ChatCompletionCreateParamsStreaming, 'stream'>, onChunk?: () => void): Promise<StreamRead> {
  const seen: StreamRead = { generationId: null, text: '', chunks: 0, finishReason: null, ending: 'open' };
  try {
    const { data: stream, response } = await client.chat.completions.create({ ...body, stream: true }).withResponse();
    seen.generationId = response.headers.get('x-generation-id');
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.finish_reason) seen.finishReason = choice.finish_reason;
      const content = choice?.delta?.content;
      if (typeof content !== 'string' || content.length === 0) continue;
      seen.text += content;
      seen.chunks += 1;
      onChunk?.();
    }
    seen.ending = 'done';
  } catch (error) {
    seen.ending = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return seen;
}

/** How one whole (unstreamed) chat request ended, as the client reports it. */
export interface ChatOutcome {
  /** The HTTP status; null when no answer came (the connection failed). */
  status: number | null;
  generationId: string | null;
  /** The error envelope's `metadata.error_type`, for an error answer. */
  errorType: unknown;
  retryAfter: string | null;
  /** The client's message, for anything but a 200. */
  message?: string;
}

export async function askChat(client: OpenAI, body: ChatCompletionCreateParamsNonStreaming): Promise<ChatOutcome> {
  try {
    const { response } = await client.chat.completions.create(body).withResponse();
    return { status: response.status, generationId: response.headers.get('x-generation-id'), errorType: undefined, retryAfter: null };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const envelope = error.error as { metadata?: { error_type?: unknown } } | undefined;
    return {
      status: error.status ?? null,
      generationId: error.headers?.get('x-generation-id') ?? null,
      errorType: envelope?.metadata?.error_type,
      retryAfter: error.headers?.get('retry-after') ?? null,
      message: error.message,
    };
  }
}

import type { CoreEvent, UpstreamFailure } from '../core/events.js';
import type { CoreRequest } from '../core/request.js';
import type { PlannedAttempt } from '../core/plan.js';

export interface UpstreamRequest {
  /** Path appended to the provider's base URL, e.g. `/chat/completions`. */
  path: string;
  headers: Record<string, string>;
  /** Sent as JSON; with an `upload`, its members are the form's fields instead. */
  body: Record<string, unknown>;
  /** A file sent with `body`'s members as one multipart/form-data request (a recording to transcribe). */
  upload?: UpstreamUpload;
}

export interface UpstreamUpload {
  /** The form field the file goes under. */
  field: string;
  filename: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** Turns one provider's streamed frames into core events; stateful, one per attempt. */
export interface StreamDecoder {
  /** One SSE frame's data (and event name when there is one). */
  frame(data: string, event?: string): CoreEvent[];
  /** The upstream stream ended; returns the closing events, or an `incomplete` error when unfinished. */
  end(): CoreEvent[];
}

/** A wire format: pure translation between the core and one provider API; no I/O. */
export interface UpstreamAdapter {
  buildRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest;
  createStreamDecoder(): StreamDecoder;
  decodeReply(json: unknown): CoreEvent[];
  decodeError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure;
  /** Whether a request member (by its chat name) reaches this wire; absent: every member does. */
  carries?(member: string): boolean;
  /**
   * Whether a member sent only where declared (a soft setting, by its chat name) reaches this wire
   * even where the endpoint does not declare it, being part of another member's shape there.
   */
  carriesUndeclared?(member: string): boolean;
}

/** One wire format's speech call: pure translation; the reply body is the audio itself. */
export interface SpeechAdapter {
  buildRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest;
  decodeError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure;
}

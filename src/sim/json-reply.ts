import type { ServerResponse } from 'node:http';
import type { ErrorDetail } from './error-body.js';
import { errorBody } from './error-body.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export interface ErrorReply extends ErrorDetail {
  headers?: Record<string, string>;
}

export function sendError(res: ServerResponse, status: number, message: string, reply: ErrorReply = {}): void {
  sendJson(res, status, errorBody(status, message, reply), reply.headers);
}

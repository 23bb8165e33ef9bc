import type { DialectBinding } from '../shared/dialect-binding.js';
import { encodeCompletionsReply } from './encode-reply.js';
import { CompletionsStreamWriter } from './encode-stream.js';

/** The completions dialect's encoders, as the pipeline drives them. */
export const completionsDialect: DialectBinding = {
  encodeReply: encodeCompletionsReply,
  createStreamWriter: (meta, request) => new CompletionsStreamWriter(meta, request),
};

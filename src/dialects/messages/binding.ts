import type { DialectBinding } from '../shared/dialect-binding.js';
import { encodeMessagesReply } from './encode-reply.js';
import { MessagesStreamWriter } from './encode-stream.js';
import { messagesErrorBody } from './error-body.js';
import { refuseMessagesOutput } from './output-refusal.js';

/** The messages dialect's encoders, as the pipeline drives them. */
export const messagesDialect: DialectBinding = {
  encodeReply: encodeMessagesReply,
  createStreamWriter: (meta) => new MessagesStreamWriter(meta),
  streamRefusalBody: messagesErrorBody,
  errorBody: messagesErrorBody,
  refuseOutput: refuseMessagesOutput,
};

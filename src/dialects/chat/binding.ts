import type { DialectBinding } from '../shared/dialect-binding.js';
import { encodeChatReply } from './encode-reply.js';
import { ChatStreamWriter } from './encode-stream.js';

/** The chat dialect's encoders, as the pipeline drives them. */
export const chatDialect: DialectBinding = {
  encodeReply: encodeChatReply,
  createStreamWriter: (meta) => new ChatStreamWriter(meta),
};

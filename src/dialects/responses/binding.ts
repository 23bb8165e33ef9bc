import type { DialectBinding } from '../shared/dialect-binding.js';
import { encodeResponsesReply } from './encode-reply.js';
import { ResponsesStreamWriter } from './encode-stream.js';
import { responsesStreamRefusal } from './failure.js';

/** The responses dialect's encoders, as the pipeline drives them. */
export const responsesDialect: DialectBinding = {
  encodeReply: encodeResponsesReply,
  createStreamWriter: (meta, request) => new ResponsesStreamWriter(meta, request),
  streamRefusalBody: responsesStreamRefusal,
};

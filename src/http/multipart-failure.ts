import { GatewayError, invalidRequest } from '../core/errors.js';

interface CodedError {
  code?: string;
  message: string;
  validation?: unknown;
}

const MALFORMED = /unexpected end of (form|multipart)|malformed|boundary|multipart: |part terminated early/i;

/**
 * What the form reader's own failures mean to the caller, for every route reading a multipart form:
 * one `file` only (`oneFile` says it in the route's words), a bounded number of fields, field names
 * that are not prototype members, and a form that parses. Anything else is passed on unchanged.
 */
export function multipartFailure(thrown: unknown, oneFile: string): unknown {
  if (thrown instanceof GatewayError || !(thrown instanceof Error)) return thrown;
  const error = thrown as Error & CodedError;
  if (error.validation) return error;
  switch (error.code) {
    case 'FST_FILES_LIMIT':
      return invalidRequest('file', oneFile);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalidRequest('body', 'too many form fields');
    case 'FST_PROTO_VIOLATION':
      return invalidRequest('body', 'form field names must not be prototype members');
    default:
      return MALFORMED.test(error.message) ? invalidRequest('body', 'malformed multipart form') : error;
  }
}

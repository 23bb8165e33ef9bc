import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
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

/**
 * Has `scope` read multipart forms into the body as key-values, with one file of at most `fileBytes`
 * (one byte more lets `onFile` see it is too large and answer the 413 itself) read by `onFile`, and
 * the form reader's own failures answered as the caller's 400 (`oneFile` says the one-file rule).
 */
export async function readOneFileForms(
  scope: FastifyInstance,
  options: { fileBytes: number; oneFile: string; onFile: (this: FastifyRequest, part: MultipartFile) => Promise<void> },
): Promise<void> {
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: options.fileBytes + 1, files: 1, fields: 32 },
    throwFileSizeLimit: false,
    onFile: options.onFile,
  });
  // form-reader failures become the caller's 400; the app's handler renders every error
  scope.setErrorHandler((error, request) => {
    throw request.isMultipart() ? multipartFailure(error, options.oneFile) : error;
  });
}

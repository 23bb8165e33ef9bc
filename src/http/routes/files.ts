import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { isFileId } from '../../files/file-id.js';
import { FILE_PURPOSES, UPLOAD_PURPOSES, isFilePurpose } from '../../files/file-purpose.js';
import type { FileListQuery } from '../../files/file-rows.js';
import { authenticatedKey } from '../auth.js';
import { sendWhileDraining } from '../body-limit.js';
import { errorBody } from '../error-envelope.js';
import { jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import { queryInteger, queryString, refuseUnknownParameters, type RawQuery } from '../query-parameters.js';
import type { Services } from '../services.js';
import { downloadHeaders } from './file-download.js';
import { FileDeletedSchema, FileIdParamsSchema, FileListSchema, FileObjectSchema, fileList, fileObject } from './file-object.js';
import { readUploadForm, uploadFormFailure } from './file-upload-form.js';

/** The largest page of `GET /files` (OpenAI's), and the page when none is asked for. */
const MAX_PAGE = 10_000;

const UploadFormSchema = Type.Object({
  file: Type.String({ contentMediaType: 'application/octet-stream', description: 'The bytes to store, with their filename and Content-Type' }),
  purpose: Type.Optional(Type.Union(UPLOAD_PURPOSES.map((purpose) => Type.Literal(purpose)), { description: 'Default `user_data`' })),
  'expires_after[anchor]': Type.Optional(Type.Literal('created_at')),
  'expires_after[seconds]': Type.Optional(Type.Integer({ minimum: 3600, maximum: 172_800, description: 'A life shorter than the 48 hours every file has' })),
}, { required: ['file'] });

const ListQuerySchema = Type.Object({
  after: Type.Optional(Type.String({ description: 'The `last_id` of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: `Files per page (default ${MAX_PAGE})` })),
  order: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')], { description: 'By creation: `desc` (newest first, the default) or `asc`' })),
  purpose: Type.Optional(Type.Union(FILE_PURPOSES.map((purpose) => Type.Literal(purpose)))),
});

type IdParams = Static<typeof FileIdParamsSchema>;

/**
 * The account's file store, in OpenAI's Files API shapes (key scope): upload (multipart, streamed
 * into sealed storage), list, read, read the bytes, delete. Files live 48 hours. Another account's,
 * an unknown, malformed, deleted or expired id are one 404; while the key store sealing the bytes
 * cannot be reached, uploads and content reads answer 503 and nothing is stored.
 */
export async function registerFilesRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { files } = services;
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 8, parts: 16, fieldSize: 1024, fileSize: files.maxUploadBytes + 1 },
      throwFileSizeLimit: false,
    });
    // Form-reader failures become the caller's 400; the app's handler renders every error.
    scope.setErrorHandler((error) => {
      throw uploadFormFailure(error);
    });
    scope.post('/files', {
      schema: {
        operationId: 'createFile',
        summary: 'Store a file (multipart: `file`, `purpose`)',
        tags: [TAGS.files],
        answers: {
          success: { 200: jsonReply(FileObjectSchema, 'The stored file') },
          errors: [400, 408, 413, 503],
          requestBody: { 'multipart/form-data': { schema: UploadFormSchema } },
        },
      },
    }, async (request, reply) => {
      const key = authenticatedKey(request);
      // a body that failed on the way in (a malformed or cut request) is answered by the error handler
      let bodyFailed = false;
      request.raw.once('error', () => {
        bodyFailed = true;
      });
      try {
        const { blob, ...details } = await readUploadForm(request, files);
        return fileObject(await files.publish(blob, { accountId: key.accountId, ...details }));
      } catch (error) {
        const refusal = uploadFormFailure(error);
        // refused while the upload is still arriving: answered at once, the rest of it read and dropped
        if (refusal instanceof GatewayError && !bodyFailed && stillArriving(request.raw)) return sendWhileDraining(request, reply, refusal, errorBody(request, refusal));
        throw refusal;
      }
    });
  });

  app.get('/files', {
    schema: {
      operationId: 'listFiles',
      summary: 'List the account\'s files',
      tags: [TAGS.files],
      answers: { success: { 200: jsonReply(FileListSchema, 'One page of files, newest first unless `order` says otherwise') }, errors: [400], query: ListQuerySchema },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    return fileList(await files.list(key.accountId, listQuery(request.query as RawQuery)));
  });

  app.get<{ Params: IdParams }>('/files/:id', {
    schema: {
      operationId: 'getFile',
      summary: 'Read a file\'s record',
      tags: [TAGS.files],
      answers: { success: { 200: jsonReply(FileObjectSchema, 'The file') }, errors: [404], params: FileIdParamsSchema },
    },
  }, async (request) => fileObject(await files.get(authenticatedKey(request).accountId, request.params.id)));

  app.get<{ Params: IdParams }>('/files/:id/content', {
    schema: {
      operationId: 'getFileContent',
      summary: 'Read a file\'s bytes',
      tags: [TAGS.files],
      answers: {
        success: { 200: { description: 'The stored bytes, with the Content-Type they were stored with (`application/octet-stream` when Accept asks for that instead)', content: { '*/*': { schema: { type: 'string' } } } } },
        errors: [404, 503],
        params: FileIdParamsSchema,
      },
    },
  }, async (request, reply) => {
    const { file, content } = await files.read(authenticatedKey(request).accountId, request.params.id);
    return reply.headers(downloadHeaders(file, request.headers.accept)).send(Readable.from(content, { objectMode: false }));
  });

  app.delete<{ Params: IdParams }>('/files/:id', {
    schema: {
      operationId: 'deleteFile',
      summary: 'Delete a file',
      tags: [TAGS.files],
      answers: { success: { 200: jsonReply(FileDeletedSchema, 'The file and its bytes are gone; their key is destroyed') }, errors: [404], params: FileIdParamsSchema },
    },
  }, async (request) => {
    const deleted = await files.delete(authenticatedKey(request).accountId, request.params.id);
    return { id: deleted.id, object: 'file' as const, deleted: true as const, _shape: 'openai' as const };
  });
}

/** Whether the request's body is still coming from a caller who is still there. */
function stillArriving(incoming: IncomingMessage): boolean {
  return !incoming.readableEnded && !incoming.destroyed && incoming.errored === null && !incoming.socket.destroyed;
}

function listQuery(raw: RawQuery): FileListQuery {
  refuseUnknownParameters(raw, ['after', 'limit', 'order', 'purpose']);
  const after = queryString(raw, 'after');
  if (after !== undefined && !isFileId(after)) throw invalidRequest('after', 'must be a file id (the `last_id` of a page)');
  const order = queryString(raw, 'order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalidRequest('order', 'must be asc or desc');
  const purpose = queryString(raw, 'purpose');
  if (purpose !== undefined && !isFilePurpose(purpose)) throw invalidRequest('purpose', `must be one of ${FILE_PURPOSES.join(', ')}`);
  return {
    limit: queryInteger(raw, 'limit', { min: 1, max: MAX_PAGE, fallback: MAX_PAGE }),
    order,
    ...(after !== undefined && { after }),
    ...(purpose !== undefined && { purpose }),
  };
}

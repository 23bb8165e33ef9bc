import { describe, expect, it } from 'vitest';
import type { CoreRequest } from '../../../src/core/request.js';
import { keyStoreUnavailable } from '../../../src/files/key-store.js';
import { readStoredFiles, type StoredFiles } from '../../../src/inference/stored-files.js';

function requestNaming(fileId: string): CoreRequest {
  return {
    models: ['acme/reader'],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Read' }, { type: 'file', file: { file_id: fileId } }] }],
    stream: false,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: {},
  };
}

describe('reading the stored files a request names', () => {
  it('answers 503 while the key store sealing them cannot be reached, and leaves the request as it was', async () => {
    const files: StoredFiles = {
      get: async () => ({ filename: 'a.pdf', contentType: 'application/pdf', bytes: 10 }),
      read: async () => {
        throw keyStoreUnavailable();
      },
    };
    const request = requestNaming('file-abc');
    const error = await readStoredFiles(files, 'acct-1', request).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'server_unavailable', status: 503 });
    expect(request.messages[0]?.content).toEqual([{ type: 'text', text: 'Read' }, { type: 'file', file: { file_id: 'file-abc' } }]);
  });

  it('replaces the part with the file\'s bytes as a data URL, under its stored name', async () => {
    const files: StoredFiles = {
      get: async (_account, id) => ({ filename: `${id}.pdf`, contentType: 'application/pdf', bytes: 3 }),
      read: async () => ({ content: (async function* () { yield Buffer.from('abc'); })() }),
    };
    const request = requestNaming('file-one');
    await readStoredFiles(files, 'acct-1', request);
    expect(request.messages[0]?.content).toEqual([{ type: 'text', text: 'Read' }, { type: 'file', file: { filename: 'file-one.pdf', file_data: 'data:application/pdf;base64,YWJj' } }]);
  });
});

import { describe, expect, it } from 'vitest';
import { downloadHeaders, servedContentType } from '../../../src/http/routes/file-download.js';
import type { StoredFile } from '../../../src/files/file-rows.js';

describe('the type a stored file is served as', () => {
  it('is the stored type, whatever a client that takes it or anything asks', () => {
    expect(servedContentType('application/jsonl', undefined)).toBe('application/jsonl');
    expect(servedContentType('application/jsonl', '*/*')).toBe('application/jsonl');
    expect(servedContentType('text/plain; charset=utf-8', 'text/*, application/json;q=0.5')).toBe('text/plain; charset=utf-8');
    expect(servedContentType('image/png', 'application/binary')).toBe('image/png');
  });

  it('is application/octet-stream when Accept takes only that (as the marketplace\'s client asks)', () => {
    expect(servedContentType('application/jsonl', 'application/octet-stream')).toBe('application/octet-stream');
    expect(servedContentType('text/plain', 'text/plain;q=0, application/octet-stream')).toBe('application/octet-stream');
  });
});

describe('the headers of a stored file\'s bytes', () => {
  const file: StoredFile = {
    id: 'file-1', accountId: 'acct_a', blobId: 'blob_1', filename: 'résumé "final"(1).txt', purpose: 'user_data',
    contentType: 'text/html', bytes: 12, createdAt: 0, expiresAt: 1,
  };

  it('name it as an attachment in both filename forms, and keep a browser from running it', () => {
    expect(downloadHeaders(file, undefined)).toEqual({
      'content-type': 'text/html',
      'content-length': 12,
      'content-disposition': 'attachment; filename="r_sum_ _final_(1).txt"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20%22final%22%281%29.txt',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'cache-control': 'private, no-store',
    });
  });
});

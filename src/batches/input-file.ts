import { GatewayError, invalidRequest } from '../core/errors.js';
import { isPlainObject } from '../core/plain-object.js';
import type { FileService } from '../files/file-service.js';
import { checkedRequests, type BatchEndpoint, type SubmittedRequest } from './submission.js';

/** Spec 02 Limits: a submission is at most 32 MiB, inline or as a file. */
export const SUBMISSION_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * The requests of an uploaded JSONL file in OpenAI's batch input format: one
 * `{custom_id, method: "POST", url, body}` per line, `url` the batch's endpoint. A line that does
 * not parse or breaks a rule is refused by its line number; the envelope rules apply as to inline
 * requests.
 */
export async function readInputFile(files: FileService, accountId: string, fileId: string, endpoint: BatchEndpoint): Promise<SubmittedRequest[]> {
  const { file, content } = await files.read(accountId, fileId);
  if (file.bytes > SUBMISSION_LIMIT_BYTES) {
    throw new GatewayError('payload_too_large', `input_file_id: the file holds ${file.bytes} bytes; a batch takes at most ${SUBMISSION_LIMIT_BYTES}`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk);
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  const requests: SubmittedRequest[] = [];
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    requests.push(readLine(text, `input_file_id: line ${index + 1}`, endpoint));
  });
  return checkedRequests(requests, 'input_file_id', endpoint);
}

function readLine(text: string, at: string, endpoint: BatchEndpoint): SubmittedRequest {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    throw new GatewayError('invalid_request', `${at}: malformed JSON`, { metadata: { field: 'input_file_id' } });
  }
  if (!isPlainObject(line)) throw invalidRequest(at, 'must be a JSON object');
  if (typeof line.custom_id !== 'string') throw invalidRequest(`${at}: custom_id`, 'is required');
  if (line.method !== undefined && line.method !== 'POST') throw invalidRequest(`${at}: method`, 'must be "POST"');
  if (line.url !== endpoint) throw invalidRequest(`${at}: url`, `must be the batch's endpoint ${JSON.stringify(endpoint)}`);
  if (!isPlainObject(line.body)) throw invalidRequest(`${at}: body`, 'must be an object');
  return { customId: line.custom_id, body: line.body };
}

import { describe, expect, test } from 'vitest';
import { buildWav } from '../../../src/sim/wav-audio.js';
import { formBody, type FormBody } from '../../../src/upstream/form-body.js';
import type { UpstreamUpload } from '../../../src/upstream/types.js';

const RECORDING = buildWav(0.25);

function upload(extra: Partial<UpstreamUpload> = {}): UpstreamUpload {
  return { field: 'file', filename: 'audio.wav', mediaType: 'audio/wav', bytes: RECORDING, ...extra };
}

async function bytesOf(form: FormBody): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of form.stream()) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The body read back by the platform's own multipart parser. */
async function parsed(form: FormBody): Promise<FormData> {
  return new Response(new Uint8Array(await bytesOf(form)), { headers: { 'content-type': form.contentType } }).formData();
}

const boundaryOf = (form: FormBody): string => {
  const match = /^multipart\/form-data; boundary=(\S+)$/.exec(form.contentType);
  if (!match?.[1]) throw new Error(`no boundary in ${form.contentType}`);
  return match[1];
};

describe('multipart form body', () => {
  test('each field reads back as its text: strings, numbers and booleans as they print, objects as JSON', async () => {
    const form = await parsed(formBody({ model: 'whisper-1', temperature: 0.2, verbose: true, chunking_strategy: { type: 'server_vad' } }, upload()));
    expect(form.get('model')).toBe('whisper-1');
    expect(form.get('temperature')).toBe('0.2');
    expect(form.get('verbose')).toBe('true');
    expect(JSON.parse(String(form.get('chunking_strategy')))).toEqual({ type: 'server_vad' });
  });

  test('an array is one field per item under the same name, in order', async () => {
    const form = await parsed(formBody({ 'timestamp_granularities[]': ['word', 'segment'] }, upload()));
    expect(form.getAll('timestamp_granularities[]')).toEqual(['word', 'segment']);
  });

  test('non-ASCII field text survives', async () => {
    const form = await parsed(formBody({ prompt: 'Zürich, 東京 👋' }, upload()));
    expect(form.get('prompt')).toBe('Zürich, 東京 👋');
  });

  test('the file is the upload\'s bytes exactly, under its field, name and media type', async () => {
    const form = await parsed(formBody({ model: 'm' }, upload()));
    const file = form.get('file');
    if (!(file instanceof Blob)) throw new Error('the file part did not read back as a file');
    expect((file as File).name).toBe('audio.wav');
    expect(file.type).toBe('audio/wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(RECORDING)).toBe(true);
  });

  test('bytes that look like multipart syntax are carried untouched', async () => {
    const tricky = Buffer.from('RIFF\r\n--\r\nContent-Disposition: form-data; name="x"\r\n\r\n\r\n--', 'latin1');
    const file = (await parsed(formBody({}, upload({ bytes: tricky })))).get('file');
    if (!(file instanceof Blob)) throw new Error('no file');
    expect(Buffer.from(await file.arrayBuffer()).equals(tricky)).toBe(true);
  });

  test('content-length is the number of bytes the stream produces', async () => {
    const form = formBody({ model: 'whisper-1', prompt: 'naïve café', 'timestamp_granularities[]': ['word', 'segment'] }, upload());
    expect(form.contentLength).toBe((await bytesOf(form)).length);
  });

  test('the stream can be read again for a failover, giving the same bytes', async () => {
    const form = formBody({ model: 'whisper-1' }, upload());
    expect((await bytesOf(form)).equals(await bytesOf(form))).toBe(true);
  });

  test('the boundary appears in no field and not in the file', async () => {
    const fields = { model: 'whisper-1', prompt: '----switchyard', 'timestamp_granularities[]': ['word'] };
    const form = formBody(fields, upload());
    const boundary = boundaryOf(form);
    for (const value of Object.values(fields).flat()) expect(value).not.toContain(boundary);
    expect(RECORDING.includes(boundary)).toBe(false);
    const body = (await bytesOf(form)).toString('latin1');
    // every occurrence is a delimiter: one per field item (three), one for the file, and the closing one
    expect(body.split(`--${boundary}`).length - 1).toBe(5);
    expect(body.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  });

  test('each body gets its own boundary', () => {
    expect(boundaryOf(formBody({}, upload()))).not.toBe(boundaryOf(formBody({}, upload())));
  });

  test('quotes and line breaks in a name cannot break out of its header, and read back as sent', async () => {
    const form = formBody({ 'a"b\r\nX-Evil: 1': 'v' }, upload({ filename: 'a"b.wav' }));
    expect((await bytesOf(form)).toString('latin1')).not.toContain('\r\nX-Evil');
    const read = await parsed(form);
    expect([...read.keys()]).toEqual(['a"b\r\nX-Evil: 1', 'file']);
    expect((read.get('file') as File).name).toBe('a"b.wav');
  });
});

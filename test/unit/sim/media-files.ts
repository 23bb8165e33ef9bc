import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** The inflated IDAT data: one filter byte then the samples, per row. */
  scanlines: Buffer;
}

const SIGNATURE = '89504e470d0a1a0a';

/** Reads a PNG chunk by chunk, checking the signature and every CRC; throws on any fault. */
export function decodePng(png: Buffer): DecodedPng {
  if (png.subarray(0, 8).toString('hex') !== SIGNATURE) throw new Error('bad PNG signature');
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    if (crc32(typeAndData) !== png.readUInt32BE(at + 8 + length)) throw new Error('bad chunk CRC');
    chunks.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  const types = chunks.map((c) => c.type);
  if (types[0] !== 'IHDR' || types.at(-1) !== 'IEND') throw new Error(`bad chunk order ${types.join(',')}`);
  const header = chunks[0]?.data ?? Buffer.alloc(13);
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  return {
    width: header.readUInt32BE(0),
    height: header.readUInt32BE(4),
    bitDepth: header.readUInt8(8),
    colourType: header.readUInt8(9),
    scanlines: inflateSync(idat),
  };
}

export interface DecodedWav {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  riffSize: number;
  dataBytes: number;
  seconds: number;
  silent: boolean;
}

/** Reads a canonical 44-byte-header WAV file. */
export function decodeWav(wav: Buffer): DecodedWav {
  if (wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not RIFF WAVE');
  if (wav.toString('latin1', 12, 16) !== 'fmt ' || wav.toString('latin1', 36, 40) !== 'data') throw new Error('bad chunks');
  const sampleRate = wav.readUInt32LE(24);
  const channels = wav.readUInt16LE(22);
  const bitsPerSample = wav.readUInt16LE(34);
  const dataBytes = wav.readUInt32LE(40);
  if (wav.length !== 44 + dataBytes) throw new Error('data size disagrees with the file');
  return {
    format: wav.readUInt16LE(20),
    channels,
    sampleRate,
    bitsPerSample,
    riffSize: wav.readUInt32LE(4),
    dataBytes,
    seconds: dataBytes / (sampleRate * channels * (bitsPerSample / 8)),
    silent: wav.subarray(44).every((b) => b === 0),
  };
}

import { deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const GRAYSCALE = 0;
const GRAYSCALE_ALPHA = 4;
const BIT_DEPTH = 8;
const FILTER_NONE = 0;

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as PNG chunks use it (ISO 3309). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

/**
 * What a picture shows: sample = (offset + x·xStep + y·yStep + ((x XOR y) AND mask)) mod 256, and
 * with `alpha` an opacity channel running the other way. The default is the plain diagonal gradient.
 */
export interface PngPattern {
  xStep: number;
  yStep: number;
  offset: number;
  mask: number;
  alpha: boolean;
}

const GRADIENT: PngPattern = { xStep: 1, yStep: 1, offset: 0, mask: 0, alpha: false };

/** A pattern drawn from the first bytes of a digest, so different digests give different pictures. */
export function patternFromDigest(digest: Uint8Array, alpha = false): PngPattern {
  return { xStep: (digest[0] ?? 1) | 1, yStep: (digest[1] ?? 1) | 1, offset: digest[2] ?? 0, mask: digest[3] ?? 0, alpha };
}

/** Rows of the pattern, each prefixed with filter type 0. */
function scanlines(width: number, height: number, pattern: PngPattern): Buffer {
  const channels = pattern.alpha ? 2 : 1;
  const stride = width * channels + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * stride] = FILTER_NONE;
    for (let x = 0; x < width; x += 1) {
      const at = y * stride + 1 + x * channels;
      raw[at] = (pattern.offset + x * pattern.xStep + y * pattern.yStep + ((x ^ y) & pattern.mask)) & 0xff;
      if (pattern.alpha) raw[at + 1] = 255 - ((x + y) & 0x7f);
    }
  }
  return raw;
}

/**
 * A valid 8-bit PNG of width × height pixels (grayscale, or grayscale with alpha when the pattern
 * says so): signature, IHDR, one IDAT, IEND.
 */
export function buildPng(width: number, height: number, pattern: PngPattern = GRADIENT): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(BIT_DEPTH, 8);
  header.writeUInt8(pattern.alpha ? GRAYSCALE_ALPHA : GRAYSCALE, 9);
  // Bytes 10 to 12 stay 0: deflate compression, adaptive filtering, no interlace.
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanlines(width, height, pattern))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

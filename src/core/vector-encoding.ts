/** The base64 form of an embedding vector, as OpenAI-compatible servers send and accept it. */

/** A vector as OpenAI's base64 encoding: little-endian float32 bytes. */
export function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** Reads a base64 little-endian float32 vector; undefined when the bytes cannot be one. */
export function readFloat32Base64(text: string): number[] | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const vector: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += 4) vector.push(bytes.readFloatLE(offset));
  return vector;
}

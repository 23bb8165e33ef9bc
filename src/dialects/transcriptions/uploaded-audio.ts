/**
 * A recording read from a multipart form, carried in the body the dialect admits. Its bytes sit
 * behind a private field, so nothing that walks the body (the null-member pass, the depth check, the
 * schema check, a refusal's record) meets millions of array members; recorded, it is its size.
 */
export class UploadedAudio {
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  get bytes(): Buffer {
    return this.#bytes;
  }

  toJSON(): { file_bytes: number } {
    return { file_bytes: this.#bytes.length };
  }
}

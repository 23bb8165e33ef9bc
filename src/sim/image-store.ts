/** Pictures kept for `response_format: "url"` replies; the oldest is forgotten beyond this many. */
export const IMAGE_STORE_CAPACITY = 64;

/** Where the simulator serves a stored picture, under its own origin. */
export const IMAGE_FILES_PATH = '/v1/images/files/';

/** A bounded map from file name (`img-sim3-0.png`) to PNG bytes, so memory stays flat under load. */
export class ImageStore {
  private readonly files = new Map<string, Buffer>();

  constructor(private readonly capacity: number = IMAGE_STORE_CAPACITY) {}

  put(name: string, png: Buffer): void {
    this.files.delete(name);
    this.files.set(name, png);
    for (const oldest of this.files.keys()) {
      if (this.files.size <= this.capacity) break;
      this.files.delete(oldest);
    }
  }

  get(name: string): Buffer | undefined {
    return this.files.get(name);
  }
}

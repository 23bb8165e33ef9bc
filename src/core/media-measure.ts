import { imageSize } from 'image-size';
import { parseBuffer } from 'music-metadata';
import { parseDataUrl } from './media-type.js';

export interface MediaQuantities {
  /** Exact decimal megapixels of the pictures whose bytes came back (URLs are not fetched). */
  imageMegapixels?: string;
  /** Seconds of audio read from its container, to the microsecond. */
  audioSeconds?: string;
}

/** Reads the billable quantities of generated media from the bytes themselves (rule 13). */
export async function measureMedia(imageUrls: readonly string[], audioBase64: string | undefined): Promise<MediaQuantities> {
  const measured: MediaQuantities = {};
  const megapixels = megapixelsOf(imageUrls.flatMap((url) => {
    const data = parseDataUrl(url);
    return data?.base64 ? [data.data] : [];
  }));
  if (megapixels !== undefined) measured.imageMegapixels = megapixels;
  if (audioBase64) {
    const seconds = await secondsOf(Buffer.from(audioBase64, 'base64'));
    if (seconds !== undefined) measured.audioSeconds = seconds.toFixed(6);
  }
  return measured;
}

/** Exact decimal megapixels of pictures given as their base64 bytes; undefined when none could be read. */
export function megapixelsOf(images: readonly string[]): string | undefined {
  return measurePictures(images)?.megapixels;
}

/** What pictures given as their base64 bytes measure: exact decimal megapixels, and each readable picture's size (`WxH`). */
export interface PictureMeasure {
  megapixels: string;
  sizes: string[];
}

/** Reads each picture's dimensions from its bytes; undefined when none could be read. */
export function measurePictures(images: readonly string[]): PictureMeasure | undefined {
  let pixels = 0;
  const sizes: string[] = [];
  for (const base64 of images) {
    const size = dimensionsOf(base64);
    if (!size) continue;
    pixels += size.width * size.height;
    sizes.push(`${size.width}x${size.height}`);
  }
  return pixels > 0 ? { megapixels: megapixels(pixels), sizes } : undefined;
}

function dimensionsOf(base64: string): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(Buffer.from(base64, 'base64'));
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** Pixels → megapixels as an exact decimal string (1 megapixel = 1,000,000 pixels). */
function megapixels(pixels: number): string {
  const whole = Math.floor(pixels / 1_000_000);
  const fraction = String(pixels % 1_000_000).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Seconds of audio as its container says; undefined when the bytes are not audio whose length can be read. */
export async function secondsOf(bytes: Uint8Array, mediaType?: string): Promise<number | undefined> {
  if (bytes.length === 0) return undefined;
  try {
    const metadata = await parseBuffer(bytes, { size: bytes.length, ...(mediaType !== undefined && { mimeType: mediaType }) }, { duration: true });
    const duration = metadata.format.duration;
    return duration !== undefined && Number.isFinite(duration) && duration > 0 ? duration : undefined;
  } catch {
    return undefined;
  }
}

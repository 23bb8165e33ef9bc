/**
 * The smallest real inputs of each modality a probe sends, as bytes in data URLs: a 1×1 PNG, a
 * tenth of a second of silent WAV, and a one-page PDF. Video has no sample small enough to send
 * on every check, so video inputs are not checked.
 */
export interface InputSample {
  /** The container a declared `input_containers` entry must list for the sample to be sent. */
  container: string;
  /** The content part carrying it, as the chat wire writes it. */
  part: Record<string, unknown>;
  /** What the detail of a passing verdict says was accepted. */
  described: string;
}

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';

export const INPUT_SAMPLES: Readonly<Record<string, InputSample>> = {
  image: {
    container: 'png',
    part: { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
    described: 'a 1×1 PNG',
  },
  audio: {
    container: 'wav',
    part: { type: 'input_audio', input_audio: { data: silentWav(0.1).toString('base64'), format: 'wav' } },
    described: '0.1 s of WAV',
  },
  file: {
    container: 'pdf',
    part: { type: 'file', file: { filename: 'probe.pdf', file_data: `data:application/pdf;base64,${onePagePdf().toString('base64')}` } },
    described: 'a one-page PDF',
  },
};

/** PCM 16-bit mono 8 kHz silence in a WAV container. */
function silentWav(seconds: number): Buffer {
  const rate = 8000;
  const data = Math.round(rate * seconds) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** A valid PDF of one empty page, its cross-reference table pointing at each object. */
function onePagePdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = text.length;
    text += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  text += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

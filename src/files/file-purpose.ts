/** The purposes an upload may state: OpenAI's, so its clients' values are all accepted. */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

/** The purposes of files the service writes itself (a batch's results). */
export const OUTPUT_PURPOSES = ['batch_output'] as const;

export const FILE_PURPOSES = [...UPLOAD_PURPOSES, ...OUTPUT_PURPOSES] as const;

export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** The purpose of an upload that states none (the marketplace's client sends only the file). */
export const DEFAULT_UPLOAD_PURPOSE: UploadPurpose = 'user_data';

export function isUploadPurpose(value: string): value is UploadPurpose {
  return (UPLOAD_PURPOSES as readonly string[]).includes(value);
}

export function isFilePurpose(value: string): value is FilePurpose {
  return (FILE_PURPOSES as readonly string[]).includes(value);
}

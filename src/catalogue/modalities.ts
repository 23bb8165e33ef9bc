/** Modalities an endpoint may declare for its inputs and outputs. */
export const MODALITIES = ['text', 'image', 'file', 'audio', 'video', 'embeddings', 'rerank', 'mesh'] as const;

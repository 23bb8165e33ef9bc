/** Modalities an endpoint may declare for its inputs. */
export const INPUT_MODALITIES = ['text', 'image', 'file', 'audio', 'video', 'embeddings', 'rerank', 'mesh'] as const;

/**
 * Modalities an endpoint may declare for its outputs: the inputs' names, plus `speech` for a
 * dedicated text-to-speech endpoint (served on `/audio/speech`). `audio` is audio generated inside
 * a chat reply; the two are different things.
 */
export const OUTPUT_MODALITIES = [...INPUT_MODALITIES, 'speech'] as const;

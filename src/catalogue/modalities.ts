/** Modalities an endpoint may declare for its inputs. */
export const INPUT_MODALITIES = ['text', 'image', 'file', 'audio', 'video', 'embeddings', 'rerank', 'mesh'] as const;

/**
 * Modalities an endpoint may declare for its outputs: the inputs' names, plus `speech` for a
 * dedicated text-to-speech endpoint (served on `/audio/speech`) and `transcription` for a dedicated
 * speech-to-text endpoint (served on `/audio/transcriptions`). `audio` is audio generated inside a
 * chat reply, and `text` a conversation's reply: a chat model that hears audio is not a
 * transcription endpoint, so the route's own output is named for it, as speech's is.
 */
export const OUTPUT_MODALITIES = [...INPUT_MODALITIES, 'speech', 'transcription'] as const;

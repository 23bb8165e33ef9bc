/** The document's tags: one per family of routes. */
export const TAGS = {
  completions: 'Completions',
  messages: 'Messages',
  embeddings: 'Embeddings',
  rerank: 'Rerank',
  decisions: 'Decisions',
  speech: 'Speech',
  images: 'Images',
  transcription: 'Transcription',
  generations: 'Generations',
  keys: 'Keys',
  account: 'Account',
  files: 'Files',
  batches: 'Batches',
  approval: 'Approval',
  models: 'Models',
  service: 'Service',
} as const;

/** What each tag gathers, as the document lists it. */
export const TAG_DESCRIPTIONS: Record<(typeof TAGS)[keyof typeof TAGS], string> = {
  Completions: 'Chat completions, text completions and the responses dialect',
  Messages: 'The messages dialect, for clients written for the Anthropic Messages API',
  Embeddings: 'Vectors for text, token arrays or multimodal items',
  Rerank: 'Relevance scores of documents for a query',
  Decisions: 'Typed answers to questions about a supplied state',
  Speech: 'Text to speech',
  Images: 'Pictures rendered from a prompt, billed per picture, megapixel and output token',
  Transcription: 'Recordings written out as text, billed per second of audio or per token',
  Generations: 'Recorded generations and their exact cost',
  Keys: 'The calling key; with a management key, the account\'s inference keys',
  Account: 'The account\'s credits, daily activity and audit trail',
  Files: 'The account\'s stored files (OpenAI\'s Files API shapes), sealed at rest and gone 48 hours after storage',
  Batches: 'Requests run together in the background, billed exactly as if posted one by one; results in a stored file',
  Approval: 'The approval flow (PKCE): one-time codes exchanged for keys',
  Models: 'The public catalogue: served models, their endpoints with measured figures, providers and families',
  Service: 'Liveness and this document',
};

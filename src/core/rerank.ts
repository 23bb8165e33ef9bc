/** The core form of a rerank call, between its dialect and the upstream adapters. */

export interface RerankAsk {
  query: string;
  /** The documents as submitted, echoed exactly with `return_documents`. */
  documents: readonly unknown[];
  /** What is scored for each document, in order: the string, or an object's title and text. */
  texts: string[];
  /** Results to return, best first; undefined returns all. */
  topN?: number;
  returnDocuments: boolean;
  user?: string;
}

export interface RerankScore {
  /** Position of the document in the request. */
  index: number;
  relevanceScore: number;
}

export interface RerankUsage {
  /** Tokens the endpoint reported; undefined when it reported none. */
  totalTokens?: number;
  searchUnits?: number;
}

export interface RerankResult {
  upstreamId?: string;
  /** Scores as the endpoint sent them (any order; perhaps already cut to `top_n`). */
  scores: RerankScore[];
  usage: RerankUsage;
}

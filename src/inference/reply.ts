/** A whole answer, ready for any transport: HTTP writes it as is, a batch stores it. */
export interface WholeReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A served answer: 200, naming the provider that served it. */
export function servedReply(provider: string, body: unknown): WholeReply {
  return { status: 200, headers: { 'x-provider-name': provider }, body };
}

/** The stop sequences a chat-shaped body asks for (`stop`: a string or strings), empty ones dropped. */
export function requestedStops(body: Record<string, unknown>): string[] {
  const stop = body.stop;
  const list = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : [];
  return list.filter((item): item is string => typeof item === 'string' && item.length > 0);
}

/**
 * Ends the answer before the first stop sequence it contains, as providers do: tokens wholly
 * before it are kept, the token it starts in is cut there. Returns the sequence that matched.
 */
export function cutAtStop(content: readonly string[], stops: readonly string[]): { content: string[]; stop?: string } {
  const text = content.join('');
  let first: { at: number; stop: string } | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (!first || at < first.at)) first = { at, stop };
  }
  if (!first) return { content: [...content] };
  const kept: string[] = [];
  let length = 0;
  for (const token of content) {
    if (length + token.length > first.at) {
      const part = token.slice(0, first.at - length);
      if (part) kept.push(part);
      break;
    }
    kept.push(token);
    length += token.length;
  }
  return { content: kept, stop: first.stop };
}

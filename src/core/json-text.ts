/**
 * The JSON text of a request's member written out once where the request needs it twice. The tools
 * a request offers are written out for the prompt estimate and again in the upstream body: 200
 * tools are about 60 KB, and each writing costs as much as the whole of a short request. Remembered
 * for the very object written out (a request's members are not changed once decoded) until a body
 * takes it: kept longer, a text that large outlives young collections and costs more than it saves.
 */
const written = new WeakMap<object, string>();

/** `JSON.stringify(value)`, written out once for this object. */
export function rememberedJsonText(value: object): string {
  let text = written.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    written.set(value, text);
  }
  return text;
}

/**
 * `JSON.stringify(body)`, the same text, where the members already written out (by
 * `rememberedJsonText`) are taken as they were written instead of being written out again, and
 * forgotten: a body written out again (another attempt) writes them out itself.
 */
export function jsonBodyText(body: Record<string, unknown>): string {
  // a body's members are its own (no enumerable inherited ones), so `for…in` sees what JSON.stringify does
  for (const key in body) if (isRemembered(body[key])) return splicedBodyText(body);
  return JSON.stringify(body);
}

function splicedBodyText(body: Record<string, unknown>): string {
  const members: string[] = [];
  for (const key of Object.keys(body)) {
    const value = body[key];
    // undefined for a member JSON leaves out (undefined, a function), as JSON.stringify(body) does
    const text: string | undefined = isRemembered(value) ? taken(value) : JSON.stringify(value);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

function taken(value: object): string | undefined {
  const text = written.get(value);
  written.delete(value);
  return text;
}

function isRemembered(value: unknown): value is object {
  return typeof value === 'object' && value !== null && written.has(value);
}

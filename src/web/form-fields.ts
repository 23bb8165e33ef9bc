/** A posted form as @fastify/formbody reads it: each field a string, or several when repeated. */
export type FormBody = Record<string, string | string[] | undefined>;

/** Reads the posted body as a form; anything else (no body, JSON) reads as an empty form. */
export function formOf(body: unknown): FormBody {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as FormBody) : {};
}

/** One field's text: '' when absent; a field sent several times counts as its first value. */
export function formField(body: unknown, name: string): string {
  const value = Object.hasOwn(formOf(body), name) ? formOf(body)[name] : undefined;
  if (Array.isArray(value)) return value[0] ?? '';
  return typeof value === 'string' ? value : '';
}

/** A query parameter's text, the same way. */
export function queryField(query: unknown, name: string): string {
  return formField(query, name);
}

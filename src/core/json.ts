// Every .leopold JSON document (state.json, a journal line, a transcript's first line) is an object or it is not
// ours to read: one place that parses and says why not.

export type JsonObjectResult =
  | { ok: true; value: Record<string, unknown> }
  /** `syntax`: not JSON at all (`reason` is the parser's message); otherwise JSON but not an object. */
  | { ok: false; syntax: boolean; reason: string };

export function parseJsonObject(text: string): JsonObjectResult {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { ok: false, syntax: true, reason: (err as Error).message };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { ok: false, syntax: false, reason: `expected a JSON object, received ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}` };
  }
  return { ok: true, value: v as Record<string, unknown> };
}

/** The object, or undefined for anything else. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  const r = parseJsonObject(text);
  return r.ok ? r.value : undefined;
}

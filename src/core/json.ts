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
    return { ok: false, syntax: false, reason: `expected a JSON object, ` +
      `received ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}` };
  }
  return { ok: true, value: v as Record<string, unknown> };
}

/**
 * How deeply a JSON text nests (objects and arrays), scanned without recursion and without parsing; stops counting
 * past `cap` (returns `cap + 1`). Strings are skipped, escapes included.
 */
export function jsonDepth(text: string, cap = Number.MAX_SAFE_INTEGER): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        max = depth;
        if (max > cap) return cap + 1;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** A parsed JSON value that is an object (not null, not an array). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value when it is a JSON object, else undefined. */
export function asJsonObject(v: unknown): Record<string, unknown> | undefined {
  return isJsonObject(v) ? v : undefined;
}

/** The object, or undefined for anything else. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  const r = parseJsonObject(text);
  return r.ok ? r.value : undefined;
}

/**
 * Python's `json.dumps(value)` with its defaults (`ensure_ascii=True`, separators `", "` and `": "`), the form of
 * Leopold's watcher: every UTF-16 unit outside printable ASCII — DEL (U+007F) included, as Python escapes it — is
 * written as a lowercase `\uXXXX` escape. For the JSON values the extension writes (strings, finite numbers,
 * booleans, null, arrays and plain objects). With `indent`, Python's
 * `json.dumps(value, indent=n)`: one member per line, separators `","` and `": "`, `[]` and `{}` when empty (the
 * dashboard's `workflow-directives.json`).
 */
export function pythonJsonDumps(value: unknown, indent?: number, level = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value !== 'object') return 'null';
  const members: string[] = Array.isArray(value)
    ? value.map((v) => pythonJsonDumps(v, indent, level + 1))
    : Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v, indent, level + 1)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (indent === undefined) return `${open}${members.join(', ')}${close}`;
  if (members.length === 0) return `${open}${close}`;
  const inner = `\n${' '.repeat(indent * (level + 1))}`;
  return `${open}${inner}${members.join(`,${inner}`)}\n${' '.repeat(indent * level)}${close}`;
}

// GUARDRAILS.md keys, parsed the way the hooks and `leopold watch` parse them (the greps of hooks/stop-continuity.sh
// and scripts/leopold-doctor.sh, `_guardrail_value` in scripts/leopold-watch.py): no section awareness,
// the first matching line anywhere wins; the line is optional whitespace, an optional `-`, optional whitespace, an
// optional `**`, the key, an optional `**`, optional whitespace, `:`, then a value. A key line whose value is empty
// (`- continuity:`) is not a match, as in Leopold's parsers: the search goes on to the next line. HTML-commented lines
// (`<!-- key: … -->`) never match: they start with `<!--`.
//
// This is the one resolver per key: the supervisor, the tree, the status bar, the doctor and the checkpoint cap all
// read `parseGuardrails`. Where Leopold itself has two readings of a key (the watcher's token rule vs the Stop hook's
// and doctor's grep), both are here, under names that say whose reading they are.

export interface GuardrailValue {
  /** The first non-space token after the colon, lowercased (the watcher's `_guardrail_value`); never empty. */
  token: string;
  /** The raw text after the colon (a trailing `# comment` included). */
  rest: string;
  /** 0-based line of the match, for diagnostics and links. */
  line: number;
}

/** How the Stop hook and `leopold doctor` (grep + sed) read the keys where that differs from the watcher. */
export interface HookReading {
  /** The first word after the colon, lowercased: what `leopold doctor` quotes for `continuity`. */
  continuityWord?: string;
  /** The first integer anywhere after the colon (`- max_windows: none # 3` is 3 to the hook). */
  maxWindows?: number;
}

export interface Guardrails {
  /** The watcher's reading: `manual` only when the token is exactly `manual`; anything else, or no line, means auto. */
  continuity: 'auto' | 'manual';
  /** The watcher's token when it is neither auto nor manual. */
  continuityUnknown?: string;
  /** The watcher's reading: the first run of digits in the token; undefined when absent. */
  maxWindows?: number;
  maxIterations?: number;
  maxFailures?: number;
  /** Only a positive integer right after the colon counts (the hooks grep for the digits). */
  maxCheckpointKb?: number;
  /** The hooks grep for `on_finish:` followed by `archive`: the first such line anywhere. */
  onFinish: 'keep' | 'archive';
  /** `ask`, `halt` and `human` mean ask; an unknown value means absent (full). */
  autonomy: 'full' | 'ask';
  /** The Stop hook's and the doctor's reading, for showing what the hook will do. */
  hookReading: HookReading;
  /** Where each key was found (0-based lines). */
  lines: Partial<Record<GuardrailKey, number>>;
}

export type GuardrailKey =
  'continuity' | 'max_windows' | 'max_iterations' | 'max_failures' | 'max_checkpoint_kb' | 'on_finish' | 'autonomy';

const isBlank = (c: string) => c === ' ' || c === '\t';
/** Keys are ASCII; only ASCII letters fold (as a JS `/i` regex does; `toLowerCase` would fold U+212A KELVIN to `k`). */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The text after the colon when `line` is a key line for `key` (lowercase), else undefined. A single forward scan
 * (linear in the line; a regex with two adjacent optional runs of blanks backtracks quadratically on a long blank line).
 */
function keyLineRest(line: string, key: string): string | undefined {
  let i = 0;
  const n = line.length;
  while (i < n && isBlank(line[i])) i++;
  if (line[i] === '-') i++;
  while (i < n && isBlank(line[i])) i++;
  if (line.startsWith('**', i)) i += 2;
  if (asciiLower(line.slice(i, i + key.length)) !== key) return undefined;
  i += key.length;
  if (line.startsWith('**', i)) i += 2;
  while (i < n && isBlank(line[i])) i++;
  return line[i] === ':' ? line.slice(i + 1) : undefined;
}

/**
 * The first line that sets `key` to a non-empty value (and passes `accept`, for the hooks' greps that include the
 * value). Linear in the text.
 */
export function guardrailValue(text: string, key: string, accept?: (rest: string) => boolean): GuardrailValue | undefined {
  const k = key.toLowerCase();
  let start = 0;
  for (let line = 0; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    const crlf = end > start && text[end - 1] === '\r'; // lines end at `\n` or `\r\n`
    if (end < 0) end = text.length;
    const raw = text.slice(start, crlf ? end - 1 : end);
    start = end + 1;
    const rest = keyLineRest(raw, k);
    if (rest === undefined) continue;
    const token = /\S+/.exec(rest)?.[0];
    if (token === undefined || (accept && !accept(rest))) continue; // an empty value: not a match
    return { token: token.toLowerCase(), rest, line };
  }
  return undefined;
}

function firstDigits(s: string | undefined): number | undefined {
  const m = s ? /\d+/.exec(s) : null;
  return m ? Number(m[0]) : undefined;
}

export function parseGuardrails(text: string): Guardrails {
  const lines: Guardrails['lines'] = {};
  const get = (key: GuardrailKey, accept?: (rest: string) => boolean) => {
    const v = guardrailValue(text, key, accept);
    if (v) lines[key] = v.line;
    return v;
  };
  const continuity = get('continuity');
  // The hooks' grep for max_checkpoint_kb includes the digits: the first line with digits after the colon wins.
  const kb = get('max_checkpoint_kb', (rest) => /^[ \t]*\d/.test(rest));
  const kbMatch = kb ? /^[ \t]*(\d+)/.exec(kb.rest) : null;
  const autonomyWord = (/[A-Za-z0-9]+/.exec(get('autonomy')?.rest ?? '')?.[0] ?? '').toLowerCase();
  const onFinish = get('on_finish', (rest) => /^[ \t]*archive/i.test(rest));
  const maxWindows = get('max_windows');
  return {
    continuity: continuity?.token === 'manual' ? 'manual' : 'auto',
    continuityUnknown: continuity && !['auto', 'manual'].includes(continuity.token) ? continuity.token : undefined,
    maxWindows: firstDigits(maxWindows?.token),
    maxIterations: firstDigits(get('max_iterations')?.token),
    maxFailures: firstDigits(get('max_failures')?.token),
    maxCheckpointKb: kbMatch && Number(kbMatch[1]) > 0 ? Number(kbMatch[1]) : undefined,
    onFinish: onFinish ? 'archive' : 'keep',
    autonomy: ['ask', 'halt', 'human'].includes(autonomyWord) ? 'ask' : 'full',
    hookReading: {
      continuityWord: continuity ? /[A-Za-z0-9_-]+/.exec(continuity.rest)?.[0].toLowerCase() : undefined,
      maxWindows: firstDigits(maxWindows?.rest),
    },
    lines,
  };
}

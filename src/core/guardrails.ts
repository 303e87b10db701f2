// GUARDRAILS.md keys, parsed the way the hooks and `leopold watch` parse them: no section awareness, the first
// matching line anywhere wins; the line is optional whitespace, an optional `-`, an optional `**`, the key, an
// optional `**`, `:`, then one token. HTML-commented lines (`<!-- key: … -->`) never match: they start with `<!--`.

export interface GuardrailValue {
  /** The first non-space token after the colon, lowercased (the watcher's `_guardrail_value`). */
  token: string;
  /** The raw text after the colon (a trailing `# comment` included). */
  rest: string;
  /** 0-based line of the match, for diagnostics and links. */
  line: number;
}

export interface Guardrails {
  /** `manual` only when the token is exactly `manual`; anything else, or no line, means auto. */
  continuity: 'auto' | 'manual';
  /** The value as written when it is neither auto nor manual (the doctor warns about it). */
  continuityUnknown?: string;
  /** First run of digits in the token (the watcher's rule); undefined when absent. */
  maxWindows?: number;
  maxIterations?: number;
  maxFailures?: number;
  /** Only a positive integer right after the colon counts. */
  maxCheckpointKb?: number;
  onFinish: 'keep' | 'archive';
  /** `ask`, `halt` and `human` mean ask; an unknown value means absent (full). */
  autonomy: 'full' | 'ask';
  /** Where each key was found (0-based lines). */
  lines: Partial<Record<GuardrailKey, number>>;
}

export type GuardrailKey = 'continuity' | 'max_windows' | 'max_iterations' | 'max_failures' | 'max_checkpoint_kb' | 'on_finish' | 'autonomy';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function guardrailValue(text: string, key: string, accept?: (rest: string) => boolean): GuardrailValue | undefined {
  const re = new RegExp(`^[ \\t]*-?[ \\t]*(?:\\*\\*)?${escape(key)}(?:\\*\\*)?[ \\t]*:(.*)$`, 'i');
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(lines[i]);
    if (!m || (accept && !accept(m[1]))) continue;
    const rest = m[1];
    const token = (/\S+/.exec(rest)?.[0] ?? '').toLowerCase();
    return { token, rest, line: i };
  }
  return undefined;
}

function digitsIn(token: string | undefined): number | undefined {
  const m = token ? /\d+/.exec(token) : null;
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
  const onFinish = get('on_finish');
  return {
    continuity: continuity?.token === 'manual' ? 'manual' : 'auto',
    continuityUnknown: continuity && !['auto', 'manual'].includes(continuity.token) ? continuity.token : undefined,
    maxWindows: digitsIn(get('max_windows')?.token),
    maxIterations: digitsIn(get('max_iterations')?.token),
    maxFailures: digitsIn(get('max_failures')?.token),
    maxCheckpointKb: kbMatch && Number(kbMatch[1]) > 0 ? Number(kbMatch[1]) : undefined,
    onFinish: onFinish?.token.startsWith('archive') ? 'archive' : 'keep',
    autonomy: ['ask', 'halt', 'human'].includes(autonomyWord) ? 'ask' : 'full',
    lines,
  };
}

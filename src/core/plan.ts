// PLAN.md, read with the grammar of Leopold's packages/driver/src/plan.ts (docs/reference/plan-grammar.md there):
// checkbox items numbered 1..n in file order (open and done alike),
// optional `(after: N, M)` / `(deps: …)` dependencies, a node kind (`@node <kind>` or `@work`, `@gate`, `@human`,
// `@tool`, `@verify`, `@feedback`) inline or on an indented line (the last one written wins), an optional label,
// attached `@scenario` / `@on` / `@emit` / `@needs` lines, and indented prose joined into the item text.
import { pushAll } from './arrays';

export type PlanKind = 'work' | 'gate' | 'human' | 'tool' | 'verify' | 'feedback' | (string & {});

export interface PlanItem {
  /** 1-based position among all checkboxes. */
  index: number;
  done: boolean;
  /** The text after the checkbox, with indented continuation lines joined with one space. */
  text: string;
  /** `text` without the leading dependency and kind/label markers: what a view shows. */
  title: string;
  kind: PlanKind;
  label?: string;
  /** Dependencies (1-based indexes), only those below the item's own index (the driver drops the rest). */
  deps: number[];
  /** 0-based line of the checkbox in PLAN.md. */
  line: number;
  /** 0-based line of the item's last line (continuations and attached lines included). */
  endLine: number;
  scenarios: string[];
  on: { cond: string; target: number }[];
  emits: string[];
  needs: string[];
}

export interface Plan {
  items: PlanItem[];
  done: number;
  total: number;
  /** The first unchecked item in file order (what the in-session run works on next). */
  firstOpen?: PlanItem;
  /** One character per checkbox: `x` done, `o` open (the hook's `window_plan_vector` alphabet). */
  vector: string;
}

// `[^]*`, not `.*$`: `.` stops at U+2028/U+2029 and `$` would then fail (the hook counts such a line as an item).
const CHECKBOX = /^[ \t]*- \[([ xX])\](?:\s)?([^]*)/;
const OPEN_BOX = /^\s*- \[ \]/;
const DEPS = /^\(\s*(?:after|deps)\s*:\s*([^)]*)\)\s*/i;
const SHORT_KINDS = ['work', 'gate', 'human', 'tool', 'verify', 'feedback'];
// `@node <kind>` or a shorthand, at the start; `\b` keeps `@workflow` prose.
const KIND = new RegExp(`^@(?:node[ \\t]+([A-Za-z][\\w-]*)|(${SHORT_KINDS.join('|')}))\\b[ \\t]*`, 'i');

/** The hook's and watcher's count: lines that are optional whitespace then `- [ ]`. */
export function countOpenItems(text: string): number {
  let n = 0;
  for (const line of text.split(/\r?\n/)) if (OPEN_BOX.test(line)) n++;
  return n;
}

interface Markers {
  rest: string;
  kind?: string;
  label?: string;
  deps?: number[];
}

/** Strips leading `(after: …)` and kind markers (in either order) from an item line or an attached line. */
function readMarkers(text: string, inline: boolean): Markers {
  const out: Markers = { rest: text };
  for (let guard = 0; guard < 4; guard++) {
    const d = DEPS.exec(out.rest);
    if (d && !out.deps) {
      out.deps = d[1].split(/[\s,]+/).map((s) => Number(s.replace(/^#/, ''))).filter((n) => Number.isInteger(n) && n > 0);
      out.rest = out.rest.slice(d[0].length);
      continue;
    }
    const k = KIND.exec(out.rest);
    if (k && !out.kind) {
      out.kind = (k[1] ?? k[2]).toLowerCase();
      out.rest = out.rest.slice(k[0].length);
      // An explicit `name:` label, any case; or a bare lowercase word when text follows it on the item line.
      const explicit = /^([A-Za-z][\w-]*):(?:\s+|$)/.exec(out.rest);
      if (explicit) {
        out.label = explicit[1];
        out.rest = out.rest.slice(explicit[0].length);
      } else if (inline && out.kind !== 'tool') {
        const bare = /^([a-z][a-z0-9_-]*)[ \t]+(?=\S)/.exec(out.rest);
        if (bare) {
          out.label = bare[1];
          out.rest = out.rest.slice(bare[0].length);
        }
      }
      continue;
    }
    break;
  }
  return out;
}

/**
 * An `@on` annotation: `<condition> -> #<item>` (`->`, `=>` or `→`; `#` and the number optional). Only the last
 * arrow can be followed by nothing but `#` and digits, so it is the one that counts — found with lastIndexOf, in
 * linear time (the regex this replaces backtracked quadratically over long blank runs after an arrow).
 */
export function parseOn(rest: string): { cond: string; target: number } {
  let at = -1;
  let len = 0;
  for (const arrow of ['->', '=>', '→']) {
    const i = rest.lastIndexOf(arrow);
    if (i > at) {
      at = i;
      len = arrow.length;
    }
  }
  if (at >= 0) {
    const target = /^#?(\d*)$/.exec(rest.slice(at + len).trim());
    if (target) return { cond: rest.slice(0, at).trim(), target: target[1] ? Number(target[1]) : 0 };
  }
  return { cond: rest.trim(), target: 0 };
}

/** A checkbox line's item (`- [ ] …` or `- [x] …`), its markers read from its own line. */
function itemOf(box: RegExpExecArray, index: number, line: number): PlanItem {
  const body = box[2].trimEnd();
  const m = readMarkers(body, true);
  return {
    index,
    done: box[1] !== ' ',
    text: body,
    title: m.rest.trim(),
    kind: m.kind ?? 'work',
    label: m.label,
    deps: (m.deps ?? []).filter((d) => d < index),
    line,
    endLine: line,
    scenarios: [],
    on: [],
    emits: [],
    needs: [],
  };
}

/** An item's indented `@` line (trimmed): an attached `@scenario`/`@on`/`@emit`/`@needs`, or a marker (kind, deps). */
function readAtLine(current: PlanItem, t: string): void {
  const attached = /^@(scenario|on|emit|needs)\b[ \t]*([^]*)/i.exec(t);
  if (attached) {
    const [, what, rest] = attached;
    switch (what.toLowerCase()) {
      case 'scenario': current.scenarios.push(rest.trim()); break;
      case 'on': current.on.push(parseOn(rest)); break;
      case 'emit': current.emits.push(rest.trim()); break;
      case 'needs': pushAll(current.needs, rest.split(',').map((s) => s.trim()).filter(Boolean)); break;
    }
    return;
  }
  const m = readMarkers(t, false);
  if (m.kind) {
    current.kind = m.kind; // the last kind written wins
    if (m.label) current.label = m.label;
  }
  // The first deps written win (the checkbox line's, else the first marker line's). An unknown `@` line is a marker, not prose.
  if (m.deps && current.deps.length === 0) {
    const own = current.index;
    current.deps = m.deps.filter((d) => d < own);
  }
}

export function parsePlan(text: string): Plan {
  const lines = text.split(/\r?\n/);
  const items: PlanItem[] = [];
  let current: PlanItem | undefined;
  // Continuation lines are collected and joined once per item (joining them one by one copied the growing text
  // on every line: quadratic in the item's length).
  const prose = new Map<PlanItem, string[]>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const box = CHECKBOX.exec(line);
    if (box) {
      current = itemOf(box, items.length + 1, i);
      items.push(current);
      continue;
    }
    if (!current) continue;
    if (line.trim() === '') continue; // a blank line does not end the item; a non-indented line does
    if (!/^[ \t]/.test(line)) {
      current = undefined;
      continue;
    }
    const t = line.trim();
    current.endLine = i;
    if (t.startsWith('@')) {
      readAtLine(current, t);
      continue;
    }
    let parts = prose.get(current);
    if (!parts) prose.set(current, (parts = []));
    parts.push(t);
  }
  for (const [item, parts] of prose) {
    const more = parts.join(' ');
    item.text = `${item.text} ${more}`.trim();
    item.title = `${item.title} ${more}`.trim();
  }
  const done = items.filter((i) => i.done).length;
  return {
    items,
    done,
    total: items.length,
    firstOpen: items.find((i) => !i.done),
    vector: items.map((i) => (i.done ? 'x' : 'o')).join(''),
  };
}

/**
 * Items closed between two checkbox snapshots (the hook's rule): positions where `current` is `x` and `previous`
 * (or `o` past its end) is not. With no previous snapshot (window 1) every `x` counts.
 */
export function itemsClosed(previous: string | undefined, current: string): number {
  let n = 0;
  for (let i = 0; i < current.length; i++) {
    if (current[i] === 'x' && (previous?.[i] ?? 'o') !== 'x') n++;
  }
  return n;
}

/**
 * Markdown marks as a person reads them, not as text: `code`, **bold**, *emphasis*, __bold__, ~~struck~~ and
 * [link](target) become their words (the target goes). Bounded: the text is cut at 2,000 characters first.
 */
export function withoutMarks(text: string): string {
  return text.slice(0, 2000)
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/`+([^`\n]*)`+/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/(^|[\s(])[*_](?=\S)([^*_\n]*?\S)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/~~(?=\S)([^\n]*?\S)~~/g, '$1')
    .replace(/`/g, '');
}

/** How long a plan item's label may be before what follows goes to its description (the side bar's default width). */
export const PLAN_LABEL_MAX = 48;

/**
 * A plan item's words for a row: a short label — its title up to the first ` — `, `: ` or `. ` when that is at most
 * PLAN_LABEL_MAX characters, else cut at a word — and the rest, for the description and tooltip; Markdown marks shown
 * as words, never as text.
 */
export function planItemWords(item: Pick<PlanItem, 'title' | 'text' | 'label'>): { short: string; rest?: string } {
  const plain = withoutMarks(item.label ? `${item.label}: ${item.title}` : item.title || item.text).replace(/\s+/g, ' ').trim();
  if (plain.length <= PLAN_LABEL_MAX) return { short: plain };
  const m = /^(.{3,}?)(?: — | - |: |\. |; )(.*)$/.exec(plain);
  if (m && m[1].length <= PLAN_LABEL_MAX) return { short: m[1], rest: m[2] };
  const cut = plain.lastIndexOf(' ', PLAN_LABEL_MAX - 1);
  const at = cut > PLAN_LABEL_MAX / 2 ? cut : PLAN_LABEL_MAX - 1;
  return { short: `${plain.slice(0, at)}…`, rest: plain };
}

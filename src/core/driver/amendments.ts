// `.leopold/CHARTER-amendments.md`, the rules learn-on-finish (and `/leopold-learn`) propose (leopold-driver.md §6):
// a `# Charter amendments …` title, a blockquote, then per rule `## <rule>`, `- **Evidence:** …` and
// `- **Why it survived review:** …`. Parsed into proposals with their lines; and, for one proposal, the edit that
// would fold it into CHARTER.md — a bullet at the end of the `## Never` section for a prohibition, else of `## Always`
// (a new `## Always` section at the end when there is none). Upstream has no accepted/rejected state: the person
// edits CHARTER.md and deletes the file. Pure: nothing here writes; the VS Code layer shows the edit for a person to
// confirm.
import { createHash } from 'node:crypto';

export interface Amendment {
  /** Stable across re-reads of the same rule text (a dismissal is remembered by it). */
  id: string;
  /** The `## ` heading's text: the proposed rule (untrusted). */
  rule: string;
  evidence?: string;
  why?: string;
  /** Other lines under the heading, as written. */
  extra: string[];
  /** 0-based lines of the heading and of the block's last line. */
  line: number;
  endLine: number;
}

/** At most this many proposals are read (learn-on-finish keeps 12). */
export const MAX_AMENDMENTS = 200;
const FIELD = /^\s*[-*]\s+\*\*([^*]+?):?\*\*:?\s*(.*)$/;

export const amendmentId = (rule: string): string => createHash('sha256').update(rule.trim()).digest('hex').slice(0, 16);

/** The proposals of a CHARTER-amendments.md text, in file order. */
export function parseAmendments(text: string): Amendment[] {
  const lines = text.split(/\r?\n/);
  const out: Amendment[] = [];
  let cur: Amendment | undefined;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const h = inFence ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (h && !line.startsWith('###')) {
      if (out.length >= MAX_AMENDMENTS) break;
      cur = { id: amendmentId(h[1]), rule: h[1], extra: [], line: i, endLine: i };
      out.push(cur);
      continue;
    }
    if (!cur || /^#\s/.test(line)) {
      if (/^#\s/.test(line)) cur = undefined;
      continue;
    }
    if (line.trim() === '') continue;
    cur.endLine = i;
    const f = FIELD.exec(line);
    const name = f?.[1].trim().toLowerCase();
    if (f && name === 'evidence') cur.evidence = f[2].trim();
    else if (f && name?.startsWith('why')) cur.why = f[2].trim();
    else cur.extra.push(line);
  }
  return out;
}

/** A rule that forbids: it goes under `## Never`. */
const PROHIBITION = /^\s*(never|don['’]?t|do not|avoid|no\b)/i;

export interface CharterEdit {
  /** Character offset in CHARTER.md the text is inserted at. */
  offset: number;
  /** What is inserted. */
  text: string;
  /** The section it goes into, and whether the edit creates it. */
  section: 'Never' | 'Always';
  createsSection: boolean;
}

/**
 * Where and how a proposal goes into CHARTER.md: a `- <rule>` bullet (the rule on one line) after the last non-blank
 * line of the `## Never` section for a prohibition (when the charter has one), else of `## Always`; with neither, a new
 * `## Always` section appended at the end. Nothing else in the file changes.
 */
export function charterEdit(charter: string, a: Amendment): CharterEdit {
  const rule = a.rule.replace(/\s+/g, ' ').trim();
  const lines = charter.split('\n');
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i].length + 1, i++) starts.push(at);
  /** The offset just after the section's last non-blank line (its newline included, when it has one). */
  const insertAfter = (line: number): { offset: number; lead: string } =>
    line + 1 < lines.length ? { offset: starts[line + 1], lead: '' } : { offset: charter.length, lead: charter.endsWith('\n')
      || charter === '' ? '' : '\n' };
  const sectionEnd = (name: string): number | undefined => {
    const start = lines.findIndex((l) => new RegExp(`^##\\s+${name}\\b`, 'i').test(l));
    if (start < 0) return undefined;
    let last = start;
    for (let i = start + 1; i < lines.length && !/^#{1,2}\s/.test(lines[i]); i++) if (lines[i].trim() !== '') last = i;
    return last;
  };
  const wanted: 'Never' | 'Always' = PROHIBITION.test(rule) ? 'Never' : 'Always';
  for (const section of wanted === 'Never' ? (['Never', 'Always'] as const) : (['Always'] as const)) {
    const last = sectionEnd(section);
    if (last === undefined) continue;
    const { offset, lead } = insertAfter(last);
    return { offset, text: `${lead}- ${rule}\n`, section, createsSection: false };
  }
  const lead = charter === '' ? '' : charter.endsWith('\n\n') ? '' : charter.endsWith('\n') ? '\n' : '\n\n';
  return { offset: charter.length, text: `${lead}## Always\n- ${rule}\n`, section: 'Always', createsSection: true };
}

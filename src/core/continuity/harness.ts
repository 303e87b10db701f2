// Which harness a transcript (and so a run) belongs to: the one home of that answer, for the relaunch loop and the
// live view alike. Where `leopold watch` decides — the first non-blank JSON line of the run's transcript
// (`state.transcript_path`, else the newest Claude Code transcript of this project, else the newest matching Codex
// rollout) — its answer is ours. Where it cannot (no transcript at all, or a first record that names neither), we go
// on with what else is known, in this order: the shape of the transcript's other records (its tail), the file's place
// (under `$CODEX_HOME/sessions/` or the Claude config's `projects/`), `owner.harness` (written by the leopold-run skill
// when it claimed the run), and the run's journal (the harness its relaunches started). The watcher refuses
// `unknown_harness` in those cases; that is the one divergence (README, "Where the extension differs"). And the
// relaunch argv for each harness.
import { promises as fs, constants as fsConstants } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join, resolve, sep } from 'node:path';
import { isJsonObject as isObject, jsonObject } from '../json';
import { transcriptPlace } from '../transcriptPlace';
import { ownerHarness, recordedTranscriptPath } from '../fields';
import { openRegular, readAt } from '../files';

export type Harness = 'claude' | 'codex';

/** Where the harnesses keep their transcripts; injected so tests (and the bench) never read a real home. */
export interface HarnessEnv {
  home: string;
  /** `$CLAUDE_CONFIG_DIR`; default `<home>/.claude`. */
  claudeConfigDir?: string;
  /** `$CODEX_HOME`; default `<home>/.codex`. */
  codexHome?: string;
}

export function harnessEnvFrom(env: NodeJS.ProcessEnv, home: string): HarnessEnv {
  return { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR || undefined, codexHome: env.CODEX_HOME || undefined };
}

const CLAUDE_TYPES = new Set(['assistant', 'user', 'system', 'summary', 'file-history-snapshot']);
/** Longer strings than this are neither a known `type` nor a key we look for: only their length is kept. */
const SMALL = 32;

/**
 * The first record of a transcript classified as it streams by, in memory bounded whatever its length (a Claude
 * Code transcript can start with a multi-megabyte record): a scan of the top-level object's keys (depth 1; nested
 * values, strings and escapes are skipped), which stops as soon as the answer is known. `session_meta` → codex; a
 * Claude Code `type`, or a `sessionId`/`uuid` key → claude; anything else, a first line that is not an object, or one
 * cut off, → unknown. The answer is JSON.parse's for every well-formed record; it is decided before the end of the
 * record, so bytes after that point are not checked (nor are duplicate keys, where JSON.parse keeps the last).
 */
export class FirstRecordClassifier {
  /** Where in the top-level object the scan is: before it, before a key, before `:`, in a value, after a value. */
  private state: 'start' | 'firstKey' | 'key' | 'colon' | 'value' | 'after' = 'start';
  /** null: not decided yet. */
  result: Harness | undefined | null = null;
  private inString = false;
  private escape = 0; // 0: none; 1: after a backslash; 2..5: reading the digits of \uXXXX
  private hex = '';
  private str = ''; // the depth-1 string being read (a key or a value), up to SMALL characters
  private strLong = false;
  private valueStarted = false;
  private depth = 0; // nesting inside a skipped object or array value
  private key: string | undefined; // the current key; undefined when it is longer than SMALL
  private type: string | undefined | null = null; // null: no `type` yet; undefined: not a string, or too long
  private claudeKey = false;

  private decide(h: Harness | undefined): true {
    this.result = h;
    return true;
  }

  /** What the `type` and the keys seen so far decide, if anything yet. */
  private check(atEnd: boolean): void {
    if (this.type === 'session_meta') this.decide('codex');
    else if (typeof this.type === 'string' && CLAUDE_TYPES.has(this.type)) this.decide('claude');
    else if (this.claudeKey && (this.type !== null || atEnd)) this.decide('claude');
    else if (atEnd) this.decide(undefined);
  }

  /** A value at depth 1 ended; `str` holds it when it was a string. */
  private valueEnded(isString: boolean): void {
    if (this.key === 'type') this.type = isString && !this.strLong ? this.str : undefined;
    this.state = 'after';
    this.check(false);
  }

  private startString(): void {
    this.inString = true;
    this.str = '';
    this.strLong = false;
  }

  private addChar(c: string): void {
    if (this.str.length < SMALL) this.str += c;
    else this.strLong = true;
  }

  /** A character inside a string; returns true when it makes the record unreadable. */
  private stringChar(c: string): boolean {
    if (this.escape === 1) {
      this.escape = 0;
      const simple = ESCAPES[c];
      if (c === 'u') {
        this.escape = 2;
        this.hex = '';
      }
      else if (simple !== undefined) this.addChar(simple);
      else return true;
    } else if (this.escape >= 2) {
      if (!/[0-9A-Fa-f]/.test(c)) return true;
      this.hex += c;
      if (++this.escape === 6) {
        this.escape = 0;
        this.addChar(String.fromCharCode(parseInt(this.hex, 16)));
      }
    } else if (c === '\\') this.escape = 1;
    else if (c === '"') {
      this.inString = false;
      if (this.depth === 0 && (this.state === 'key' || this.state === 'firstKey')) {
        this.key = this.strLong ? undefined : this.str;
        if (this.key === 'sessionId' || this.key === 'uuid') this.claudeKey = true;
        this.state = 'colon';
      } else if (this.depth === 0) this.valueEnded(true);
    } else if (c < ' ') return true; // a raw control character (a newline too: the line ends inside a string)
    else this.addChar(c);
    return false;
  }

  /** Feeds the next piece of text; returns true once the answer is known. */
  feed(text: string): boolean {
    for (let i = 0; i < text.length && this.result === null; i++) {
      const c = text[i];
      if (this.inString) {
        if (this.escape === 0 && (this.depth > 0 || this.strLong)) {
          // The content of this string no longer matters: jump to its next quote, backslash or control character.
          STRING_SPECIAL.lastIndex = i;
          const m = STRING_SPECIAL.exec(text);
          if (!m) break;
          i = m.index;
          if (this.stringChar(text[i])) return this.decide(undefined);
          continue;
        }
        if (this.stringChar(c)) return this.decide(undefined);
        continue;
      }
      if (this.state === 'start') {
        if (c.trim() === '') continue; // blank lines and leading blanks (a BOM too), as line.trim() drops them
        if (c !== '{') return this.decide(undefined); // not an object
        this.state = 'firstKey';
        continue;
      }
      if (c === '\n') return this.decide(undefined); // the line ended before the record did
      if (c === ' ' || c === '\t' || c === '\r') {
        if (this.state === 'value' && this.depth === 0 && this.valueStarted) this.valueEnded(false); // `1 ,`
        continue;
      }
      switch (this.state) {
        case 'firstKey':
        case 'key':
          if (c === '"') this.startString();
          else if (c === '}' && this.state === 'firstKey') this.check(true); // {}
          else return this.decide(undefined);
          break;
        case 'colon':
          if (c !== ':') return this.decide(undefined);
          this.state = 'value';
          this.valueStarted = false;
          break;
        case 'value':
          if (this.depth > 0) {
            if (c === '"') this.inString = true;
            else if (c === '{' || c === '[') this.depth++;
            else if ((c === '}' || c === ']') && --this.depth === 0) this.valueEnded(false);
          } else if (!this.valueStarted && c === '"') this.startString();
          else if (!this.valueStarted && (c === '{' || c === '[')) this.depth = 1;
          else if (this.valueStarted && (c === ',' || c === '}')) {
            this.valueEnded(false); // a number, true, false or null ended
            if (this.result === null) this.afterValue(c);
          } else if ('{}[]:,"'.includes(c)) return this.decide(undefined);
          else this.valueStarted = true;
          break;
        case 'after':
          if (!this.afterValue(c)) return this.decide(undefined);
          break;
      }
    }
    return this.result !== null;
  }

  /** `,` (another key) or `}` (the end of the record) after a value. */
  private afterValue(c: string): boolean {
    if (c === ',') this.state = 'key';
    else if (c === '}') this.check(true);
    else return false;
    return true;
  }

  /** The end of the file: a record cut off there is unknown. */
  end(): Harness | undefined {
    return this.result ?? undefined;
  }
}

// eslint-disable-next-line no-control-regex -- the control characters JSON strings must escape
const STRING_SPECIAL = /["\\\u0000-\u001f]/g;
const ESCAPES: Record<string, string | undefined> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Classifies a transcript's first JSON line: `session_meta` → codex; a Claude Code record → claude. */
export function classifyTranscriptLine(line: string | undefined): Harness | undefined {
  const c = new FirstRecordClassifier();
  c.feed(line ?? '');
  return c.end();
}

/**
 * At most this much of a transcript is read to classify its first record: a first line longer than this (a 500 MB
 * line of padding, say) is not a record either harness writes, and reading on would cost its whole size.
 */
export const CLASSIFY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The harness of a transcript, from its first record, read in 64 KiB pieces only until the answer is known, and never
 * past CLASSIFY_MAX_BYTES (then: unknown, and the caller asks the record shapes, the place and the run's records).
 */
export async function classifyTranscript(path: string): Promise<Harness | undefined> {
  let fh: fs.FileHandle | undefined;
  try {
    fh = await fs.open(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    if (!(await fh.stat()).isFile()) return undefined; // a FIFO or a device is no transcript
    const c = new FirstRecordClassifier();
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.alloc(64 * 1024);
    for (let pos = 0; pos < CLASSIFY_MAX_BYTES; ) {
      const { bytesRead } = await fh.read(chunk, 0, Math.min(chunk.length, CLASSIFY_MAX_BYTES - pos), pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      if (c.feed(decoder.write(chunk.subarray(0, bytesRead)))) return c.result ?? undefined;
      if (pos >= CLASSIFY_MAX_BYTES) return undefined; // the first record is still open: not a transcript's
    }
    c.feed(decoder.end());
    return c.end();
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** The first non-blank line of a file (reads at most 1 MiB: transcripts can be hundreds of MiB). */
export async function readFirstLine(path: string): Promise<string | undefined> {
  let fh: fs.FileHandle | undefined;
  try {
    const o = await openRegular(path); // a FIFO named as the transcript would block the open
    if (o.kind !== 'ok') return undefined;
    fh = o.handle;
    const chunk = Buffer.alloc(64 * 1024);
    let text = '';
    for (let pos = 0; pos < 1024 * 1024; ) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      text += chunk.subarray(0, bytesRead).toString('utf8');
      const lines = text.split(/\r?\n/);
      const complete = lines.slice(0, -1).find((l) => l.trim() !== '');
      if (complete !== undefined) return complete.trim();
    }
    return text.trim() === '' ? undefined : text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** Claude Code's project slug: the absolute path with every non-alphanumeric character replaced by `-`. */
export function claudeProjectSlug(projectRoot: string): string {
  return projectRoot.replace(/[^A-Za-z0-9]/g, '-');
}

async function newestFirst(paths: string[]): Promise<string[]> {
  const stats = await Promise.all(paths.map(async (p) => ({ p, m: (await fs.stat(p).catch(() => undefined))?.mtimeMs })));
  return stats.filter((s) => s.m !== undefined).sort((a, b) => b.m! - a.m!).map((s) => s.p);
}

async function listDir(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => [] as string[]);
}

/** The newest `*.jsonl` under `<claude config>/projects/<slug>/`. */
export async function discoverClaudeTranscript(projectRoot: string, env: HarnessEnv): Promise<string | undefined> {
  const dir = join(env.claudeConfigDir || join(env.home, '.claude'), 'projects', claudeProjectSlug(projectRoot));
  const files = (await listDir(dir)).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f));
  return (await newestFirst(files))[0];
}

/** The newest of up to 40 `<codex home>/sessions/*\/*\/*\/rollout-*.jsonl` whose `session_meta.payload.cwd` is the project. */
export async function discoverCodexTranscript(projectRoot: string, env: HarnessEnv): Promise<string | undefined> {
  const sessions = join(env.codexHome || join(env.home, '.codex'), 'sessions');
  const found: string[] = [];
  for (const y of await listDir(sessions)) {
    for (const m of await listDir(join(sessions, y))) {
      for (const d of await listDir(join(sessions, y, m))) {
        const dir = join(sessions, y, m, d);
        for (const f of await listDir(dir)) if (f.startsWith('rollout-') && f.endsWith('.jsonl')) found.push(join(dir, f));
      }
    }
  }
  for (const file of (await newestFirst(found)).slice(0, 40)) {
    const line = await readFirstLine(file);
    const rec = jsonObject(line ?? ''); // not a rollout we can read: skipped
    if (rec?.type === 'session_meta' && (rec.payload as Record<string, unknown> | undefined)?.cwd === projectRoot) return file;
  }
  return undefined;
}

const CODEX_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/**
 * The harness any one record's shape names (not only the first line's): a Codex rollout item is
 * `{timestamp, type: session_meta|turn_context|response_item|event_msg|compacted, payload: {…}}`; a Claude Code record
 * has a Claude Code `type`, or a `sessionId`/`uuid` key. `text` is a whole line, or (`head`) the first bytes of one too
 * long to hold: then the keys written first decide.
 */
export function harnessOfRecord(text: string, head = false): Harness | undefined {
  if (!head) {
    const t = text.trim();
    if (!t.startsWith('{')) return undefined;
    const o = jsonObject(t);
    if (!o) return undefined;
    if (typeof o.type === 'string' && CODEX_TYPES.has(o.type) && isObject(o.payload)) return 'codex';
    if ((typeof o.type === 'string' && CLAUDE_TYPES.has(o.type)) || 'sessionId' in o || 'uuid' in o) return 'claude';
    return undefined;
  }
  if (/^\s*\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"(session_meta|turn_context|response_item|event_msg|compacted)"\s*,\s*"payload"\s*:\s*\{/.test(text)) return 'codex';
  return /^\s*\{/.test(text) && /"(sessionId|uuid|parentUuid)"\s*:/.test(text.slice(0, 4096)) ? 'claude' : undefined;
}

/** The harness the records of a transcript's last `bytes` name (the newest record that names one). */
export async function harnessOfTail(path: string, bytes = 256 * 1024): Promise<Harness | undefined> {
  const o = await openRegular(path).catch(() => undefined);
  if (o?.kind !== 'ok') return undefined;
  try {
    const size = o.stats.size;
    const from = Math.max(0, size - bytes);
    const lines = (await readAt(o.handle, from, size - from)).toString('utf8').split('\n');
    if (from > 0) lines.shift(); // the first is cut
    for (let i = lines.length - 1; i >= 0; i--) {
      const h = harnessOfRecord(lines[i]);
      if (h) return h;
    }
    return undefined;
  } finally {
    await o.handle.close();
  }
}

/** The harness a transcript's place names: under `<codex home>/sessions/`, or under the Claude config's `projects/`. */
export function harnessOfLocation(path: string, env: HarnessEnv): Harness | undefined {
  const p = resolve(path);
  const under = (dir: string) => p.startsWith(resolve(dir) + sep);
  if (under(join(env.codexHome || join(env.home, '.codex'), 'sessions'))) return 'codex';
  if (under(join(env.claudeConfigDir || join(env.home, '.claude'), 'projects'))) return 'claude';
  return undefined;
}

const asHarness = (v: unknown): Harness | undefined => (v === 'claude' || v === 'codex' ? v : undefined);

/** A journal event as the harness reading needs it (any parsed journal event fits). */
export interface HarnessEvent {
  event: string;
  fields: Record<string, unknown>;
}

/**
 * What the run's records say its harness is, without reading a transcript: `owner.harness` (written by the
 * leopold-run skill when it claimed the run), else the newest relaunch in the journal (`window_relaunch`,
 * `api_error_relaunch`: the harness the watcher started) or a `foreign_stop`'s `owner_harness`.
 */
export function recordedHarness(state: Record<string, unknown> | undefined,
  events: readonly HarnessEvent[] = []): { harness: Harness; source: 'owner' | 'journal' } | undefined {
  const owner = asHarness(ownerHarness(state));
  if (owner) return { harness: owner, source: 'owner' };
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    const h = e.event === 'window_relaunch' || e.event === 'api_error_relaunch' ? asHarness(e.fields.harness)
      : e.event === 'foreign_stop' ? asHarness(e.fields.owner_harness) : undefined;
    if (h) return { harness: h, source: 'journal' };
  }
  return undefined;
}

/** Where an answer came from, strongest first (`first-record` is the watcher's own rule). */
export type HarnessSource = 'first-record' | 'record-shape' | 'location' | 'owner' | 'journal';

export interface HarnessAnswer {
  harness?: Harness;
  source?: HarnessSource;
}

/**
 * One transcript's harness: its first record (the watcher's rule), else the shape of its last records, else its
 * place, else the run's records. `tail: false` skips the tail read (the live reader classifies its own tail lines).
 */
export async function transcriptHarness(path: string | undefined, env: HarnessEnv, state?: Record<string, unknown>,
  events?: readonly HarnessEvent[], tail = true): Promise<HarnessAnswer> {
  if (path) {
    const first = await classifyTranscript(path);
    if (first) return { harness: first, source: 'first-record' };
    const shape = tail ? await harnessOfTail(path) : undefined;
    if (shape) return { harness: shape, source: 'record-shape' };
    const place = harnessOfLocation(path, env);
    if (place) return { harness: place, source: 'location' };
  }
  const rec = recordedHarness(state, events);
  return rec ? { harness: rec.harness, source: rec.source } : {};
}

export interface HarnessDetection extends HarnessAnswer {
  /** The transcript that decided it (or the one that could not). */
  transcript?: string;
  /** No harness: what is missing, in words (the refusal's detail). */
  missing?: string;
}

/**
 * `continuity_tick`'s harness step (scripts/leopold-watch.py): `state.transcript_path`, else Claude discovery, else
 * Codex discovery; its first line decides — and where it cannot, what else is known (`transcriptHarness`).
 */
export async function detectHarness(projectRoot: string, state: Record<string, unknown>, env: HarnessEnv,
  events?: readonly HarnessEvent[]): Promise<HarnessDetection> {
  const named = recordedTranscriptPath(state);
  // The state is untrusted: a path it names is read only where transcripts are kept (core/transcriptPlace.ts).
  const place = named === undefined ? undefined : await transcriptPlace(named, projectRoot, env);
  const recorded = place && (place.ok || place.reason === 'missing') ? named : undefined;
  const transcript = recorded ?? (await discoverClaudeTranscript(projectRoot, env)) ?? (await discoverCodexTranscript(projectRoot, env));
  const answer = await transcriptHarness(transcript, env, state, events);
  if (answer.harness) return { ...answer, ...(transcript ? { transcript } : {}) };
  const readable = transcript !== undefined && (await openRegular(transcript).then(async (o) => {
    if (o.kind === 'ok') await o.handle.close();
    return o.kind === 'ok';
  }, () => false));
  const what = !transcript
    ? 'No transcript of this run was found (state.json names none, and no Claude Code or Codex session of this project exists)'
    : readable ? `The transcript ${transcript} names neither Claude Code nor Codex`
      : `The transcript state.json names (${transcript}) is not a readable file`;
  return { ...(transcript ? { transcript } : {}), missing: `${what}, and state.json's owner.harness is empty: nothing says whether to ` +
    `start claude or codex` };
}

export const CODEX_RESUME_PROMPT = 'Use the leopold-run skill to resume the autonomous Leopold run in this project.';

/**
 * `relaunch_argv` (scripts/leopold-watch.py): the headless relaunch command line. `binary` replaces argv[0] (a
 * configured path); the rest is fixed.
 */
export function relaunchArgv(harness: Harness, projectRoot: string, binary: string = harness): string[] {
  if (harness === 'claude') return [binary, '--dangerously-skip-permissions', '-p', '/leopold-run'];
  return [binary, 'exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--sandbox', 'workspace-write', '-C', projectRoot,
    CODEX_RESUME_PROMPT];
}

/** The interactive form a person runs in a terminal: `claude /leopold-run`, or codex with the resume prompt. */
export function interactiveArgv(harness: Harness, binary: string = harness): string[] {
  return harness === 'claude' ? [binary, '/leopold-run'] : [binary, CODEX_RESUME_PROMPT];
}

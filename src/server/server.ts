// The checkpoint language server: maps the core's findings (src/core/checkpoint.ts) to LSP diagnostics, code
// actions, CodeLens, hover, completion, document symbols and formatting. Editor-agnostic: VS Code starts it over
// IPC, Neovim or Helix run `leopold-checkpoint-server --stdio`.
//
// Diagnostics: pull (`textDocument/diagnostic`) when the client advertises it, else pushed. Pushed validation is
// debounced per document and always runs on the latest version: an edit never waits on a stale re-validation.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind, CodeLensRefreshRequest, CompletionItemKind, DiagnosticSeverity, DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind, ErrorCodes, InsertTextFormat, MarkupKind, ResponseError, SymbolKind, TextDocuments,
  TextDocumentSyncKind,
  type CodeAction, type CodeLens, type FoldingRange, type CompletionItem, type Connection, type Diagnostic, type DocumentSymbol,
  type InitializeParams, type InitializeResult, type Position, type Range, type TextEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  SECTIONS, TITLE, fixAll, formatCheckpoint, headingAt, isSection, kindHelp, kindName, lineAtOffset, offsetAt,
  sectionHelp, sectionKind, sectionLens, validateCheckpoint, verdict, type CheckpointCap, type Finding,
  type ParsedCheckpoint, type SectionName, type Span, type Validation,
} from '../core/checkpoint';
import { mdCode, noIcons } from '../core/inert';
import { msg, toLocale, type Locale } from '../core/messages';
import { CapStore, leoDirOf, sameCap } from './caps';
import { guardedSync } from './guard';

export const SERVER_NAME = 'leopold-checkpoint-server';
export const SERVER_VERSION = '0.1.0';
export const DIAGNOSTIC_SOURCE = 'leopold';
export const FIX_ALL_KIND = 'source.fixAll.leopold';
export const DOCS_URL = 'https://github.com/leopold-vscode/leopold-vscode';
/** Push mode: how long after the last edit the document is validated. */
export const DEFAULT_VALIDATE_DELAY_MS = 25;

/** What the VS Code client (or any client) may pass as `initializationOptions`. */
export interface InitOptions {
  /** false: the client sends `workspace/didChangeWatchedFiles` itself; the server registers no watchers. */
  watchFiles?: boolean;
  /** Push-mode debounce. */
  validateDelayMs?: number;
  /** A command the error verdict CodeLens runs (VS Code: `workbench.actions.view.problems`). */
  problemsCommand?: string;
  /**
   * The language of diagnostics, CodeLens, hover and quick-fix titles when the client's `InitializeParams.locale`
   * is not the one wanted (`en`, `pt-br`); otherwise the server follows `InitializeParams.locale`.
   */
  locale?: string;
}

/** The server's language: `initializationOptions.locale`, else the client's `InitializeParams.locale`, else English. */
export function serverLocale(params: Pick<InitializeParams, 'locale' | 'initializationOptions'>): Locale {
  const forced = (params.initializationOptions as InitOptions | undefined)?.locale;
  return toLocale(typeof forced === 'string' && forced !== '' ? forced : params.locale);
}

export function codeHref(code: string): string {
  return `${DOCS_URL}#${code}`;
}

/**
 * Core positions are Leopold's lines (broken at `\n` only); an editor also breaks at a lone CR, so every position
 * goes through its offset in the text.
 */
export function toPosition(doc: TextDocument, p: ParsedCheckpoint, line: number, char: number): Position {
  return doc.positionAt(offsetAt(p, line, char));
}

export function toRange(doc: TextDocument, p: ParsedCheckpoint, s: Span): Range {
  return { start: toPosition(doc, p, s.startLine, s.startChar), end: toPosition(doc, p, s.endLine, s.endChar) };
}

/** The core line of an editor position. */
export function coreLine(doc: TextDocument, p: ParsedCheckpoint, pos: Position): number {
  return lineAtOffset(p, doc.offsetAt(pos));
}

/** At most this many findings get their fixes computed per code-action request (each fix is a whole-text edit). */
export const MAX_FIXED_FINDINGS_PER_REQUEST = 50;

export function toDiagnostic(doc: TextDocument, p: ParsedCheckpoint, f: Finding): Diagnostic {
  return {
    range: toRange(doc, p, f.span),
    severity: f.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: f.code,
    codeDescription: { href: codeHref(f.code) },
    source: DIAGNOSTIC_SOURCE,
    message: f.message,
  };
}

/** One edit that turns `doc`'s text into `next`: the common prefix and suffix stay untouched. */
export function minimalEdit(doc: TextDocument, next: string): TextEdit | undefined {
  const old = doc.getText();
  if (old === next) return undefined;
  const max = Math.min(old.length, next.length);
  let s = 0;
  while (s < max && old.charCodeAt(s) === next.charCodeAt(s)) s++;
  let e = 0;
  while (e < max - s && old.charCodeAt(old.length - 1 - e) === next.charCodeAt(next.length - 1 - e)) e++;
  // Never split a CRLF pair or a surrogate pair.
  const splits = (t: string, i: number) => i > 0 && i < t.length &&
    ((t.charCodeAt(i - 1) === 13 && t.charCodeAt(i) === 10) || (t.charCodeAt(i - 1) & 0xfc00) === 0xd800);
  while (s > 0 && splits(old, s)) s--;
  while (e > 0 && splits(old, old.length - e)) e--;
  return {
    range: { start: doc.positionAt(s), end: doc.positionAt(old.length - e) },
    newText: next.slice(s, next.length - e),
  };
}

interface Cached {
  version: number;
  cap: CheckpointCap;
  v: Validation;
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const caps = new CapStore();
  const cache = new Map<string, Cached>();
  const timers = new Map<string, NodeJS.Timeout>();
  let pull = false;
  let lensRefresh = false;
  let diagnosticRefresh = false;
  let serverWatches = false;
  let options: InitOptions = {};
  let locale: Locale = 'en';

  /** The validation of the document's current version (cached per version and cap). */
  function validationWith(doc: TextDocument, cap: CheckpointCap): Validation {
    const c = cache.get(doc.uri);
    if (c && c.version === doc.version && c.cap === cap) return c.v;
    const v = validateCheckpoint(doc.getText(), cap, locale);
    cache.set(doc.uri, { version: doc.version, cap, v });
    return v;
  }

  async function validation(doc: TextDocument): Promise<Validation> {
    const cap = caps.peek(doc.uri) ?? (await caps.get(doc.uri));
    return validationWith(doc, cap);
  }

  async function push(uri: string): Promise<void> {
    try {
      const doc = documents.get(uri);
      if (!doc) return;
      const version = doc.version;
      const v = await validation(doc);
      if (documents.get(uri) !== doc || doc.version !== version) return; // a newer version is already scheduled
      await connection.sendDiagnostics({ uri, version, diagnostics: v.findings.map((f) => toDiagnostic(doc, v.parsed, f)) });
    } catch (err) {
      connection.console.error(`validating ${uri} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  function schedule(uri: string, delay: number): void {
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    if (delay <= 0) {
      timers.delete(uri);
      void push(uri);
      return;
    }
    timers.set(uri, setTimeout(() => {
      timers.delete(uri);
      void push(uri);
    }, delay));
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    options = (params.initializationOptions ?? {}) as InitOptions;
    locale = serverLocale(params);
    const caps_ = params.capabilities;
    pull = !!caps_.textDocument?.diagnostic;
    diagnosticRefresh = !!caps_.workspace?.diagnostics?.refreshSupport;
    lensRefresh = !!caps_.workspace?.codeLens?.refreshSupport;
    serverWatches = options.watchFiles !== false && !!caps_.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        diagnosticProvider: pull ? { identifier: 'leopold', interFileDependencies: false, workspaceDiagnostics: false } : undefined,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
        codeLensProvider: { resolveProvider: false },
        documentFormattingProvider: true,
        completionProvider: { triggerCharacters: ['#', ' '], resolveProvider: false },
        hoverProvider: true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
      },
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (serverWatches) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/.leopold/GUARDRAILS.md' }, { globPattern: '**/.leopold/state.json' }],
      });
    }
    connection.console.info(`${SERVER_NAME} ${SERVER_VERSION} ready (${pull ? 'pull' : 'push'} diagnostics, ${locale}, ` +
      `${options.watchFiles === false ? 'client file events' : serverWatches ? 'watching cap files' : 'cap files re-read on open'})`);
  });

  documents.onDidOpen((e) => {
    // Unless the server watches the cap files itself, they are re-read whenever a checkpoint is opened (a client
    // that sends file events may not cover a checkpoint outside its workspace).
    if (!serverWatches) {
      const dir = leoDirOf(e.document.uri);
      if (dir) caps.invalidate(dir);
    }
  });

  documents.onDidChangeContent((e) => {
    if (pull) return;
    // The first validation of a document is immediate; edits are debounced.
    const first = !cache.has(e.document.uri);
    schedule(e.document.uri, first ? 0 : options.validateDelayMs ?? DEFAULT_VALIDATE_DELAY_MS);
  });

  documents.onDidClose((e) => {
    const t = timers.get(e.document.uri);
    if (t) clearTimeout(t);
    timers.delete(e.document.uri);
    cache.delete(e.document.uri);
    if (!pull) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onDidChangeWatchedFiles(async (params) => {
    const dirs = new Set<string>();
    for (const c of params.changes) {
      if (!c.uri.startsWith('file:')) continue;
      let file: string;
      try {
        file = fileURLToPath(c.uri);
      } catch {
        continue;
      }
      const base = path.basename(file);
      if (base === 'GUARDRAILS.md' || base === 'state.json') dirs.add(path.dirname(file));
    }
    if (dirs.size === 0) return;
    let changed = false;
    for (const dir of dirs) {
      const open = documents.all().filter((d) => leoDirOf(d.uri) === dir);
      const before = open.map((d) => caps.peek(d.uri));
      caps.invalidate(dir);
      for (let i = 0; i < open.length; i++) {
        const cap = await caps.get(open[i].uri);
        if (sameCap(before[i], cap)) continue;
        changed = true;
        connection.console.info(`cap for ${dir}: ${cap.bytes} bytes (${cap.source}); re-validating ${open[i].uri}`);
        if (!pull) schedule(open[i].uri, 0);
      }
    }
    if (!changed) return;
    if (pull && diagnosticRefresh) void connection.languages.diagnostics.refresh();
    if (lensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type);
  });

  connection.languages.diagnostics.on(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const v = await validation(doc);
    const resultId = `${doc.version}:${v.cap.bytes}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: v.findings.map((f) => toDiagnostic(doc, v.parsed, f)) };
  });

  connection.onCodeAction(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const v = await validation(doc);
    const only = params.context.only;
    // Quick fixes unless `only` excludes them; the fix-all edit only when `only` asks for it (it is a whole-document
    // rewrite: never computed for a cursor's light bulb).
    const wantsQuickFix = !only || only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(`${k}.`) || k === '');
    const wantsFixAll = !!only && only.some((k) => k === FIX_ALL_KIND || FIX_ALL_KIND.startsWith(`${k}.`));
    const actions: CodeAction[] = [];
    const uri = doc.uri;
    const p = v.parsed;
    if (wantsQuickFix) {
      const from = coreLine(doc, p, params.range.start);
      const to = coreLine(doc, p, params.range.end);
      let fixed = 0;
      for (const f of v.findings) {
        if (f.span.endLine < from || f.span.startLine > to || f.fixes.length === 0) continue;
        if (++fixed > MAX_FIXED_FINDINGS_PER_REQUEST) break;
        const diagnostic = toDiagnostic(doc, p, f);
        for (const fix of f.fixes) {
          const edit = minimalEdit(doc, fix.apply());
          if (!edit) continue;
          actions.push({
            title: fix.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            isPreferred: fix.preferred || undefined,
            edit: { changes: { [uri]: [edit] } },
          });
        }
      }
    }
    if (wantsFixAll && v.findings.some((f) => f.fixes.some((x) => x.preferred))) {
      const edit = minimalEdit(doc, fixAll(doc.getText(), v.cap, locale));
      if (edit) actions.push({ title: msg(locale, 'server.fixAll'), kind: FIX_ALL_KIND, edit: { changes: { [uri]: [edit] } } });
    }
    return actions;
  });

  connection.onCodeLens(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const v = await validation(doc);
    const p = v.parsed;
    const at = (line: number): Range => {
      const pos = toPosition(doc, p, line, 0);
      return { start: pos, end: pos };
    };
    const lenses: CodeLens[] = [{
      range: at(p.titles.length ? p.titles[0] : 0),
      command: { title: verdict(v, locale), command: v.errors > 0 && options.problemsCommand ? options.problemsCommand : '' },
    }];
    for (const h of p.headings) {
      const title = sectionLens(p, h, locale);
      if (title) lenses.push({ range: at(h.line), command: { title, command: '' } });
    }
    return lenses;
  });

  connection.onDocumentFormatting(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const r = formatCheckpoint(doc.getText(), locale, caps.peek(doc.uri) ?? (await caps.get(doc.uri)));
    if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.message);
    const edit = minimalEdit(doc, r.text);
    return edit ? [edit] : [];
  });

  connection.onCompletion(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const line = params.position.line;
    const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
    const prefix = text.slice(0, params.position.character);
    const v = await validation(doc);
    const lineEnd = { line, character: text.length };
    const items: CompletionItem[] = [];
    const named = /^(\s*)##(\s+)(\S.*)?$/.exec(prefix);
    const hashes = /^(\s*)#{1,2}$/.exec(prefix);
    if (!named && !hashes) return [];
    const start = named
      ? { line, character: named[1].length + 2 + named[2].length }
      : { line, character: hashes![1].length };
    SECTIONS.forEach((s, i) => {
      const present = v.parsed.sections.has(s) && v.parsed.sections.get(s)!.line !== coreLine(doc, v.parsed, params.position);
      const label = named ? s : `## ${s}`;
      items.push({
        label,
        kind: CompletionItemKind.Module,
        detail: `${kindName(sectionKind(s), locale)}${present ? msg(locale, 'server.completion.present') : ''}`,
        documentation: { kind: MarkupKind.Markdown, value: `${sectionHelp(s, locale)}\n\n${kindHelp(sectionKind(s), locale)}` },
        sortText: `${present ? 1 : 0}${i}`,
        filterText: label,
        insertTextFormat: InsertTextFormat.PlainText,
        textEdit: { range: { start, end: lineEnd }, newText: label },
      });
    });
    if (hashes && v.parsed.titles.length === 0) {
      items.push({
        label: TITLE,
        kind: CompletionItemKind.File,
        detail: msg(locale, 'server.completion.title'),
        sortText: '00',
        filterText: TITLE,
        textEdit: { range: { start, end: lineEnd }, newText: TITLE },
      });
    }
    return items;
  });

  connection.onHover(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    const v = await validation(doc);
    const p = v.parsed;
    const line = coreLine(doc, p, params.position);
    if (p.titles.length && (p.titles[0] === line || (line > p.titles[0] && p.titles.includes(line)))) {
      return {
        contents: { kind: MarkupKind.Markdown, value: p.titles[0] === line
          ? msg(locale, 'server.hover.title', { title: TITLE })
          : msg(locale, 'server.hover.secondTitle') },
      };
    }
    const h = headingAt(p, line);
    if (!h) return null;
    const range: Range = { start: toPosition(doc, p, line, h.hashCol), end: toPosition(doc, p, line, h.nameEnd) };
    if (isSection(h.name)) {
      const s = h.name as SectionName;
      const dup = h.role === 'duplicate' ? `\n\n${msg(locale, 'server.hover.duplicate')}` : '';
      return {
        range,
        contents: { kind: MarkupKind.Markdown,
          value: `${msg(locale, 'server.hover.section', { name: s, index: SECTIONS.indexOf(s) + 1 })}\n\n${sectionHelp(s, locale)}\n\n` +
            `${kindHelp(sectionKind(s), locale)}${dup}` },
      };
    }
    // The heading's own text is the document's: a code span, never markup (no link, image, HTML or command).
    return {
      range,
      contents: { kind: MarkupKind.Markdown,
        value: `${msg(locale, h.role === 'brief' ? 'server.hover.notSectionBrief' : 'server.hover.notSection', { name: mdCode(`## ${h.name}`) })}\n\n` +
          msg(locale, 'server.hover.contract', { list: SECTIONS.map((s) => `\`${s}\``).join(', ') }) },
    };
  });

  connection.onDocumentSymbol(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const v = await validation(doc);
    const p = v.parsed;
    const lastLine = Math.max(0, p.lines.length - 1);
    const symbols: DocumentSymbol[] = p.headings.map((h) => {
      const end = Math.max(h.line, h.bodyEnd - 1);
      return {
        // Symbol names show in quick picks (Go to Symbol), which render `$(icon)`: neutralised.
        name: noIcons(h.name),
        detail: isSection(h.name)
          ? (h.role === 'duplicate' ? msg(locale, 'server.symbol.duplicate') : kindName(sectionKind(h.name as SectionName), locale))
          : msg(locale, 'server.symbol.notSection'),
        kind: SymbolKind.String,
        range: { start: toPosition(doc, p, h.line, 0), end: toPosition(doc, p, end, p.lines[end].length) },
        selectionRange: { start: toPosition(doc, p, h.line, h.hashCol), end: toPosition(doc, p, h.line, h.nameEnd) },
      };
    });
    if (p.titles.length === 0) return symbols;
    const t = p.titles[0];
    return [{
      name: 'Leopold Checkpoint',
      detail: verdict(v, locale),
      kind: SymbolKind.File,
      range: { start: toPosition(doc, p, t, 0), end: toPosition(doc, p, lastLine, p.lines[lastLine].length) },
      selectionRange: { start: toPosition(doc, p, t, 0), end: toPosition(doc, p, t, p.lines[t].length) },
      children: symbols.filter((_, i) => p.headings[i].line > t),
    }, ...symbols.filter((_, i) => p.headings[i].line < t)];
  });

  connection.onFoldingRanges(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const p = (await validation(doc)).parsed;
    const ranges: FoldingRange[] = [];
    for (const h of p.headings) {
      let end = h.bodyEnd - 1;
      while (end > h.line && p.lines[end].trim() === '') end--;
      if (end > h.line) {
        ranges.push({ startLine: toPosition(doc, p, h.line, 0).line, endLine: toPosition(doc, p, end, p.lines[end].length).line });
      }
    }
    return ranges;
  });

  documents.listen(guardedSync(connection));
  // The last line of defence: a failure in a handler is logged, and the server stays up for the next request.
  process.on('unhandledRejection', (err) => {
    connection.console.error(`unhandled: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  });
  connection.listen();
}

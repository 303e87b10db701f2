// What every feature of the checkpoint server shares: the connection, the open documents, the caps, the client's
// settings and locale (settled by `initialize`), what the client supports, and one validation per document version.
import {
  Emitter, TextDocuments, type ClientCapabilities, type Connection, type Event, type InitializeParams,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { validateCheckpoint, type CheckpointCap, type Validation } from '../core/checkpoint';
import { toLocale, type Locale } from '../core/messages';
import { CapStore } from './caps';
import type { InitOptions } from './protocol';

/** A feature registers its handlers when the server starts; the server asks it the rest once the client is known. */
export interface Feature {
  /** What the feature adds to the `initialize` result (called after the context has the client's capabilities). */
  capabilities?(): ServerCapabilities;
  /** After the client's `initialized`. */
  initialized?(): void;
}

/** What the client supports, read once from its `initialize` capabilities. */
export interface ClientSupport {
  /** `textDocument/diagnostic`: the client pulls; otherwise the server pushes. */
  pullDiagnostics: boolean;
  /** `workspace/diagnostic/refresh`. */
  diagnosticRefresh: boolean;
  /** `workspace/codeLens/refresh`. */
  codeLensRefresh: boolean;
  /** The server registers watchers on the cap files itself (`watchFiles` not false, dynamic registration). */
  serverWatchesCapFiles: boolean;
}

export function clientSupport(caps: ClientCapabilities, settings: InitOptions): ClientSupport {
  return {
    pullDiagnostics: !!caps.textDocument?.diagnostic,
    diagnosticRefresh: !!caps.workspace?.diagnostics?.refreshSupport,
    codeLensRefresh: !!caps.workspace?.codeLens?.refreshSupport,
    serverWatchesCapFiles: settings.watchFiles !== false && !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration,
  };
}

/** The server's language: `initializationOptions.locale`, else the client's `InitializeParams.locale`, else English. */
export function serverLocale(params: Pick<InitializeParams, 'locale' | 'initializationOptions'>): Locale {
  const forced = (params.initializationOptions as InitOptions | undefined)?.locale;
  return toLocale(typeof forced === 'string' && forced !== '' ? forced : params.locale);
}

interface Cached {
  version: number;
  cap: CheckpointCap;
  v: Validation;
}

export class ServerContext {
  readonly documents = new TextDocuments(TextDocument);
  readonly caps = new CapStore();
  settings: InitOptions = {};
  locale: Locale = 'en';
  client: ClientSupport = {
    pullDiagnostics: false, diagnosticRefresh: false, codeLensRefresh: false, serverWatchesCapFiles: false,
  };
  private readonly cache = new Map<string, Cached>();
  private readonly capChange = new Emitter<TextDocument[]>();
  /** The cap of these open documents moved (a GUARDRAILS.md or state.json changed): their results are stale. */
  readonly onDidChangeCap: Event<TextDocument[]> = this.capChange.event;

  constructor(readonly connection: Connection) {
    this.documents.onDidClose((e) => this.cache.delete(e.document.uri));
  }

  initialize(params: InitializeParams): void {
    this.settings = (params.initializationOptions ?? {}) as InitOptions;
    this.locale = serverLocale(params);
    this.client = clientSupport(params.capabilities, this.settings);
  }

  /** The validation of the document's current version (cached per version and cap). */
  private validationWith(doc: TextDocument, cap: CheckpointCap): Validation {
    const c = this.cache.get(doc.uri);
    if (c && c.version === doc.version && c.cap === cap) return c.v;
    const v = validateCheckpoint(doc.getText(), cap, this.locale);
    this.cache.set(doc.uri, { version: doc.version, cap, v });
    return v;
  }

  async validation(doc: TextDocument): Promise<Validation> {
    // The known cap without an await (the fast path), else read from the files beside the document.
    const cap = this.caps.peek(doc.uri) ?? (await this.caps.get(doc.uri));
    return this.validationWith(doc, cap);
  }

  /** Whether some version of the document has been validated since it was opened. */
  validated(uri: string): boolean {
    return this.cache.has(uri);
  }

  capChanged(docs: TextDocument[]): void {
    if (docs.length > 0) this.capChange.fire(docs);
  }
}

// The core's one mechanism for the sentences it renders for a person, in English and Brazilian Portuguese:
// `msg(locale, key, args)` with `{name}` placeholders and `msgN` for counted nouns (`key.one` / `key.other`), bound to a
// catalog by `messages(EN, PT_BR)`. Each folder owns its catalog (core/<folder>/messages.ts; the loose files' is
// core/words.ts) and uses its own `msg`; core/messages.ts, on the top floor, gathers them all for the server, the CLI and
// the VS Code layer. English is the default and is byte-identical to the strings the tests and the contract pin;
// `pt-br` follows the vocabulary of Leopold's own Portuguese documentation (janela de contexto, checkpoint,
// fotografia, livro-razão, teto, relançar, retomar).
//
// Never translated, in either language: section names (`In-Flight Item`…), event names, stop reasons, verdict
// strings written to disk, state.json fields, file names — they are contract identifiers and appear verbatim.
// Adding a string: add the key to the catalog's EN and PT_BR (the compiler refuses a missing Portuguese key; the unit
// test `l10n.test.ts` also checks that both sides use the same placeholders and that no key is in two catalogs).

export type Locale = 'en' | 'pt-br';
export const LOCALES: readonly Locale[] = ['en', 'pt-br'];

/** A BCP 47 tag from a client or VS Code (`pt-br`, `pt-BR`, `pt`, `pt_BR`, `en-us`…) → a catalog locale. */
export function toLocale(tag: string | undefined | null): Locale {
  const t = (tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  return t === 'pt' || t.startsWith('pt-') ? 'pt-br' : 'en';
}

/** The locale of a command-line run: LC_ALL, LC_MESSAGES or LANG (`pt_BR.UTF-8` → pt-br), else English. */
export function envLocale(env: NodeJS.ProcessEnv): Locale {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return toLocale(tag.split('.')[0]);
}

export type MessageArgs = Readonly<Record<string, string | number | undefined>>;

/** The base of a counted pair of keys (`key.one` / `key.other`) among `K`: what `msgN` takes. */
export type CountedOf<K extends string> = Counted<K, K>;
type Counted<T, K> = T extends `${infer B}.one` ? (`${B}.other` extends K ? B : never) : never;

/** A catalog bound to the mechanism: its two languages, and `msg`/`msgN` over its keys. */
export interface Messages<K extends string> {
  readonly catalog: Readonly<Record<Locale, Readonly<Record<K, string>>>>;
  /** The message `key` in `locale` with `{name}` placeholders filled (an unknown placeholder is left as written). */
  readonly msg: (locale: Locale | undefined, key: K, args?: MessageArgs) => string;
  /** A counted message: `key.one` or `key.other`, chosen by `Intl.PluralRules` for the locale (pluralCategory). */
  readonly msgN: (locale: Locale | undefined, key: CountedOf<K>, count: number, args?: MessageArgs) => string;
}

/** Each message split once at its placeholders: [text, name, text, name, …, text] (msg runs per finding). */
const TEMPLATES = new Map<string, string[]>();

/** `s` with its `{name}` placeholders filled from `args` (an unknown one is left as written). */
export function fill(s: string, args?: MessageArgs): string {
  if (!args) return s;
  let parts = TEMPLATES.get(s);
  if (!parts) TEMPLATES.set(s, (parts = s.split(/\{(\w+)\}/)));
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const v = args[parts[i]];
    out += (v !== undefined ? String(v) : `{${parts[i]}}`) + parts[i + 1];
  }
  return out;
}

/** The catalog `en`/`ptBr` with its `msg` and `msgN`. */
export function messages<K extends string>(en: Readonly<Record<K, string>>, ptBr: Readonly<Record<K, string>>): Messages<K> {
  const catalog: Readonly<Record<Locale, Readonly<Record<K, string>>>> = { en, 'pt-br': ptBr };
  const msg = (locale: Locale | undefined, key: K, args?: MessageArgs): string =>
    fill(catalog[locale ?? 'en']?.[key] ?? en[key], args);
  const msgN = (locale: Locale | undefined, key: CountedOf<K>, count: number, args?: MessageArgs): string =>
    msg(locale, `${key}.${pluralCategory(locale, count)}` as K, { count, ...args });
  return { catalog, msg, msgN };
}

const PLURALS: Readonly<Record<Locale, Intl.PluralRules>> = { en: new Intl.PluralRules('en'), 'pt-br': new Intl.PluralRules('pt-BR') };

/** `one` or `other` for `count` by the language's own rule (CLDR): English `0 items`, Portuguese `0 item` (0 and 1 are singular). */
export function pluralCategory(locale: Locale | undefined, count: number): 'one' | 'other' {
  return PLURALS[locale ?? 'en'].select(count) === 'one' ? 'one' : 'other';
}

/** A decimal for a person: `1.5` in English, `1,5` in Portuguese. */
export function decimal(locale: Locale | undefined, text: string): string {
  return locale === 'pt-br' ? text.replace('.', ',') : text;
}

/** The placeholders a message uses, sorted (for the catalog's consistency test). */
export function placeholders(s: string): string[] {
  return [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

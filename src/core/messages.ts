// Every catalog of the core gathered into one, for the layers above it: the language server, leopold-status (src/cli/)
// and the VS Code layer render any of the core's sentences with this `msg`/`msgN`. Inside the core each folder uses its
// own catalog (core/<folder>/messages.ts, core/words.ts for the loose files) and the mechanism (core/l10n.ts): this
// module is on the top floor (eslint.config.mjs, CORE_FLOORS), and no module of the core imports it.

import { messages, type CountedOf } from './l10n';
import { WORDS_EN, WORDS_PT_BR } from './words';
import { CHECKPOINT_EN, CHECKPOINT_PT_BR } from './checkpoint/messages';
import { CONTINUITY_EN, CONTINUITY_PT_BR } from './continuity/messages';
import { LIVE_EN, LIVE_PT_BR } from './live/messages';
import { STATUS_EN, STATUS_PT_BR } from './agent/messages';
import { DRIVER_EN, DRIVER_PT_BR } from './driver/messages';
import { REVIEW_EN, REVIEW_PT_BR } from './review/messages';

export {
  decimal, envLocale, LOCALES, placeholders, pluralCategory, toLocale, type Locale, type MessageArgs,
} from './l10n';

/** Each catalog by its owner, English and Portuguese (l10n.test.ts: no key in two of them). */
export const CATALOGS = {
  words: [WORDS_EN, WORDS_PT_BR],
  checkpoint: [CHECKPOINT_EN, CHECKPOINT_PT_BR],
  continuity: [CONTINUITY_EN, CONTINUITY_PT_BR],
  live: [LIVE_EN, LIVE_PT_BR],
  agent: [STATUS_EN, STATUS_PT_BR],
  driver: [DRIVER_EN, DRIVER_PT_BR],
  review: [REVIEW_EN, REVIEW_PT_BR],
} as const satisfies Record<string, readonly [Readonly<Record<string, string>>, Readonly<Record<string, string>>]>;

const EN = { ...WORDS_EN, ...CHECKPOINT_EN, ...CONTINUITY_EN, ...LIVE_EN, ...STATUS_EN, ...DRIVER_EN, ...REVIEW_EN };
const PT_BR: Record<keyof typeof EN, string> = {
  ...WORDS_PT_BR, ...CHECKPOINT_PT_BR, ...CONTINUITY_PT_BR, ...LIVE_PT_BR, ...STATUS_PT_BR, ...DRIVER_PT_BR, ...REVIEW_PT_BR,
};

export type MessageKey = keyof typeof EN;
export type CountedKey = CountedOf<MessageKey>;
const ALL = messages(EN, PT_BR);
export const CATALOG = ALL.catalog;
export const { msg, msgN } = ALL;

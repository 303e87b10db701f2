// The CHECKPOINT.md contract (Leopold's packages/driver/src/checkpoint.ts) as the rest of the code sees it: the
// words of the contract (contract.ts), the one parser (parse.ts), the cap (cap.ts), the rules — one file each under
// rules/, listed in registry.ts — run by validate.ts, the quick fixes (fixes.ts) and Fix All (fixAll.ts), the
// canonical form and the CodeLens words (format.ts). Pure TypeScript: no `vscode`, no LSP types, no Node APIs. The
// server, the CLI, the doctor and the Runs tree all consume this one parser and these rules.
export * from './contract';
export * from './parse';
export * from './cap';
export * from './registry';
export * from './validate';
export * from './format';
export { fixAll } from './fixAll';
export {
  dropLine, earlierViewMarker, insertMissingSections, insertTitle, intendedSections, mergeDuplicate, misspelledSections,
  moveTitleFirst, quoteHeading, renameHeading, reorderSections, toLf, type MergeMode,
} from './fixes';
export type { Fix, Report, Rule, Severity, Span } from './rule';

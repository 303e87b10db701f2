// The review core (src/core/review/), loaded from dist/status.js — the leopold-status bundle already carries it and
// exports it (src/cli/main.ts; requiring that file runs nothing) — so that dist/extension.js does not carry a second
// copy: the .vsix stays within its size budget. Types come from the sources; only the values come from the bundle.
import { join } from 'node:path';

export type ReviewCore = typeof import('../../core/review/review') & typeof import('../../core/review/read')
  & typeof import('../../core/review/markdown');

let core: ReviewCore | undefined;

export function reviewCore(extensionPath: string): ReviewCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle's exports, loaded on first use
  return (core ??= require(join(extensionPath, 'dist', 'status.js')) as ReviewCore);
}

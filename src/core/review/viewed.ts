// "Viewed" marks of a review's files (issue 33, item 8), as the GitHub Pull Requests extension keeps them: a person
// ticks a file once looked at; the mark holds while the file is as it was then, and drops when the window changes it
// again. Pure: the VS Code layer keeps the store in workspace state, one entry per review (a window, or a run's report).
import type { FileReview } from './review';

/** Per review, per file path: the file's version when it was marked. */
export type ViewedStore = Record<string, Record<string, string>>;

/** At most this many reviews keep marks (the oldest marked first go). */
export const MAX_VIEWED_REVIEWS = 200;

/** Which review a mark belongs to: the project, the run (archived, or '' for the current one), the window or the report. */
export const viewedKey = (root: string, run: string | undefined, window: number | undefined) =>
  `${root}\0${run ?? ''}\0${window ?? 'report'}`;

/** A file's version: its change as the review sees it (a file changed again reads as not viewed). */
export const fileVersion = (f: Pick<FileReview, 'status' | 'afterSha256' | 'added' | 'removed' | 'edits'>) =>
  `${f.status}:${f.afterSha256 ?? ''}:${f.added}:${f.removed}:${f.edits}`;

/** The paths of `files` marked as viewed in `key`'s review and unchanged since. */
export function viewedPaths(store: ViewedStore | undefined, key: string, files: readonly FileReview[]): string[] {
  const marks = store?.[key];
  if (!marks) return [];
  return files.filter((f) => Object.hasOwn(marks, f.path) && marks[f.path] === fileVersion(f)).map((f) => f.path);
}

/** The store with `path` marked (or unmarked); a new object, its review moved to the newest, bounded. */
export function markViewed(store: ViewedStore | undefined, key: string, file: FileReview, viewed: boolean): ViewedStore {
  const marks = { ...(store?.[key] ?? {}) };
  if (viewed) marks[file.path] = fileVersion(file);
  else delete marks[file.path];
  const rest = Object.entries(store ?? {}).filter(([k]) => k !== key);
  const kept = Object.keys(marks).length ? [...rest, [key, marks] as const] : rest;
  return Object.fromEntries(kept.slice(-MAX_VIEWED_REVIEWS));
}

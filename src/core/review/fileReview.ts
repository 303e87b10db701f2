// One file of a window's review: its shape, shared by the transcript's review (review.ts) and the snapshots'
// (fromSnapshots.ts), in a module of its own so that neither imports the other both ways.

export type FileStatus = 'added' | 'modified' | 'deleted' | 'unknown';

export interface FileReview {
  /** Relative to the project when inside it, else absolute. */
  path: string;
  /** Absolute. */
  abs: string;
  status: FileStatus;
  reason?: string;
  outside: boolean;
  added: number;
  removed: number;
  beforeSha256: string | null;
  afterSha256: string | null;
  /** Edit records of this file in the window. */
  edits: number;
  /** The tool calls and commands of the window's transcript that touched it (their tool, or the command's text). */
  by?: string[];
  /** From snapshots: the window's transcript never names it (a person's edit, a tool's side effect). */
  noRecordedEdit?: boolean;
  /** From snapshots: a binary file (hashed, no lines counted, no diff shown). */
  binary?: boolean;
}

// One snapshot recorder per Leopold project (core/snapshots/recorder.ts), behind `leopold.snapshots.enabled` and
// Workspace Trust: in Restricted Mode nothing is recorded (git is a process). Where the store lives and how big it may
// grow are machine settings (`leopold.snapshots.directory`, `.maxStorageMB`, `.maxFileMB`), read from the user's or
// the remote machine's settings only (`inspect().globalValue`): a repository's `.vscode/settings.json` never chooses
// where this extension writes. Without `leopold.snapshots.directory` the store is the per-user state folder that
// `leopold-status` finds too (`$LEOPOLD_SNAPSHOTS_DIR`, else `$XDG_STATE_HOME/leopold/snapshots`).
import * as vscode from 'vscode';
import * as config from './config';
import type { LeopoldContext } from './context';
import type { LeopoldProject } from './projects';
import { SnapshotRecorder } from '../../core/snapshots/recorder';
import { DEFAULT_SIZE_CAP_BYTES, DEFAULT_STORAGE_CAP_BYTES, SnapshotStore, snapshotsRoot } from '../../core/snapshots/store';

const MB = 1024 * 1024;

export interface SnapshotSettings {
  enabled: boolean;
  root: string;
  storageCapBytes: number;
  sizeCapBytes: number;
}

function machineNumber(key: 'snapshots.maxStorageMB' | 'snapshots.maxFileMB', fallback: number): number {
  const v = config.snapshotsCapMB(key);
  return v !== undefined ? v * MB : fallback;
}

/** The snapshot settings for a project's folder. */
export function snapshotSettings(folder?: vscode.WorkspaceFolder): SnapshotSettings {
  return {
    enabled: config.snapshotsEnabled(folder),
    root: config.snapshotsDirectory() ?? snapshotsRoot(process.env),
    storageCapBytes: machineNumber('snapshots.maxStorageMB', DEFAULT_STORAGE_CAP_BYTES),
    sizeCapBytes: machineNumber('snapshots.maxFileMB', DEFAULT_SIZE_CAP_BYTES),
  };
}

export class SnapshotRecorders {
  private readonly byRoot = new Map<string, { key: string; recorder: SnapshotRecorder }>();
  private readonly tookBack = new vscode.EventEmitter<LeopoldProject>();
  /** A take-back was kept in a project's store (the Run Timeline draws it). */
  readonly onDidTakeBack = this.tookBack.event;

  constructor(private readonly ctx: LeopoldContext) {
    ctx.extension.subscriptions.push(this.tookBack);
  }

  /** Says that a take-back was kept in the project's store. */
  keptTakeBack(project: LeopoldProject): void {
    this.tookBack.fire(project);
  }

  /**
   * The project's store (the recorder's, so its settings), opened even where recording is switched off: what was
   * recorded can still be taken back and shown. NoGitError when git is not there.
   */
  async storeOf(project: LeopoldProject): Promise<SnapshotStore> {
    const recorder = this.recorderFor(project);
    if (recorder) return recorder.open();
    const s = snapshotSettings(project.folder);
    return SnapshotStore.open({ projectDir: project.root, root: s.root, sizeCapBytes: s.sizeCapBytes });
  }

  /** The project's recorder, or none (switched off, or an untrusted workspace). Rebuilt when the settings change. */
  recorderFor(project: LeopoldProject): SnapshotRecorder | undefined {
    if (!this.ctx.isTrusted()) return undefined;
    const s = snapshotSettings(project.folder);
    if (!s.enabled) return undefined;
    const key = `${s.root}|${s.storageCapBytes}|${s.sizeCapBytes}`;
    const had = this.byRoot.get(project.root);
    if (had?.key === key) return had.recorder;
    const recorder = new SnapshotRecorder({
      projectDir: project.root, root: s.root, sizeCapBytes: s.sizeCapBytes, storageCapBytes: s.storageCapBytes,
      log: (level, line) => this.ctx.log[level](`${project.name}: ${line}`),
    });
    this.byRoot.set(project.root, { key, recorder });
    return recorder;
  }

  /** Every recorder made so far (the doctor, the tests). */
  all(): SnapshotRecorder[] {
    return [...this.byRoot.values()].map((e) => e.recorder);
  }

  /** Waits for every recording started so far. */
  async idle(): Promise<void> {
    await Promise.all(this.all().map((r) => r.idle()));
  }
}

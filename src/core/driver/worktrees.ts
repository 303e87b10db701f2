// The git worktrees of a repository, found by reading git's own files — never by running git: the core may not spawn
// in an untrusted workspace, and reading is enough. A repository's common git directory holds one admin folder per
// linked worktree, `<common>/worktrees/<name>/`, with `gitdir` (the path of the worktree's `.git` file), `HEAD`
// (`ref: refs/heads/<branch>`, or a detached commit) and `locked` when it is locked. The driver's worktrees are
// siblings of the repository on `leopold/run-<6hex>-i<N>` (a `--parallel` item) or `leopold/run-<8hex>` (a serial
// `--worktree` run) branches (leopold-driver.md §5). Every read is bounded: small regular files only, a capped count.
import { promises as fs } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { readText, statPath } from '../files';
import { leopoldBranch, type LeopoldBranch } from './run';
import { pushAll } from '../arrays';

/** At most this many linked worktrees are read (the rest are counted). */
export const MAX_WORKTREES = 256;
/** The small git files read here (`gitdir`, `HEAD`, `commondir`, `locked`, a `.git` file) are at most this big. */
const SMALL = 4096;
/** How far up from a folder a `.git` is looked for. */
const MAX_UP = 40;

export interface GitLocation {
  /** The folder holding `.git` (the worktree's root). */
  root: string;
  /** This worktree's git directory (`<root>/.git`, or `<common>/worktrees/<name>` for a linked worktree). */
  gitDir: string;
  /** The repository's common git directory: the same for the main worktree and every linked one. */
  commonDir: string;
  /** `root` is a linked worktree (its `.git` is a file). */
  linked: boolean;
}

const firstLine = (text: string | undefined) => text?.split('\n')[0].trim() || undefined;

/**
 * Where the git repository of `folder` is: the nearest `.git` at or above it (a directory, or a `gitdir: <path>` file
 * of a linked worktree), and its common directory (`commondir`, relative to the git directory). Undefined outside a
 * repository.
 */
export async function gitLocation(folder: string): Promise<GitLocation | undefined> {
  let dir = resolve(folder);
  for (let i = 0; i < MAX_UP; i++) {
    const dotGit = join(dir, '.git');
    const st = await statPath(dotGit).catch(() => undefined);
    if (st?.isDirectory()) return { root: dir, gitDir: dotGit, commonDir: await commonDirOf(dotGit), linked: false };
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+)$/.exec(firstLine(await readText(dotGit, SMALL)) ?? '');
      if (m) {
        const gitDir = isAbsolute(m[1]) ? m[1] : resolve(dir, m[1]);
        return { root: dir, gitDir, commonDir: await commonDirOf(gitDir), linked: true };
      }
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

async function commonDirOf(gitDir: string): Promise<string> {
  const c = firstLine(await readText(join(gitDir, 'commondir'), SMALL));
  return c ? (isAbsolute(c) ? c : resolve(gitDir, c)) : gitDir;
}

/** What one worktree's HEAD says: a branch, or a detached commit. */
export async function readHead(gitDir: string): Promise<{ branch?: string; commit?: string }> {
  const head = firstLine(await readText(join(gitDir, 'HEAD'), SMALL));
  if (!head) return {};
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  if (ref) return { branch: ref[1] };
  return /^[0-9a-f]{40,64}$/.test(head) ? { commit: head } : {};
}

export interface GitWorktree {
  /** The worktree's folder (from its admin `gitdir` file). */
  path: string;
  /** The admin folder's name under `<common>/worktrees/`. */
  name: string;
  branch?: string;
  commit?: string;
  /** The folder is there and still points back at this admin folder. */
  exists: boolean;
  /** `git worktree lock`ed (the reason, or true). */
  locked?: string | true;
  /** A driver branch: the run's id and, for a parallel item, its index. */
  leopold?: LeopoldBranch;
}

export interface Repository {
  /** The common git directory, resolved (the identity of the repository). */
  commonDir: string;
  /** The main worktree's folder (the common directory's parent when it is a `.git` folder). */
  mainRoot?: string;
  mainBranch?: string;
  worktrees: GitWorktree[];
  /** Linked worktrees not read (more than MAX_WORKTREES). */
  more: number;
}

/** Every linked worktree of the repository `folder` belongs to, with its branch and whether its folder is still there. */
export async function readRepository(folder: string): Promise<Repository | undefined> {
  const loc = await gitLocation(folder);
  if (!loc) return undefined;
  const commonDir = await fs.realpath(loc.commonDir).catch(() => loc.commonDir);
  const mainRoot = basename(commonDir) === '.git' ? dirname(commonDir) : undefined;
  const mainBranch = (await readHead(commonDir)).branch;
  const admin = join(commonDir, 'worktrees');
  const names = (await fs.readdir(admin, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const read = async (name: string): Promise<GitWorktree | undefined> => {
    const dir = join(admin, name);
    const target = firstLine(await readText(join(dir, 'gitdir'), SMALL));
    if (!target) return undefined;
    const dotGit = isAbsolute(target) ? target : resolve(dir, target);
    const path = dirname(dotGit);
    const [head, backText, lockedText] = await Promise.all([readHead(dir), readText(dotGit, SMALL), readText(join(dir, 'locked'), SMALL)]);
    // The folder exists and its `.git` file names this admin folder back (else git would call it prunable).
    const back = /^gitdir:\s*(.+)$/.exec(firstLine(backText) ?? '');
    const backDir = back ? (isAbsolute(back[1]) ? back[1] : resolve(path, back[1])) : undefined;
    const real = (p: string) => fs.realpath(p).catch(() => p);
    const exists = backDir !== undefined && (backDir === dir || (await real(backDir)) === (await real(dir)));
    const locked = lockedText === undefined ? undefined : lockedText.trim() || true;
    return { path, name, branch: head.branch, commit: head.commit, exists, locked, leopold: leopoldBranch(head.branch) };
  };
  // A few at a time: each is a handful of small reads.
  const wanted = names.slice(0, MAX_WORKTREES);
  const found: (GitWorktree | undefined)[] = [];
  for (let i = 0; i < wanted.length; i += 16) pushAll(found, await Promise.all(wanted.slice(i, i + 16).map(read)));
  const worktrees = found.filter((w): w is GitWorktree => w !== undefined);
  return { commonDir, mainRoot, mainBranch, worktrees, more: Math.max(0, names.length - MAX_WORKTREES) };
}

/** The identity several folders of one repository share (its common git directory, resolved); undefined outside git. */
export async function repositoryKey(folder: string): Promise<string | undefined> {
  const loc = await gitLocation(folder);
  return loc ? fs.realpath(loc.commonDir).catch(() => loc.commonDir) : undefined;
}

/** The driver's worktrees of a repository, by run id: parallel items in index order, a serial run's one worktree. */
export function driverWorktrees(repo: Repository): Map<string, GitWorktree[]> {
  const out = new Map<string, GitWorktree[]>();
  for (const w of repo.worktrees) {
    if (!w.leopold) continue;
    const list = out.get(w.leopold.runId) ?? [];
    list.push(w);
    out.set(w.leopold.runId, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a.leopold?.index ?? 0) - (b.leopold?.index ?? 0));
  return out;
}

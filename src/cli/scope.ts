// Which projects and files `leopold-status --mcp` may read: the directory it was started for and the `--allow`ed
// ones, compared by their real paths (a symlink inside that points outside is outside). An MCP client is an agent
// acting on what it read: a path it was handed must not turn the server into a reader of the whole disk.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ToolInputError } from '../core/agent/tools';

async function real(p: string): Promise<string | undefined> {
  return fs.realpath(p).catch(() => undefined);
}

export class ProjectScope {
  private constructor(readonly base: string, readonly allowed: readonly string[]) {}

  /** `dir` (the server's project directory) and the `--allow`ed directories, as real paths (a missing one is dropped). */
  static async create(dir: string, allow: readonly string[]): Promise<ProjectScope> {
    const base = (await real(dir)) ?? path.resolve(dir);
    const allowed = [base];
    for (const a of allow) {
      const r = await real(a);
      if (r && !allowed.includes(r)) allowed.push(r);
    }
    return new ProjectScope(base, allowed);
  }

  /** True when the real path `p` is an allowed directory or lies below one. */
  contains(p: string): boolean {
    return this.allowed.some((a) => p === a || p.startsWith(a.endsWith(path.sep) ? a : a + path.sep));
  }

  private refuse(p: string): never {
    throw new ToolInputError(`${p} is outside the directories this server reads (${this.allowed.join(', ')}); start it with --allow DIR ` +
      `to add one`);
  }

  /** The project a tool input names (default: the server's own directory), as a real path holding `.leopold/`. */
  async project(arg: string | undefined): Promise<string> {
    const asked = path.resolve(this.base, arg ?? '.');
    const r = await real(asked);
    if (!r) throw new ToolInputError(`no such directory: ${asked}`);
    if (!this.contains(r)) this.refuse(asked);
    const leo = await fs.stat(path.join(r, '.leopold')).catch(() => undefined);
    if (!leo?.isDirectory()) throw new ToolInputError(`no Leopold project at ${r} (no .leopold/ folder)`);
    return r;
  }

  /** A file a tool input names, relative to `projectDir`, as a real path inside the allowed directories. */
  async file(arg: string, projectDir: string): Promise<string> {
    const asked = path.resolve(projectDir, arg);
    // A missing file is reported by the check itself; its folder still has to be inside.
    const r = (await real(asked)) ?? path.join((await real(path.dirname(asked))) ?? path.dirname(asked), path.basename(asked));
    if (!this.contains(r)) this.refuse(asked);
    return r;
  }
}

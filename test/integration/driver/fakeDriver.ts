// A fake SDK driver for the `driver` scenario: a real child process that writes the journal and drains
// `.leopold/commands.jsonl` the way `leopold run` does (leopold-driver.md §1.3): read the whole file, keep the
// lines the driver's parser keeps, delete the file (only when a valid command was read), journal one `command` event
// per command, then go on with the next item. Driven line by line on stdin so the test decides every step:
//   drain                 read, delete, acknowledge
//   slowdrain <ms>        read, print "read", wait <ms> (the window in which an append is lost), delete, acknowledge
//   event <json>          append one journal line {ts, ...json}
//   exit
// Its own implementation of the driver's rules (not the extension's parser): the two must agree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';

const leoDir = process.argv[2];
const journal = path.join(leoDir, 'events.jsonl');
const commands = path.join(leoDir, 'commands.jsonl');
const KINDS = ['approve', 'redirect', 'inject', 'kill-item', 'rerun-item'];

const log = (event: Record<string, unknown>) => fs.appendFileSync(journal, `${JSON.stringify({ ts: new Date().toISOString(), ...event })}\n`);

function read(): Record<string, unknown>[] {
  let text = '';
  try { text = fs.readFileSync(commands, 'utf8'); } catch { return []; }
  const out: Record<string, unknown>[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    let o: unknown;
    try { o = JSON.parse(line); } catch { continue; }
    if (!o || typeof o !== 'object' || Array.isArray(o)) continue;
    const c = o as Record<string, unknown>;
    if (typeof c.cmd !== 'string' || !KINDS.includes(c.cmd)) continue;
    out.push({ cmd: c.cmd, index: typeof c.index === 'number' && c.index >= 1 ? Math.floor(c.index) : null, item: typeof c.item === 'string' ? c.item.slice(0, 300) : null });
  }
  return out;
}

function finish(parsed: Record<string, unknown>[]): void {
  if (parsed.length === 0) return;
  fs.rmSync(commands, { force: true });
  for (const c of parsed) log({ event: 'command', ...c });
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [verb, ...rest] = line.split(' ');
  const arg = rest.join(' ');
  if (verb === 'drain') {
    finish(read());
    process.stdout.write('drained\n');
  } else if (verb === 'slowdrain') {
    const parsed = read();
    process.stdout.write('read\n');
    setTimeout(() => {
      finish(parsed);
      process.stdout.write('drained\n');
    }, Number(arg));
  } else if (verb === 'event') {
    log(JSON.parse(arg) as Record<string, unknown>);
    process.stdout.write('logged\n');
  } else if (verb === 'exit') {
    process.exit(0);
  }
});

// A stand-in for the extension host in the Stop-now tests (not a test file): a process placed below the agent, or in
// its process group, as VS Code is when it was started from the agent's shell. It verifies the agent's pid the way
// Stop now does and, when `force` is given, ends the agent's tree even if the verification refused (the last line
// of defence must still spare this process). Writes what it saw as JSON, then stays alive a moment so the test can
// tell whether it survived. Usage: node stopNowChild.js <pid> <root> <claimedMs> <out> [force]
import { writeFileSync } from 'node:fs';
import { endProcessTree, procInfo, verifyOwnerPid } from '../../../../src/core/continuity/proc';

const [pid, root, claimed, out, force] = process.argv.slice(2);
void (async () => {
  const check = await verifyOwnerPid(Number(pid), root, Number(claimed), Date.now());
  let ended;
  if (check.ok) ended = await endProcessTree(check.info, 500);
  else if (force) {
    const info = await procInfo(Number(pid));
    if (info) ended = await endProcessTree(info, 500);
  }
  const seen = check.ok ? { ok: true } : { ok: false, code: check.code, reason: check.reason };
  writeFileSync(out, JSON.stringify({ self: process.pid, check: seen, ended }));
  setTimeout(() => undefined, 1500);
})();

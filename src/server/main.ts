// Entry point of the checkpoint language server: `node dist/server.js --stdio` (any LSP client) or `--node-ipc`
// (VS Code). Also published as the `leopold-checkpoint-server` bin.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { runCheck } from './check';
import { SERVER_NAME } from './protocol';
import { SERVER_VERSION, startServer } from './server';

const args = process.argv.slice(2);
const USAGE = `${SERVER_NAME} ${SERVER_VERSION} — the Leopold CHECKPOINT.md language server

usage: ${SERVER_NAME} --stdio            speak LSP over stdin/stdout (Neovim, Helix, any LSP client)
       ${SERVER_NAME} --node-ipc         speak LSP over Node IPC (how VS Code starts it)
       ${SERVER_NAME} --socket=<port>    speak LSP over a TCP socket
       ${SERVER_NAME} --check [--format text|json] [FILE…]
                                         check checkpoints (default .leopold/CHECKPOINT.md) with the cap beside
                                         each; prints file:line:col: severity code message; exit 1 on any error
       ${SERVER_NAME} --version | --help
`;

const check = args.indexOf('--check');
if (check >= 0) {
  runCheck([...args.slice(0, check), ...args.slice(check + 1)], process.cwd(), process.env, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
  }).then((code) => {
    process.exitCode = code;
  }, (err: unknown) => {
    process.stderr.write(`${SERVER_NAME} --check: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  });
} else if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${SERVER_VERSION}\n`);
} else if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
} else if (!args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket=') || a.startsWith('--pipe='))) {
  process.stderr.write(`${SERVER_NAME}: choose a transport\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  startServer(createConnection(ProposedFeatures.all));
}

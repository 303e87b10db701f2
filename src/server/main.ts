// Entry point of the checkpoint language server: `node dist/server.js --stdio` (any LSP client) or `--node-ipc`
// (VS Code). Also published as the `leopold-checkpoint-server` bin.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { SERVER_NAME, SERVER_VERSION, startServer } from './server';

const args = process.argv.slice(2);
const USAGE = `${SERVER_NAME} ${SERVER_VERSION} — the Leopold CHECKPOINT.md language server

usage: ${SERVER_NAME} --stdio            speak LSP over stdin/stdout (Neovim, Helix, any LSP client)
       ${SERVER_NAME} --node-ipc         speak LSP over Node IPC (how VS Code starts it)
       ${SERVER_NAME} --socket=<port>    speak LSP over a TCP socket
       ${SERVER_NAME} --version | --help
`;

if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${SERVER_VERSION}\n`);
} else if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
} else if (!args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket=') || a.startsWith('--pipe='))) {
  process.stderr.write(`${SERVER_NAME}: choose a transport\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  startServer(createConnection(ProposedFeatures.all));
}

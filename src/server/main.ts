// Entry point of the checkpoint language server: `node dist/server.js --stdio` (any LSP client) or `--node-ipc`
// (VS Code). Also published as the `leopold-checkpoint-server` bin.
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { format } from 'node:util';
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
} else if (args.includes('--stdio')) {
  startServer(stdioConnection());
} else {
  startServer(createConnection(ProposedFeatures.all));
}

/**
 * The connection over stdin/stdout, with a framing error handled. The stream reader consumes a header it cannot
 * use (`Content-Length: abc`, no Content-Length at all) and, having no length, reads every later byte as another
 * header: the server would stay alive and never answer again, silently. Instead it says why on stderr and to the
 * client (window/logMessage), and exits 1, so the client restarts it with a clean stream.
 */
function stdioConnection() {
  const reader = new StreamMessageReader(process.stdin);
  const writer = new StreamMessageWriter(process.stdout);
  let failed = false;
  reader.onError((err) => {
    if (failed) return;
    failed = true;
    const text = `${SERVER_NAME}: the LSP stream is out of frame (${err.message.split('\n')[0]}); exiting so that the client restarts ` +
      `the server`;
    process.stderr.write(`${text}\n`);
    reader.dispose();
    void writer.write({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: 1, message: text } } as never)
      .catch(() => undefined).finally(() => process.exit(1));
    setTimeout(() => process.exit(1), 1000).unref();
  });
  // What createConnection does for a stdio stream: a client that goes away ends the server (0 after a shutdown
  // request, as LSP asks), and nothing but LSP ever reaches stdout (console output goes to stderr).
  let shutdown = false;
  const ended = () => process.exit(shutdown ? 0 : 1);
  process.stdin.on('end', ended);
  process.stdin.on('close', ended);
  for (const k of ['log', 'info', 'warn', 'error',
    // eslint-disable-next-line leopold/no-spread-call -- a console call's own arguments, forwarded as given
    'debug'] as const) console[k] = (...a: unknown[]) => void process.stderr.write(`${format(...a)}\n`);
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  connection.onShutdown(() => {
    shutdown = true;
  });
  return connection;
}

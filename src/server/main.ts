// Entry point of the checkpoint language server: `node dist/server.js --stdio` (or --node-ipc from VS Code).
import { startServer } from './server';

startServer();

// The review worker's entry (dist/reviewWorker.js, its own bundle: scripts/build.mjs): answers the jobs of the
// ReviewWorker that started it (core/review/worker.ts), off the extension host's thread.
import { parentPort, workerData } from 'node:worker_threads';
import { serveReviews } from './worker';

if (parentPort) serveReviews(parentPort, (workerData as { progress: Float64Array }).progress);

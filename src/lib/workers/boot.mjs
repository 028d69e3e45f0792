// Entry of every worker thread: teaches the worker TypeScript (the service runs its sources
// through tsx; test runners do not pass their loaders on to workers), then loads the real entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);

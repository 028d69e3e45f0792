// Seals game keys off the main thread (see key-sealer.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { SecretBox } from '../../lib/secret-box.js';
import { type SealRequest, sealUnique } from './key-sealer.js';

const secrets = new SecretBox((workerData as { data: string }).data);
parentPort?.on('message', ({ id, keys }: SealRequest) => {
  parentPort?.postMessage({ id, ...sealUnique(secrets, keys) });
});

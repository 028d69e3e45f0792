// Seals game keys off the main thread (see key-sealer.ts). Plain JavaScript, so that the
// worker starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { deriveSecretKeys } from '../../lib/secret-format.mjs';
import { SealedBatchBuilder } from './sealed-batch.mjs';

const batch = new SealedBatchBuilder(deriveSecretKeys(workerData));

parentPort.on('message', (message) => {
  if (message.keys) {
    batch.add(message.keys);
    return;
  }
  const { keys, packed } = batch.finish(message.into);
  parentPort.postMessage({ id: message.finish, keys, memory: packed.buffer, length: packed.length }, [
    packed.buffer,
  ]);
});

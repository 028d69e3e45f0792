// Seals game keys off the main thread (see key-sealer.ts). Plain JavaScript, so that the
// worker starts without a TypeScript loader.
import { randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { deriveSecretKeys, fingerprintWith, IV_BYTES, sealWith } from '../../lib/secret-format.mjs';

const secretKeys = deriveSecretKeys(workerData);

parentPort.on('message', ({ id, keys }) => {
  const ivs = randomBytes(IV_BYTES * keys.length);
  parentPort.postMessage({
    id,
    ciphertexts: keys.map((key, i) =>
      sealWith(secretKeys.sealing, ivs.subarray(i * IV_BYTES, (i + 1) * IV_BYTES), key),
    ),
    fingerprints: keys.map((key) => fingerprintWith(secretKeys.fingerprint, key)),
  });
});

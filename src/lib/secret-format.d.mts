export declare const IV_BYTES: number;
export declare function deriveSecretKeys(masterKeyHex: string): {
  sealing: Buffer;
  fingerprint: Buffer;
  urlSigning: Buffer;
};
export declare function sealWith(key: Buffer, iv: Buffer, plaintext: string): string;
export declare function openWith(key: Buffer, sealed: string): string;
export declare function fingerprintWith(key: Buffer, plaintext: string): string;

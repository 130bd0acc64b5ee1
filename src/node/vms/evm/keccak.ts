/**
 * keccak-256 for the EVM chains: the state trie hashes every node it rewrites, and transactions,
 * code and the KECCAK256 opcode hash too. The native sponge of the `keccak` package (prebuilt
 * N-API binary, the same authors as the `secp256k1` binding the node already uses) is 2–4×
 * @noble/hashes on trie nodes here; when its binary cannot load, @noble/hashes is used.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';

interface KeccakSponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
}

function nativeSponge(): KeccakSponge | undefined {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('keccak/package.json'));
    // The package exposes only a stream API; its addon holds the bare sponge.
    const load = createRequire(path.join(dir, 'index.js'))('node-gyp-build') as (d: string) => unknown;
    const Sponge = load(dir);
    if (typeof Sponge !== 'function') return undefined;
    return new (Sponge as new () => KeccakSponge)();
  } catch {
    return undefined;
  }
}

const sponge = nativeSponge();

/** keccak-256 (rate 1088, capacity 512, Keccak padding). Synchronous, so one sponge serves all. */
function nativeKeccak256(data: Uint8Array): Uint8Array {
  sponge!.initialize(1088, 512);
  sponge!.absorb(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  sponge!.absorbLastFewBits(0x01);
  const digest = sponge!.squeeze(32);
  // A plain Uint8Array (callers expect `slice` to copy, as it does not on a Buffer) that starts its
  // own ArrayBuffer: the engine's bloom filter reads the digest through `new DataView(e.buffer)`.
  if (digest.byteOffset === 0 && digest.buffer.byteLength === 32) return new Uint8Array(digest.buffer);
  return Uint8Array.from(digest);
}

export const keccak256: (data: Uint8Array) => Uint8Array = sponge ? nativeKeccak256 : keccak_256;

/**
 * Proposervm blocks for tests, laid out the way AvalancheGo's `vms/proposervm/block` writes them
 * (codec version 0, big-endian): signed blocks (type 0), Granite signed blocks (type 2) and
 * options (type 1) around an X- or P-chain block, with their ids. Signatures are whatever bytes
 * the caller gives: the indexer does not verify them (the node that accepted the block did).
 */
import { createHash } from 'node:crypto';

/**
 * A self-signed ECDSA P-256 certificate made for these tests with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=flurry proposervm test" -days 36500 -outform DER`
 * (its key was thrown away).
 */
export const TEST_CERT_DER = Buffer.from(
  'MIIBmDCCAT+gAwIBAgIUbJnV+w6aSbrBNm4mB0wkdBUmapwwCgYIKoZIzj0EAwIwITEfMB0GA1UEAwwWZmx1cnJ5IHByb3Bvc2Vydm0gdGVzdDAgFw0yNjExMjUxNzUxNTJaGA8yMTI2MTEwMTE3NTE1MlowITEfMB0GA1UEAwwWZmx1cnJ5IHByb3Bvc2Vydm0gdGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABF1lqY6X/FRuXryZjMo8WaCQ1BaFkNQjmYbzWlT3rPdGmA+DvPtPJse5DIEKeDMH4ng8zSBvG0YQ3B62QAZ6WGejUzBRMB0GA1UdDgQWBBTeqwkVYoEGzu4MQAGrDQq7Mpa+0DAfBgNVHSMEGDAWgBTeqwkVYoEGzu4MQAGrDQq7Mpa+0DAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIEVLBTD7agYhk/XGUd/VDAdobVGHEiLUkeW6yNjqJixRAiBo1PIEo70oCcNNofUEb7+NZbY6cnVDRyUs3C6OiH3VVQ==',
  'base64',
);
/** ripemd160(sha256(TEST_CERT_DER)), computed with `openssl dgst`, and its NodeID. */
export const TEST_CERT_NODE_ID_HEX = '0695d05762673e099e9b7d68b1f45ce0037331fa';
export const TEST_CERT_NODE_ID = 'NodeID-bpXQ7w1XKk5BzNty3xicoPMfNANDb8rv';

export interface SignedWrapper {
  parentId: Uint8Array;
  /** Unix seconds. */
  timestamp: bigint;
  pChainHeight: bigint;
  /** DER; empty or absent for an unsigned block. */
  certificate?: Uint8Array;
  inner: Uint8Array;
  /** Any bytes (not verified); empty or absent for an unsigned block. */
  signature?: Uint8Array;
  /** Makes a Granite block (type 2). */
  epoch?: { pChainHeight: bigint; number: bigint; startTime: bigint };
}

const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(v);
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt.asUintN(64, v));
  return b;
};
const sized = (bytes: Uint8Array) => Buffer.concat([u32(bytes.length), bytes]);
const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

/** A signed (or unsigned) proposervm block and its id (sha256 of the bytes before the signature). */
export function wrapSigned(w: SignedWrapper): { bytes: Uint8Array; id: Uint8Array } {
  const unsigned = Buffer.concat([
    u16(0),
    u32(w.epoch ? 2 : 0),
    w.parentId,
    u64(w.timestamp),
    u64(w.pChainHeight),
    sized(w.certificate ?? new Uint8Array()),
    sized(w.inner),
    ...(w.epoch ? [u64(w.epoch.pChainHeight), u64(w.epoch.number), u64(w.epoch.startTime)] : []),
  ]);
  const bytes = new Uint8Array(Buffer.concat([unsigned, sized(w.signature ?? new Uint8Array())]));
  return { bytes, id: sha256(unsigned) };
}

/** A proposervm option block and its id (sha256 of its bytes). */
export function wrapOption(parentId: Uint8Array, inner: Uint8Array): { bytes: Uint8Array; id: Uint8Array } {
  const bytes = new Uint8Array(Buffer.concat([u16(0), u32(1), parentId, sized(inner)]));
  return { bytes, id: sha256(bytes) };
}

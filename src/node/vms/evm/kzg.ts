/**
 * The KZG check behind EIP-4844's point-evaluation precompile (0x0a), which Cancun puts on the
 * C-chain and every Subnet-EVM chain. The engine runs the precompile only with a KZG backend and
 * otherwise throws from inside the EVM, which failed every call touching 0x0a and made the block
 * builder drop any transaction that did (and strand its sender's later nonces). Blob
 * transactions are refused, so the precompile's `verify_kzg_proof` is all that is needed: a
 * pairing check over BLS12-381 (noble) with one point of the Ethereum KZG ceremony.
 */
import type { KZG } from '@ethereumjs/util';
import { bls12_381 } from '@noble/curves/bls12-381.js';

/** [τ]₂: `g2_monomial[1]` of the Ethereum KZG ceremony's trusted setup (compressed G2). */
const TAU_G2 =
  'b5bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f3499f72' +
  '185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada20c1def2';

const { G1, G2 } = bls12_381;
const { Fp12, Fr } = bls12_381.fields;
let tauG2: ReturnType<typeof G2.Point.fromHex> | undefined;

/** The engine maps a thrown error naming C_KZG_BADARGS to "kzg inputs invalid", as c-kzg's. */
function badArgs(what: string): never {
  throw new Error(`C_KZG_BADARGS: ${what}`);
}

function g1(hex: string, what: string) {
  try {
    return G1.Point.fromHex(hex.slice(2));
  } catch {
    return badArgs(`${what} is not a point of G1`);
  }
}

function scalar(hex: string, what: string): bigint {
  const n = BigInt(hex);
  if (n >= Fr.ORDER) badArgs(`${what} is not a canonical field element`);
  return n;
}

/** e(a, b), the identity of GT when either point is the point at infinity. */
function pair(a: ReturnType<typeof G1.Point.fromHex>, b: ReturnType<typeof G2.Point.fromHex>) {
  return a.is0() || b.is0() ? Fp12.ONE : bls12_381.pairing(a, b);
}

/**
 * verify_kzg_proof (EIP-4844): the polynomial committed to by `commitment` takes the value `y`
 * at `z`, as `proof` shows: e(C − [y]G₁, G₂) = e(π, [τ]G₂ − [z]G₂).
 */
export function verifyKzgProof(commitment: string, z: string, y: string, proof: string): boolean {
  const zn = scalar(z, 'z');
  const yn = scalar(y, 'y');
  const c = g1(commitment, 'the commitment');
  const pi = g1(proof, 'the proof');
  tauG2 ??= G2.Point.fromHex(TAU_G2);
  const left = pair(c.subtract(G1.Point.BASE.multiplyUnsafe(yn)), G2.Point.BASE);
  const right = pair(pi, tauG2.subtract(G2.Point.BASE.multiplyUnsafe(zn)));
  return Fp12.eql(left, right);
}

const noBlobs = (): never => {
  throw new Error('blob transactions are not supported');
};

/** The engine's KZG backend: proof verification only. */
export const pointEvaluationKzg: KZG = {
  verifyProof: verifyKzgProof,
  blobToKzgCommitment: noBlobs,
  computeBlobProof: noBlobs,
  verifyBlobProofBatch: noBlobs,
  computeCells: noBlobs,
  computeCellsAndProofs: noBlobs,
  recoverCellsAndProofs: noBlobs,
  verifyCellKzgProofBatch: noBlobs,
};

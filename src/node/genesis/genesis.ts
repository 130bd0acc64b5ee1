/**
 * The devnet's genesis: who holds what on X, P and C at height 0, and the primary-network
 * validators with their BLS keys. Everything but the well-known test key is derived from the
 * seed, so the same seed always gives the same network.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { blsProofOfPossession, blsPublicKey, blsSecretKeyFromIkm } from '../../shared/crypto/bls.js';
import { accountFromPrivateKey, type AccountKey } from '../../shared/crypto/keys.js';
import { formatNodeId } from '../../shared/encoding.js';
import { EWOQ_PRIVATE_KEY_HEX, type NetworkIdentity } from '../../shared/networks.js';

export const NANO_AVAX_PER_AVAX = 1_000_000_000n;
const WEI_PER_NANO_AVAX = 1_000_000_000n;

export interface GenesisValidator {
  readonly nodeID: string;
  readonly nodeShortId: Uint8Array;
  readonly blsSecretKey: Uint8Array;
  readonly blsPublicKey: Uint8Array;
  readonly blsProofOfPossession: Uint8Array;
  /** Stake in nAVAX. */
  readonly weight: bigint;
  readonly startTime: number;
  readonly endTime: number;
  /** Where rewards go (the test key, as on the reference local network). */
  readonly rewardAddress: Uint8Array;
  /** Delegation fee in parts per million. */
  readonly delegationFee: number;
}

export interface Allocation {
  readonly shortAddress: Uint8Array;
  readonly amount: bigint;
  /** Unix seconds before which the funds cannot move (P-chain only). */
  readonly locktime: number;
}

export interface Genesis {
  readonly network: NetworkIdentity;
  readonly seed: string;
  /** Unix seconds of the genesis blocks. */
  readonly startTime: number;
  /** The well-known test key first, then the seed's extra test accounts. */
  readonly prefunded: readonly AccountKey[];
  readonly xAllocations: readonly Allocation[];
  readonly pAllocations: readonly Allocation[];
  /** C-chain balances in wei, keyed by EVM address. */
  readonly cAllocations: readonly { evmAddress: string; balanceWei: bigint }[];
  readonly validators: readonly GenesisValidator[];
}

export interface GenesisOptions {
  network: NetworkIdentity;
  seed: string;
  validators: number;
  startTime: number;
  /** Extra seed-derived test accounts besides the well-known key. */
  extraAccounts?: number;
  /**
   * Proofs of possession computed before (hex, by validator index). A PoP costs ~30 ms in pure JS
   * (blst's binding cannot take the PoP domain tag), so the node stores them and passes them back,
   * and a cold start computes them on a worker thread (`proofs-off-thread.ts`).
   */
  knownProofs?: readonly string[];
}

const INITIAL_STAKE_DURATION = 365 * 24 * 3600;
const VALIDATOR_STAKE = 2_000n * NANO_AVAX_PER_AVAX;

/** Deterministic bytes for a purpose and index. */
export function derive(seed: string, purpose: string, index: number): Uint8Array {
  return sha256(new TextEncoder().encode(`flurry/${purpose}/${seed}/${index}`));
}

/** The BLS secret key of the seed's validator `index`. */
export function validatorBlsSecretKey(seed: string, index: number): Uint8Array {
  return blsSecretKeyFromIkm(derive(seed, 'bls', index));
}

export function buildGenesis(options: GenesisOptions): Genesis {
  const { network, seed, startTime } = options;
  const ewoq = accountFromPrivateKey(Buffer.from(EWOQ_PRIVATE_KEY_HEX.slice(2), 'hex'));
  const extra = Array.from({ length: options.extraAccounts ?? 4 }, (_, i) =>
    accountFromPrivateKey(derive(seed, 'account', i)),
  );
  const prefunded = [ewoq, ...extra];

  // Amounts follow the reference local genesis for the test key; extra accounts get less.
  const xAllocations: Allocation[] = [
    { shortAddress: ewoq.shortAddress, amount: 300_000_000n * NANO_AVAX_PER_AVAX, locktime: 0 },
    ...extra.map((a) => ({
      shortAddress: a.shortAddress,
      amount: 1_000_000n * NANO_AVAX_PER_AVAX,
      locktime: 0,
    })),
  ];
  const pAllocations: Allocation[] = [
    { shortAddress: ewoq.shortAddress, amount: 20_000_000n * NANO_AVAX_PER_AVAX, locktime: 0 },
    { shortAddress: ewoq.shortAddress, amount: 10_000_000n * NANO_AVAX_PER_AVAX, locktime: 1633824000 },
    ...extra.map((a) => ({
      shortAddress: a.shortAddress,
      amount: 1_000_000n * NANO_AVAX_PER_AVAX,
      locktime: 0,
    })),
  ];
  const cAllocations = [
    { evmAddress: ewoq.evmAddress, balanceWei: 50_000_000n * NANO_AVAX_PER_AVAX * WEI_PER_NANO_AVAX },
    ...extra.map((a) => ({
      evmAddress: a.evmAddress,
      balanceWei: 1_000_000n * NANO_AVAX_PER_AVAX * WEI_PER_NANO_AVAX,
    })),
  ];

  const validators: GenesisValidator[] = [];
  for (let i = 0; i < options.validators; i++) {
    const nodeShortId = ripemd160(sha256(derive(seed, 'node', i)));
    const blsSecretKey = validatorBlsSecretKey(seed, i);
    validators.push({
      nodeID: formatNodeId(nodeShortId),
      nodeShortId,
      blsSecretKey,
      blsPublicKey: blsPublicKey(blsSecretKey),
      blsProofOfPossession: options.knownProofs?.[i]
        ? Uint8Array.from(Buffer.from(options.knownProofs[i], 'hex'))
        : blsProofOfPossession(blsSecretKey),
      weight: VALIDATOR_STAKE,
      startTime,
      endTime: startTime + INITIAL_STAKE_DURATION,
      rewardAddress: ewoq.shortAddress,
      delegationFee: 20_000,
    });
  }
  return { network, seed, startTime, prefunded, xAllocations, pAllocations, cAllocations, validators };
}

/**
 * Account state at a block: balances, nonces (the pool's for `pending`), code, storage and
 * Merkle proofs (`eth_getProof`, within coreth's historical proof window).
 */
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { Address, bytesToBigInt, equalsBytes, KECCAK256_RLP, setLengthLeft } from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../../rpc/errors.js';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../../evm-chain.js';
import {
  address,
  arity,
  bad,
  blockRef,
  blockRefOrNeither,
  neitherBlockNorHash,
  type BlockRef,
} from '../args.js';
import { h, q } from '../format.js';
import { stateBlock, stateBlockOf } from './block-ref.js';

/** The reference's archival default window of eth_getProof, in blocks (24 h of 2 s blocks). */
export const DEFAULT_PROOF_WINDOW = 43_200n;
export const PRUNING_PROOF_WINDOW = 32n;

/**
 * A storage key as coreth's decodeHash reads it (0x optional, odd lengths padded, at most 32
 * bytes), with the byte length it was given; its errors are the handler's (-32000).
 */
function storageKey(v: unknown, i: number, prefix = ''): { key: Uint8Array; length: number } {
  if (typeof v !== 'string') bad(i, 'json: cannot unmarshal non-string into Go value of type string');
  let hex = /^0[xX]/.test(v) ? v.slice(2) : v;
  if (hex.length % 2) hex = '0' + hex;
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new RpcError(RpcCode.server, `${prefix}hex string invalid`);
  const length = hex.length / 2;
  if (length > 32) throw new RpcError(RpcCode.server, `${prefix}hex string too long, want at most 32 bytes`);
  return { key: setLengthLeft(Uint8Array.from(Buffer.from(hex, 'hex')), 32), length };
}

// Every argument below is a Go value, none a pointer: each is required, and a JSON null is a
// value its decoder reads (the block's names neither block nor hash), never a missing one.
export function createStateApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_getBalance: async (params) => {
      arity(params, 2, 2);
      const addr = new Address(address(params, 0));
      const acct = await chain.stateAt(stateBlock(chain, params, 1)).getAccount(addr);
      return q(acct?.balance ?? 0n);
    },
    eth_getTransactionCount: async (params) => {
      arity(params, 2, 2);
      const addr = new Address(address(params, 0));
      const ref = blockRef(params, 1);
      const n = stateBlock(chain, params, 1);
      const nonce = (await chain.stateAt(n).getAccount(addr))?.nonce ?? 0n;
      if (ref.kind === 'tag' && ref.tag === 'pending') return q(chain.pool.nextNonce(addr.toString(), nonce));
      return q(nonce);
    },
    eth_getCode: async (params) => {
      arity(params, 2, 2);
      const addr = new Address(address(params, 0));
      return h(await chain.stateAt(stateBlock(chain, params, 1)).getCode(addr));
    },
    eth_getStorageAt: async (params) => {
      arity(params, 3, 3);
      const addr = new Address(address(params, 0));
      // A null key decodes into Go's empty string, which decodeHash reads as slot 0.
      const key = params[1] ?? '';
      if (typeof key !== 'string') bad(1, 'json: cannot unmarshal non-string into Go value of type string');
      const n = stateBlock(chain, params, 2);
      const slot = storageKey(key, 1, 'unable to decode storage key: ').key;
      const value = await chain.stateAt(n).getStorage(addr, slot);
      return h(setLengthLeft(value, 32));
    },
    eth_getProof: async (params) => {
      arity(params, 3, 3);
      const addr = new Address(address(params, 0));
      // A null list of keys decodes into Go's nil slice: no keys.
      const keysParam = params[1] ?? [];
      if (!Array.isArray(keysParam))
        bad(1, 'json: cannot unmarshal non-array into Go value of type []string');
      const ref = blockRefOrNeither(params, 2);
      // coreth's order: the window, then the keys, then the state.
      checkProofWindow(chain, ref);
      const keys = (keysParam as unknown[]).map((k) => storageKey(k, 1));
      const n = stateBlockOf(chain, ref ?? neitherBlockNorHash());
      const state = chain.scratchStateAt(n);
      const account = await state.getAccount(addr);
      const proof = await getMerkleStateProof(
        state,
        addr,
        keys.map((k) => k.key),
      );
      const hasStorage = account !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP);
      const zero = h(new Uint8Array(32));
      // geth's AccountResult, field for field: a 32-byte key is echoed, a shorter one written as a
      // quantity; a key of an account without storage answers 0 with an empty proof; an account
      // that does not exist has zero code and storage hashes.
      return {
        address: proof.address,
        accountProof: proof.accountProof,
        balance: proof.balance,
        codeHash: account ? proof.codeHash : zero,
        nonce: proof.nonce,
        storageHash: account ? proof.storageHash : zero,
        storageProof: keys.map((k, i) => ({
          key: k.length === 32 ? h(k.key) : q(bytesToBigInt(k.key)),
          value: hasStorage ? proof.storageProof[i].value : '0x0',
          proof: hasStorage ? proof.storageProof[i].proof : [],
        })),
      };
    },
  };
}

/**
 * coreth's stateQueryBlockNumberAllowed: an archival node takes any block when the window is 0;
 * otherwise (and always when pruning, with its 32-block state history) a block more than the
 * window below the last accepted one is refused. Tags other than `earliest` always pass; a
 * reference to neither block nor hash never does.
 */
export function checkProofWindow(chain: EvmChain, ref: BlockRef | undefined): void {
  const window = chain.config.pruning ? PRUNING_PROOF_WINDOW : chain.config.historicalProofQueryWindow;
  if (!chain.config.pruning && window === 0n) return;
  const refuse = (reason: string): never => {
    throw new RpcError(RpcCode.server, `historical proof query not allowed: ${reason}`);
  };
  let number: bigint;
  if (!ref) return refuse('block number or hash not provided');
  else if (ref.kind === 'tag') {
    if (ref.tag !== 'earliest') return;
    number = 0n;
  } else if (ref.kind === 'number') number = ref.number;
  else number = chain.store.numberOfHash(ref.hash) ?? refuse(`block from hash ${h(ref.hash)} doesn't exist`);
  const head = chain.latest.number;
  const oldest = head > window ? head - window : 0n;
  if (number >= oldest) return;
  refuse(
    `block number ${number} is before the oldest allowed block number ${oldest} (window of ${window} blocks)`,
  );
}

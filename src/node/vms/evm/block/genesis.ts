/**
 * Block 0 of an EVM chain: the config's alloc (and the precompiles active at genesis, configured
 * by the chain's hook) written into the state, the header the chain's genesis JSON states, both committed in one database
 * transaction. Runs once, on a chain's first start.
 */
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bigIntToBytes, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import type { ChainContext } from '../../../chains/chain.js';
import type { EvmChainConfig } from '../chain-config.js';
import { genesisFeeFields } from '../genesis-json.js';
import type { PrecompileRegistry } from '../precompiles/registry.js';
import type { ChainStore } from '../state/chain-store.js';
import type { TrieDb } from '../state/trie-db.js';
import { stateManagerAt } from '../state/world.js';
import {
  EMPTY_ROOT,
  EMPTY_UNCLE_HASH,
  encodeBlock,
  encodeHeader,
  extDataHash,
  hashHeader,
  type ChainHead,
  type EvmHeader,
} from './evm-block.js';

/** Where the genesis block goes, and what it is made from. */
export interface GenesisTarget {
  readonly ctx: ChainContext;
  readonly common: Common;
  readonly config: EvmChainConfig;
  readonly precompiles: PrecompileRegistry;
  readonly store: ChainStore;
  readonly trieDb: TrieDb;
  /**
   * Configures the precompiles active at genesis on the genesis state before its root is taken
   * (subnet-evm's `Genesis.toBlock` runs `ApplyPrecompileActivations` there), so block 0 holds
   * their allow-list roles, minted balances and fee/reward config.
   */
  readonly configurePrecompiles?: (state: MerkleStateManager) => Promise<void>;
}

/** Writes and commits block 0; returns it as the chain's head. */
export async function writeGenesis(target: GenesisTarget): Promise<ChainHead> {
  const { ctx, common, config, precompiles, store, trieDb } = target;
  const state = stateManagerAt(common, trieDb, undefined);
  // Precompiles active at genesis carry code 0x01 so Solidity's extcodesize check passes.
  for (const p of precompiles.activeAt(config.genesis.timestamp)) {
    const address = createAddressFromString(p.address);
    await state.putAccount(address, new Account(1n, 0n));
    await state.putCode(address, Uint8Array.of(1));
  }
  await target.configurePrecompiles?.(state);
  // The allocations come after, as in the reference: an allocated balance replaces one minted.
  for (const [addr, acct] of config.genesis.alloc) {
    const address = createAddressFromString(addr);
    await state.putAccount(address, new Account(acct.nonce ?? 0n, acct.balance));
    if (acct.code) await state.putCode(address, acct.code);
    for (const [k, v] of acct.storage ?? []) {
      await state.putStorage(
        address,
        setLengthLeft(bigIntToBytes(k), 32),
        setLengthLeft(bigIntToBytes(v), 32),
      );
    }
  }
  const stateRoot = await state.getStateRoot();
  // The same fee fields the genesis JSON of the chain's CreateChainTx states (genesis-json.ts).
  const fees = genesisFeeFields(config);
  const header: EvmHeader = {
    parentHash: new Uint8Array(32),
    uncleHash: EMPTY_UNCLE_HASH,
    coinbase: new Uint8Array(20),
    stateRoot,
    transactionsRoot: EMPTY_ROOT,
    receiptsRoot: EMPTY_ROOT,
    logsBloom: new Uint8Array(256),
    difficulty: 0n,
    number: 0n,
    gasLimit: config.genesis.gasLimit,
    gasUsed: 0n,
    timestamp: BigInt(config.genesis.timestamp),
    extraData: fees.extraData,
    mixHash: new Uint8Array(32),
    nonce: new Uint8Array(8),
    extDataHash: extDataHash(new Uint8Array()),
    baseFeePerGas: fees.baseFeePerGas,
    extDataGasUsed: 0n,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconBlockRoot: new Uint8Array(32),
  };
  const headerRlp = encodeHeader(header);
  const hash = hashHeader(headerRlp);
  const bytes = encodeBlock(headerRlp, [], new Uint8Array());
  const acceptedMs = ctx.clock.nowMs();
  try {
    ctx.db.transaction(() => {
      trieDb.flushInto(stateRoot);
      store.putBlock({ number: 0n, hash, header: headerRlp, bytes, txCount: 0, acceptedMs }, [], [], []);
    });
  } catch (err) {
    trieDb.clear();
    throw err;
  }
  trieDb.committed();
  return { number: 0n, hash, header };
}

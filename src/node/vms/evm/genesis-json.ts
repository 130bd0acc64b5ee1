/**
 * An EVM chain's genesis as the JSON text a CreateChainTx carries (the shape of the reference's
 * `cChainGenesis`, geth's `core.Genesis`): the fork config `eth_getChainConfig` reports, and the
 * genesis block's header fields and allocations as the chain starts from them, so a client that
 * rebuilds the genesis block from the text gets the block `eth_getBlockByNumber(0)` serves.
 */
import { plainHex } from '../../../shared/encoding.js';
import * as acp176 from './block/acp176.js';
import { chainConfigJson, type EvmChainConfig, type GenesisAccount } from './chain-config.js';

const ZERO_HASH = '0x' + '00'.repeat(32);
const ZERO_ADDRESS = '0x' + '00'.repeat(20);
const hexQuantity = (n: bigint | number) => '0x' + n.toString(16);

/**
 * The genesis header's fee fields: the ACP-176 state of an empty bucket at the validators'
 * preferred target (in `extraData`) and its price, unless the config fixes the base fee.
 */
export function genesisFeeFields(config: EvmChainConfig): { extraData: Uint8Array; baseFeePerGas: bigint } {
  const targetExcess = acp176.targetExcessFor(config.gasTargetPerSecond);
  const feeState: acp176.FeeState = {
    capacity: acp176.maxCapacity({ capacity: 0n, excess: 0n, targetExcess }),
    excess: 0n,
    targetExcess,
  };
  return {
    extraData: acp176.encodeFeeState(feeState),
    baseFeePerGas: config.genesis.baseFeePerGas ?? acp176.gasPrice(feeState),
  };
}

/** One `alloc` entry as geth's GenesisAccount marshals it (empty members left out). */
function accountJson(account: GenesisAccount): Record<string, unknown> {
  const storage = [...(account.storage ?? [])];
  const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');
  return {
    ...(account.code && account.code.length > 0 && { code: plainHex(account.code) }),
    ...(storage.length > 0 && { storage: Object.fromEntries(storage.map(([k, v]) => [word(k), word(v)])) }),
    balance: hexQuantity(account.balance),
    ...(account.nonce && { nonce: hexQuantity(account.nonce) }),
  };
}

/** The genesis JSON text of an EVM chain (members in `core.Genesis` order; alloc keys unprefixed). */
export function evmGenesisJson(config: EvmChainConfig): string {
  const fees = genesisFeeFields(config);
  const alloc: Record<string, unknown> = {};
  for (const [address, account] of config.genesis.alloc)
    alloc[address.toLowerCase().replace(/^0x/, '')] = accountJson(account);
  return JSON.stringify({
    config: chainConfigJson(config),
    nonce: '0x0',
    timestamp: hexQuantity(config.genesis.timestamp),
    extraData: plainHex(fees.extraData),
    gasLimit: hexQuantity(config.genesis.gasLimit),
    difficulty: '0x0',
    mixHash: ZERO_HASH,
    coinbase: ZERO_ADDRESS,
    alloc,
    number: '0x0',
    gasUsed: '0x0',
    parentHash: ZERO_HASH,
    baseFeePerGas: hexQuantity(fees.baseFeePerGas),
  });
}

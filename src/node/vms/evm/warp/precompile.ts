/**
 * The Warp precompile (0x0200…0005, IWarpMessenger). `sendWarpMessage(bytes)` builds an unsigned
 * message (this network, this chain, an AddressedCall from the caller) and emits
 * `SendWarpMessage(sourceAddress, unsignedMessageID, message)`; the validators sign it once its
 * block is accepted. `getVerifiedWarpMessage(i)` / `getVerifiedWarpBlockHash(i)` return the i-th
 * Warp predicate of the running transaction — verified before the transaction executes (see
 * `attachWarpPredicates`) — with `valid=false` when it failed or does not exist.
 */
import { Address, createAddressFromString } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeUnsignedMessage } from '../../../warp/unsigned-message.js';
import { hashPayload } from '../../../warp/accepted-block-rule.js';
import {
  abiBytes,
  addressWord,
  boolWord,
  concat,
  dispatcher,
  eventTopic,
  log,
  LOG_DATA_GAS,
  LOG_GAS,
  LOG_TOPIC_GAS,
  outOfGas,
  readBytesArg,
  readWords,
  refuse,
  selector,
  success,
  word,
  WRITE_GAS_COST_PER_SLOT,
} from '../precompiles/contract.js';
import { PRECOMPILE_ADDRESSES, type SubnetPrecompileModule } from '../precompiles/subnet-module.js';
import type { PrecompileCall } from '../precompiles/registry.js';
import {
  encodeAddressedCall,
  parseAddressedCall,
  parseSignedMessage,
  unpackPredicate,
  type SignedWarpMessage,
} from './predicate.js';
import { GAS_COST_PER_WARP_MESSAGE_BYTE, warpPredicateGas } from './predicate-gas.js';

export const WARP_ADDRESS = PRECOMPILE_ADDRESSES.warpConfig;
const WARP = createAddressFromString(WARP_ADDRESS);
export const SEND_WARP_MESSAGE = eventTopic('SendWarpMessage(address,bytes32,bytes)');

/** Reference gas costs (subnet-evm `precompile/contracts/warp`). */
export const GET_BLOCKCHAIN_ID_GAS_COST = 2n;
export const GET_VERIFIED_WARP_MESSAGE_BASE_COST = 2n;
export const ADD_WARP_MESSAGE_GAS_COST = 20_000n;
export const SEND_WARP_MESSAGE_GAS_COST =
  LOG_GAS + 3n * LOG_TOPIC_GAS + ADD_WARP_MESSAGE_GAS_COST + WRITE_GAS_COST_PER_SLOT;
export const DEFAULT_QUORUM_NUMERATOR = 67n;
/** avalanchego's `payload.MaxMessageSize` (24 KiB): a marshalled payload, codec version included. */
export const MAX_PAYLOAD_SIZE = 24 * 1024;

export interface WarpConfig {
  readonly quorumNumerator: bigint;
  readonly requirePrimaryNetworkSigners: boolean;
}

export interface PredicateResult {
  readonly bytes: Uint8Array;
  /** 32-byte storage keys the predicate packs into, which the reference charges for. */
  readonly chunks: number;
  /** The message when it verified. */
  readonly message?: SignedWarpMessage;
  readonly error?: string;
}

/** Verified predicates of the transaction each engine is running. */
const predicatesByEvm = new WeakMap<object, PredicateResult[]>();

/** The Warp predicates of a transaction's access list, in order, each verified (or refused). */
export function warpPredicates(
  tx: TypedTransaction,
  verify: (m: SignedWarpMessage) => void,
): PredicateResult[] {
  const accessList = (tx as { accessList?: [Uint8Array, Uint8Array[]][] }).accessList;
  if (!accessList) return [];
  const out: PredicateResult[] = [];
  for (const [address, keys] of accessList) {
    if (!WARP.equals(new Address(address))) continue;
    let bytes: Uint8Array = new Uint8Array();
    try {
      bytes = unpackPredicate(keys);
      const message = parseSignedMessage(bytes);
      verify(message);
      out.push({ bytes, chunks: keys.length, message });
    } catch (err) {
      out.push({ bytes, chunks: keys.length, error: (err as Error).message });
    }
  }
  return out;
}

/** Verifies each transaction's Warp predicates before the engine runs it. */
export function attachWarpPredicates(vm: VM, verify: (m: SignedWarpMessage) => void): void {
  vm.events.on('beforeTx', (tx: TypedTransaction, resolve?: (result?: unknown) => void) => {
    try {
      predicatesByEvm.set(vm.evm, warpPredicates(tx, verify));
    } finally {
      resolve?.();
    }
  });
}

/**
 * Gas of reading a predicate: the base cost, plus its packed size (`PerWarpMessageChunk`, 3,200
 * per 32-byte key before Granite, i.e. 100 per packed byte) only when it verified: the reference
 * answers a missing or failed predicate after the base cost alone.
 */
function verifiedMessageCost(found: PredicateResult | undefined): bigint {
  if (!found?.message) return GET_VERIFIED_WARP_MESSAGE_BASE_COST;
  return GET_VERIFIED_WARP_MESSAGE_BASE_COST + GAS_COST_PER_WARP_MESSAGE_BYTE * 32n * BigInt(found.chunks);
}

/**
 * go-ethereum's `common.BytesToAddress`, which the reference applies to an AddressedCall's source:
 * the last 20 bytes, left-padded. The P-chain's ACP-77 messages have an empty source, which reads
 * as the zero address (what validator manager contracts check for).
 */
function bytesToAddress(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 20) return bytes.slice(bytes.length - 20);
  const out = new Uint8Array(20);
  out.set(bytes, 20 - bytes.length);
  return out;
}

function predicateAt(call: PrecompileCall, args: Uint8Array): PredicateResult | undefined | 'bad-index' {
  const [index] = readWords(args, 1);
  // The reference unpacks a uint32 and refuses any index above MaxInt32.
  if (index > 0x7fff_ffffn) return 'bad-index';
  return predicatesByEvm.get(call._EVM as object)?.[Number(index)];
}

export interface WarpModuleOptions {
  readonly networkID: number;
  readonly blockchainID: Uint8Array;
  readonly activation: number;
  readonly config: WarpConfig;
}

export function warpPrecompile(options: WarpModuleOptions): SubnetPrecompileModule {
  const { networkID, blockchainID } = options;
  return {
    address: WARP_ADDRESS,
    configKey: 'warpConfig',
    activation: options.activation,
    configJson: {
      quorumNumerator: Number(options.config.quorumNumerator),
      // A plain bool in the reference's Config (no omitempty).
      requirePrimaryNetworkSigners: options.config.requirePrimaryNetworkSigners,
    },
    configure: async () => {},
    predicateGas: warpPredicateGas,
    run: dispatcher({
      [selector('getBlockchainID()')]: async (call) => {
        if (call.gasLimit < GET_BLOCKCHAIN_ID_GAS_COST) return outOfGas(call);
        return success(GET_BLOCKCHAIN_ID_GAS_COST, blockchainID);
      },
      [selector('sendWarpMessage(bytes)')]: async (call, args) => {
        // As the reference, 8 gas per byte of the whole ABI input (offset, length and padding
        // included), charged before the input is unpacked.
        const cost = SEND_WARP_MESSAGE_GAS_COST + LOG_DATA_GAS * BigInt(args.length);
        if (call.gasLimit < cost) return outOfGas(call);
        if (call.isStatic) return refuse(call, 'write protection');
        let payload: Uint8Array;
        try {
          payload = readBytesArg(args, 0);
        } catch (err) {
          return refuse(call, `invalid sendWarpMessage input: ${(err as Error).message}`);
        }
        const addressedCall = encodeAddressedCall(call.caller.bytes, payload);
        // avalanchego's payload codec packs at most MAX_PAYLOAD_SIZE bytes, so the reference's
        // NewAddressedCall fails for a larger message (which no validator could parse either).
        if (addressedCall.length > MAX_PAYLOAD_SIZE)
          return refuse(
            call,
            "couldn't marshal *payload.AddressedCall payload: packer has insufficient length for input",
          );
        const unsigned = encodeUnsignedMessage(networkID, blockchainID, addressedCall);
        const id = sha256(unsigned);
        const entry = log(
          WARP,
          [SEND_WARP_MESSAGE, addressWord(call.caller.bytes), id],
          concat(word(32n), abiBytes(unsigned)),
        );
        return success(cost, id, [entry]);
      },
      [selector('getVerifiedWarpMessage(uint32)')]: async (call, args) => {
        const found = predicateAt(call, args);
        if (found === 'bad-index') return refuse(call, 'invalid index to specify warp message');
        const cost = verifiedMessageCost(found);
        if (call.gasLimit < cost) return outOfGas(call);
        const empty = concat(word(64n), boolWord(false), word(0n), word(0n), word(96n), word(0n));
        if (!found?.message) return success(cost, empty);
        const addressed = parseAddressedCall(found.message.unsigned.payload);
        if (!addressed) return refuse(call, 'cannot unpack addressed payload');
        const tuple = concat(
          found.message.unsigned.sourceChainID,
          addressWord(bytesToAddress(addressed.sourceAddress)),
          word(96n),
          abiBytes(addressed.payload),
        );
        return success(cost, concat(word(64n), boolWord(true), tuple));
      },
      [selector('getVerifiedWarpBlockHash(uint32)')]: async (call, args) => {
        const found = predicateAt(call, args);
        if (found === 'bad-index') return refuse(call, 'invalid index to specify warp message');
        const cost = verifiedMessageCost(found);
        if (call.gasLimit < cost) return outOfGas(call);
        if (!found?.message) return success(cost, concat(word(0n), word(0n), boolWord(false)));
        const hash = hashPayload(found.message.unsigned.payload);
        if (!hash) return refuse(call, 'cannot unpack block hash payload');
        return success(cost, concat(found.message.unsigned.sourceChainID, hash, boolWord(true)));
      },
    }),
  };
}

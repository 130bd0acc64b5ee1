/**
 * The L1 Warp message a P-chain transaction makes the P-chain sign (ACP-77), rebuilt from the
 * transaction as `platform.getTx` serves it, for `GET …/aggregateSignatures/{txHash}`:
 *
 * - ConvertSubnetToL1Tx → SubnetToL1ConversionMessage{conversionID}, justified by the subnet id;
 * - RegisterL1ValidatorTx → L1ValidatorRegistrationMessage{validationID, registered} (registered
 *   while the validation is current; once it is gone, not registered, justified by the
 *   registration message);
 * - SetL1ValidatorWeightTx → L1ValidatorWeightMessage{validationID, nonce, weight} of the tx;
 *   of weight 0 (a removal), the acknowledgement the L1's manager waits for instead:
 *   L1ValidatorRegistrationMessage{validationID, not registered}, justified by the conversion's
 *   subnet id and index (an initial validator) or by the RegisterL1ValidatorMessage, found among
 *   the manager chain's Warp logs as @avalanche-sdk/client's getRegistrationJustification finds it.
 *
 * Each is an AddressedCall with an empty source address from the P-chain (source chain id all
 * zeros), to be signed by the L1's validators (the set that verifies it on the L1).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { avaxSerial, utils } from '@avalabs/avalanchejs';
import { ByteReader } from '../../shared/byte-reader.js';
import { fromCb58, toCb58 } from '../../shared/encoding.js';
import { ACP77_TYPE, payloadType, readAddressedCall } from '../../shared/warp/addressed-call.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import { NodeRpcError, type NodeClient } from '../internal/node-client.js';
import type { AggregateRequest } from './aggregator.js';

const pvmManager = utils.getManagerForVM('PVM');

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const sized = (bytes: Uint8Array) => Buffer.concat([u32(bytes.length), bytes]);

/** codec 0 ‖ typeID ‖ fields: one ACP-77 message. */
const acp77 = (typeId: number, ...fields: Uint8Array[]) => Buffer.concat([u16(0), u32(typeId), ...fields]);

/** UnsignedMessage{networkID, P-chain, AddressedCall{empty source, payload}}. */
export function pChainMessage(networkID: number, payload: Uint8Array): Buffer {
  const call = Buffer.concat([u16(0), u32(1), sized(new Uint8Array(0)), sized(payload)]);
  return Buffer.concat([u16(0), u32(networkID), Buffer.alloc(32), sized(call)]);
}

/** sha256 of SubnetToL1ConversionData (codec 0, subnet, manager chain and address, validators). */
export function conversionId(
  subnetId: Uint8Array,
  chainId: Uint8Array,
  address: Uint8Array,
  validators: { nodeId: Uint8Array; publicKey: Uint8Array; weight: bigint }[],
): Uint8Array {
  return sha256(
    Buffer.concat([
      u16(0),
      subnetId,
      chainId,
      sized(address),
      u32(validators.length),
      ...validators.flatMap((v) => [sized(v.nodeId), Buffer.from(v.publicKey), u64(v.weight)]),
    ]),
  );
}

const malformed = (what: string) =>
  new InvalidParameterError(`the transaction's warp message is malformed: ${what}`);

/** The AddressedCall of the signed Warp message a tx carries (its L1's message). */
const carriedPayload = (signedWarp: Uint8Array) =>
  readAddressedCall(
    signedWarp,
    malformed,
    () => new InvalidParameterError('the transaction carries no AddressedCall warp message'),
  );

/** A protobuf `bytes` field (wire type 2). */
function protoBytes(field: number, bytes: Uint8Array): Buffer {
  const len: number[] = [];
  let n = bytes.length;
  do {
    len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...len]), bytes]);
}

/** A tx id as cb58 of 32 bytes, else a 400. */
function parseTxId(text: string): void {
  let bytes: Uint8Array | undefined;
  try {
    bytes = fromCb58(text);
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 32)
    throw new InvalidParameterError(`invalid txHash "${text}": expected a cb58 P-chain transaction id`);
}

/** The tx's signed bytes from the node (hex; a trailing checksum is dropped). */
async function txBytes(node: NodeClient, txID: string): Promise<Uint8Array> {
  let answer: { tx: string };
  try {
    answer = await node.call('/ext/bc/P', 'platform.getTx', { txID, encoding: 'hex' });
  } catch (err) {
    if (err instanceof NodeRpcError)
      throw new NotFoundError(`transaction ${txID} is not a P-chain transaction: ${err.message}`);
    throw err;
  }
  const bytes = utils.hexToBuffer(answer.tx);
  const body = bytes.subarray(0, -4);
  const sum = sha256(body).subarray(-4);
  return Buffer.from(sum).equals(Buffer.from(bytes.subarray(-4))) ? body : bytes;
}

/** validationID → its L1's subnet id while it is a current validation, else undefined. */
async function currentValidation(node: NodeClient, validationID: Uint8Array): Promise<string | undefined> {
  try {
    const v = await node.call<{ subnetID: string }>('/ext/bc/P', 'platform.getL1Validator', {
      validationID: toCb58(validationID),
    });
    return v.subnetID;
  } catch (err) {
    if (err instanceof NodeRpcError) return undefined;
    throw err;
  }
}

/**
 * The aggregation request (message, justification, signing subnet) for the L1 Warp message of
 * P-chain tx `txID`; 400 for a malformed id or a tx that emits no such message, 404 for an
 * unknown tx.
 */
export async function pChainTxWarpRequest(
  node: NodeClient,
  networkID: number,
  txID: string,
): Promise<AggregateRequest> {
  parseTxId(txID);
  const signed = pvmManager.unpack(await txBytes(node, txID), avaxSerial.SignedTx);
  const tx = signed.unsignedTx as any;
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  switch (tx._type) {
    case 'pvm.ConvertSubnetToL1Tx': {
      const subnetId: Uint8Array = tx.subnetID.toBytes();
      const id = conversionId(
        subnetId,
        tx.chainID.toBytes(),
        tx.address.bytes,
        (tx.validators as any[]).map((v) => ({
          nodeId: v.nodeId.bytes,
          publicKey: v.signer.publicKey,
          weight: v.weight.value(),
        })),
      );
      return {
        message: hex(pChainMessage(networkID, acp77(0, id))),
        justification: hex(subnetId),
        signingSubnetId: toCb58(subnetId),
      };
    }
    case 'pvm.RegisterL1ValidatorTx': {
      const registration = carriedPayload(tx.message.bytes).payload;
      const validationId = sha256(registration);
      const subnetId = registration.subarray(6, 38);
      const current = await currentValidation(node, validationId);
      return {
        message: hex(pChainMessage(networkID, acp77(2, validationId, Buffer.from([current ? 1 : 0])))),
        // Once the validation is gone, the registration message proves it can never come back.
        ...(current ? {} : { justification: hex(protoBytes(2, registration)) }),
        signingSubnetId: toCb58(subnetId),
      };
    }
    case 'pvm.SetL1ValidatorWeightTx': {
      const { sourceChainId, sourceAddress, payload } = carriedPayload(tx.message.bytes);
      const r = new ByteReader(payload, malformed);
      r.take(2);
      if (r.u32() !== ACP77_TYPE.l1ValidatorWeight)
        throw new InvalidParameterError('the transaction carries no L1ValidatorWeightMessage');
      const validationId = r.take(32);
      const nonce = Buffer.from(r.take(8)).readBigUInt64BE();
      const weight = Buffer.from(r.take(8)).readBigUInt64BE();
      if (weight === 0n) {
        // The validation is gone: its L1 is the one this manager (chain and address) manages.
        const subnet = await l1ManagedBy(node, sourceChainId, sourceAddress);
        const justification =
          conversionJustification(fromCb58(subnet), validationId) ??
          (await registrationJustification(node, sourceChainId, validationId));
        if (!justification)
          throw new InvalidParameterError(
            `transaction ${txID} removes validation ${toCb58(validationId)}, which is neither an initial validator of its L1 nor registered by a message in the Warp logs of chain ${toCb58(sourceChainId)}: its removal cannot be justified`,
          );
        return {
          message: hex(pChainMessage(networkID, acp77(2, validationId, Buffer.from([0])))),
          justification: hex(justification),
          signingSubnetId: subnet,
        };
      }
      const subnet =
        (await currentValidation(node, validationId)) ?? (await subnetOfChain(node, sourceChainId));
      return {
        message: hex(pChainMessage(networkID, acp77(3, validationId, u64(nonce), u64(weight)))),
        signingSubnetId: subnet,
      };
    }
    default:
      throw new InvalidParameterError(
        `transaction ${txID} is a ${String(tx._type).replace(/^pvm\./, '')}, which emits no L1 Warp message (ConvertSubnetToL1Tx, RegisterL1ValidatorTx and SetL1ValidatorWeightTx do)`,
      );
  }
}

async function subnetOfChain(node: NodeClient, chainId: Uint8Array): Promise<string> {
  const { blockchains } = await node.call<{ blockchains: { id: string; subnetID: string }[] }>(
    '/ext/bc/P',
    'platform.getBlockchains',
  );
  const id = toCb58(chainId);
  const chain = blockchains.find((b) => b.id === id);
  if (!chain) throw new NotFoundError(`source blockchain not found for chain ID ${id}`);
  return chain.subnetID;
}

/** Most initial validators a conversion is searched for (the SDK searches 100). */
const MAX_CONVERSION_VALIDATORS = 10_000;

/**
 * The justification of an initial validator's removal: protobuf field 1 {subnet_id, index} when
 * `validationId` is sha256(subnetID ‖ index) for one of the conversion's validators.
 */
function conversionJustification(subnetId: Uint8Array, validationId: Uint8Array): Buffer | undefined {
  const want = Buffer.from(validationId);
  for (let index = 0; index < MAX_CONVERSION_VALIDATORS; index++) {
    if (!want.equals(Buffer.from(sha256(Buffer.concat([subnetId, u32(index)]))))) continue;
    const varint: number[] = [];
    let n = index;
    do {
      varint.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
    const inner = Buffer.concat([protoBytes(1, subnetId), Buffer.from([0x10, ...varint])]);
    return protoBytes(1, inner);
  }
  return undefined;
}

/** keccak256("SendWarpMessage(address,bytes32,bytes)") of the Warp precompile. */
const SEND_WARP_MESSAGE_TOPIC = '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d';
const WARP_PRECOMPILE = '0x0200000000000000000000000000000000000005';

/**
 * The justification of a registered validator's removal: protobuf field 2, the
 * RegisterL1ValidatorMessage whose sha256 is `validationId`, read from the SendWarpMessage logs of
 * the manager chain (when this node serves it).
 */
async function registrationJustification(
  node: NodeClient,
  chainId: Uint8Array,
  validationId: Uint8Array,
): Promise<Buffer | undefined> {
  let logs: { data: string }[];
  try {
    logs = await node.call(`/ext/bc/${toCb58(chainId)}/rpc`, 'eth_getLogs', [
      { fromBlock: '0x0', toBlock: 'latest', address: WARP_PRECOMPILE, topics: [SEND_WARP_MESSAGE_TOPIC] },
    ]);
  } catch {
    return undefined;
  }
  const want = Buffer.from(validationId);
  for (const log of logs) {
    try {
      // ABI `bytes`: offset, length, then the unsigned message.
      const data = Buffer.from(log.data.slice(2), 'hex');
      const unsigned = data.subarray(64, 64 + Number(data.readBigUInt64BE(56)));
      const { payload } = carriedPayload(unsigned);
      const p = Buffer.from(payload);
      if (payloadType(p) === ACP77_TYPE.registerL1Validator && want.equals(Buffer.from(sha256(p))))
        return protoBytes(2, p);
    } catch {
      // Not an AddressedCall: some other contract's message.
    }
  }
  return undefined;
}

/** The L1 whose validator manager is `address` on chain `chainId` (404 when none is). */
async function l1ManagedBy(node: NodeClient, chainId: Uint8Array, address: Uint8Array): Promise<string> {
  const { blockchains } = await node.call<{ blockchains: { subnetID: string }[] }>(
    '/ext/bc/P',
    'platform.getBlockchains',
  );
  const chain = toCb58(chainId);
  const manager = '0x' + Buffer.from(address).toString('hex');
  for (const subnetID of new Set(blockchains.map((b) => b.subnetID))) {
    let info: { managerChainID: string; managerAddress: string | null };
    try {
      info = await node.call('/ext/bc/P', 'platform.getSubnet', { subnetID });
    } catch {
      continue; // the Primary Network is no subnet
    }
    if (info.managerChainID === chain && info.managerAddress?.toLowerCase() === manager) return subnetID;
  }
  throw new NotFoundError(`no L1 is managed by ${manager} on chain ${chain}`);
}

/**
 * Helpers for the P-chain end-to-end tests: the well-known key, signing and issuing avalanchejs
 * builder output, fresh BLS keys, and ACP-77 Warp messages assembled from avalanchejs's own warp
 * classes and signed by an L1 validator key (as the L1's validators would sign them).
 */
import blst from '@chainsafe/blst';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  Address,
  addTxSignatures,
  BigIntPr,
  BlsPublicKey,
  BlsSignature,
  Bytes,
  Id,
  Int,
  L1Validator,
  NodeId,
  PChainOwner,
  pvm,
  pvmSerial,
  secp256k1,
  utils,
  type Common,
  type Context,
  type Utxo,
} from '@avalabs/avalanchejs';
import {
  blsProofOfPossession,
  blsPublicKey,
  blsSecretKeyFromIkm,
  blsSign,
} from '../../src/shared/crypto/bls.js';
import { call, rpc } from '../helpers/devnet.js';

export const EWOQ_KEY = utils.hexToBuffer(
  '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027',
);
export const EWOQ_P = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
export const EWOQ_ADDR = utils.bech32ToBytes(EWOQ_P);

export const pUrl = (url: string): string => `${url}/ext/bc/P`;

export const PRIMARY_NETWORK = '11111111111111111111111111111111LpoYY';

/** A signed tx's id (cb58 of the sha256 of its bytes), as `issueTx` answers it. */
export const txIdOf = (tx: Common.UnsignedTx): string =>
  utils.base58check.encode(sha256(tx.getSignedTx().toBytes()));

/**
 * The P-chain's refusal of `tx` at execution, as avalanchego (v1.11.13 on) words it: `issueTx`'s
 * and the gossip mempool's wraps, `VerifyTx`'s stage, and `StandardTx`'s layer naming the tx (the
 * signed tx, or its id).
 */
export const executionRefusal = (tx: Common.UnsignedTx | string, why: string): string =>
  `couldn't issue tx: failed verification: failed execution: standard tx ${typeof tx === 'string' ? tx : txIdOf(tx)} failed execution: ${why}`;

export async function pCall(
  url: string,
  method: string,
  params?: unknown,
): Promise<{ result?: any; error?: { message: string } }> {
  const { body } = await rpc(pUrl(url), method, params);
  return body;
}

export const pResult = (url: string, method: string, params?: unknown): Promise<any> =>
  call(pUrl(url), method, params);

/** Signs with the given keys and issues through PVMApi; resolves the txID or rejects with the node's message. */
export async function signAndIssue(
  api: pvm.PVMApi,
  tx: Common.UnsignedTx,
  keys: Uint8Array[] = [EWOQ_KEY],
  authKey?: Uint8Array,
): Promise<string> {
  await addTxSignatures({ unsignedTx: tx, privateKeys: keys });
  if (authKey) await signAuth(tx, authKey);
  const { txID } = await api.issueSignedTx(tx.getSignedTx());
  return txID;
}

/**
 * v5 builders leave the subnet-auth (or disable-auth) credential, the last one, unsigned:
 * callers sign it themselves with `addSignatureAt`, as wallets do.
 */
export async function signAuth(tx: Common.UnsignedTx, key: Uint8Array, index = 0): Promise<void> {
  const signature = await secp256k1.sign(tx.toBytes(), key);
  tx.addSignatureAt(signature, tx.getCredentials().length - 1, index);
}

export interface BlsKey {
  secret: Uint8Array;
  publicKey: Uint8Array;
  pop: Uint8Array;
}

export function blsKey(seed: string): BlsKey {
  const secret = blsSecretKeyFromIkm(new TextEncoder().encode(`pchain-test/${seed}/`.padEnd(40, '.')));
  return { secret, publicKey: blsPublicKey(secret), pop: blsProofOfPossession(secret) };
}

/** The fee state, funding address and UTXOs an avalanchejs P-chain builder starts from. */
export interface BuilderBase {
  feeState: pvm.FeeState;
  fromAddressesBytes: Uint8Array[];
  utxos: Utxo[];
}

/** The test key's builder base: the current fee state and its P-chain UTXOs. */
export async function builderBase(api: pvm.PVMApi): Promise<BuilderBase> {
  return {
    feeState: await api.getFeeState(),
    fromAddressesBytes: [EWOQ_ADDR],
    utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
  };
}

/**
 * A Primary Network AddPermissionlessValidatorTx for `nodeId` over `[start, end]`, signed by
 * `key`'s proof of possession, rewards and delegation fees to the test key, a 2% fee.
 */
export function primaryValidatorTx(
  ctx: Context.Context,
  base: BuilderBase,
  v: { nodeId: string; start: bigint; end: bigint; weight: bigint; key: BlsKey },
): Common.UnsignedTx {
  return pvm.newAddPermissionlessValidatorTx(
    {
      ...base,
      nodeId: v.nodeId,
      subnetId: PRIMARY_NETWORK,
      start: v.start,
      end: v.end,
      weight: v.weight,
      rewardAddresses: [EWOQ_ADDR],
      delegatorRewardsOwner: [EWOQ_ADDR],
      shares: 20_000,
      publicKey: v.key.publicKey,
      signature: v.key.pop,
    },
    ctx,
  );
}

/** An initial L1 validator of a ConvertSubnetToL1Tx, both of its owners `owner`. */
export function l1Validator(nodeId: string, weight: bigint, balance: bigint, key: BlsKey, owner = EWOQ_ADDR) {
  return L1Validator.fromNative(
    nodeId,
    weight,
    balance,
    new pvmSerial.ProofOfPossession(key.publicKey, key.pop),
    PChainOwner.fromNative([owner], 1),
    PChainOwner.fromNative([owner], 1),
  );
}

/**
 * A subnet of the test key with one Subnet-EVM chain `chainName` (empty genesis), converted to an
 * L1 managed at `manager` on that chain with `validators` (see `l1Validator`).
 */
export async function convertedL1(
  api: pvm.PVMApi,
  ctx: Context.Context,
  l1: { chainName: string; manager: Uint8Array; validators: L1Validator[] },
): Promise<{ subnetId: string; chainId: string; convertTx: string }> {
  const subnetId = await signAndIssue(
    api,
    pvm.newCreateSubnetTx({ ...(await builderBase(api)), subnetOwners: [EWOQ_ADDR] }, ctx),
  );
  const chainId = await signAndIssue(
    api,
    pvm.newCreateChainTx(
      {
        ...(await builderBase(api)),
        chainName: l1.chainName,
        subnetId,
        subnetAuth: [0],
        vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
        fxIds: [],
        genesisData: {},
      },
      ctx,
    ),
    [EWOQ_KEY],
    EWOQ_KEY,
  );
  const convertTx = await signAndIssue(
    api,
    pvm.newConvertSubnetToL1Tx(
      {
        ...(await builderBase(api)),
        subnetId,
        chainId,
        address: l1.manager,
        subnetAuth: [0],
        validators: l1.validators,
      },
      ctx,
    ),
    [EWOQ_KEY],
    EWOQ_KEY,
  );
  return { subnetId, chainId, convertTx };
}

/** A deterministic NodeID for a test validator. */
export function testNodeId(n: number): string {
  const bytes = new Uint8Array(20);
  bytes[0] = 0xfe;
  bytes[19] = n;
  return new NodeId(bytes).toString();
}

const warpCodec = pvmSerial.warp.getWarpManager().getDefaultCodec();
const withVersion = (b: Uint8Array): Uint8Array => new Uint8Array([0, 0, ...b]);

/** A Warp message from `sourceChainId`/`managerAddress` with the aggregate signature of `signers`. */
export function signedWarp(
  networkId: number,
  sourceChainId: string,
  managerAddress: Uint8Array,
  payload: Uint8Array,
  signers: BlsKey[],
  signersBitset: Uint8Array,
): Uint8Array {
  const call = new pvmSerial.warp.AddressedCallPayloads.AddressedCall(
    new Address(managerAddress),
    new Bytes(payload),
  );
  return signedWarpPayload(
    networkId,
    sourceChainId,
    withVersion(call.toBytes(warpCodec)),
    signers,
    signersBitset,
  );
}

/** A Warp message carrying `warpPayload` as it is (any bytes), signed by `signers`. */
export function signedWarpPayload(
  networkId: number,
  sourceChainId: string,
  warpPayload: Uint8Array,
  signers: BlsKey[],
  signersBitset: Uint8Array,
): Uint8Array {
  const unsigned = new pvmSerial.warp.WarpUnsignedMessage(
    new Int(networkId),
    Id.fromString(sourceChainId),
    new Bytes(warpPayload),
  );
  const unsignedBytes = withVersion(unsigned.toBytes(warpCodec));
  const signature = blst
    .aggregateSerializedSignatures(signers.map((k) => blsSign(k.secret, unsignedBytes)))
    .toBytes(true);
  const message = new pvmSerial.warp.WarpMessage(
    unsigned,
    new pvmSerial.warp.WarpSignature(new Bytes(signersBitset), BlsSignature.fromSignatureBytes(signature)),
  );
  return withVersion(message.toBytes(warpCodec));
}

export function registerPayload(
  subnetId: string,
  nodeId: string,
  key: BlsKey,
  expiry: bigint,
  owner: Uint8Array,
  weight: bigint,
): Uint8Array {
  const msg = new pvmSerial.warp.AddressedCallPayloads.RegisterL1ValidatorMessage(
    Id.fromString(subnetId),
    NodeId.fromString(nodeId),
    BlsPublicKey.fromBytes(key.publicKey)[0],
    new BigIntPr(expiry),
    PChainOwner.fromNative([owner], 1),
    PChainOwner.fromNative([owner], 1),
    new BigIntPr(weight),
  );
  return withVersion(msg.toBytes(warpCodec));
}

export function weightPayload(validationId: string, nonce: bigint, weight: bigint): Uint8Array {
  const msg = new pvmSerial.warp.AddressedCallPayloads.L1ValidatorWeightMessage(
    Id.fromString(validationId),
    new BigIntPr(nonce),
    new BigIntPr(weight),
  );
  return withVersion(msg.toBytes(warpCodec));
}

export async function feeState(api: pvm.PVMApi) {
  return api.getFeeState();
}

export type { Context };

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** An unsigned Warp message from the P-chain carrying an ACP-77 payload (typeID + fields). */
export function pChainMessage(networkId: number, typeId: number, fields: Uint8Array): Uint8Array {
  const inner = Buffer.concat([Buffer.alloc(2), u32(typeId), Buffer.from(fields)]);
  const call = Buffer.concat([Buffer.alloc(2), u32(1), u32(0), u32(inner.length), inner]);
  return Buffer.concat([Buffer.alloc(2), u32(networkId), Buffer.alloc(32), u32(call.length), call]);
}

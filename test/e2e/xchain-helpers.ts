/**
 * Helpers for the X-chain end-to-end tests: raw JSON-RPC on /ext/bc/X, polling for acceptance,
 * and signing txs avalanchejs has no builder for (CreateAssetTx, OperationTx), assembled from
 * avalanchejs's own serializable classes.
 */
import {
  avaxSerial,
  avmSerial,
  BigIntPr,
  Byte,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  secp256k1,
  Signature,
  Stringpr,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { rpc } from '../helpers/devnet.js';

export const EWOQ_KEY = utils.hexToBuffer(
  '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027',
);
export const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
export const EWOQ_ADDR = utils.bech32ToBytes(EWOQ_X);
export const codec = avmSerial.getAVMManager().getDefaultCodec();

/** avalanchejs registers the nft fx classes in its AVM codec but does not export them. */
export function avmClass(typeId: number): any {
  return (codec as unknown as { typeIdToType: any[] }).typeIdToType[typeId];
}
export const NftMintOutput = () => avmClass(10);
export const NftTransferOutput = () => avmClass(11);
export const NftMintOperation = () => avmClass(12);
export const NftTransferOperation = () => avmClass(13);
export const NftCredential = () => avmClass(14);

export interface RpcFailure {
  code: number;
  message: string;
}

/** Calls `/ext/bc/X`; resolves `{result}` or `{error}` without throwing. */
export async function xCall(url: string, method: string, params?: unknown, path = '/ext/bc/X') {
  const { status, body } = await rpc(`${url}${path}`, method, params);
  if (status !== 200) throw new Error(`HTTP ${status}`);
  return body as { result?: any; error?: RpcFailure };
}

export async function xResult(url: string, method: string, params?: unknown, path?: string): Promise<any> {
  const body = await xCall(url, method, params, path);
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export function checkedHex(bytes: Uint8Array): string {
  return utils.bufferToHex(utils.addChecksum(bytes));
}

/** Polls getTxStatus until Accepted (clients poll the same way). */
export async function waitAccepted(url: string, txID: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { status } = await xResult(url, 'avm.getTxStatus', { txID });
    if (status === 'Accepted') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`tx ${txID} was not accepted`);
}

export async function utxosOf(url: string, address: string, sourceChain?: string): Promise<Utxo[]> {
  const result = await xResult(url, 'avm.getUTXOs', { addresses: [address], sourceChain, encoding: 'hex' });
  return (result.utxos as string[]).map((h) => avmSerial.getAVMManager().unpack(utils.hexToBuffer(h), Utxo));
}

export function amountOf(utxo: Utxo): bigint {
  return (utxo.output as TransferOutput).amount();
}

/** The largest AVAX UTXO of an address. */
export async function richestUtxo(url: string, address: string, avaxAssetID: string): Promise<Utxo> {
  const utxos = (await utxosOf(url, address)).filter(
    (u) => u.getAssetId() === avaxAssetID && u.output instanceof TransferOutput,
  );
  utxos.sort((a, b) => (amountOf(b) > amountOf(a) ? 1 : -1));
  if (!utxos[0]) throw new Error(`no AVAX UTXO for ${address}`);
  return utxos[0];
}

export function inputFrom(utxo: Utxo, sigIndices = [0]): TransferableInput {
  return new TransferableInput(
    utxo.utxoId,
    utxo.assetId,
    new TransferInput(new BigIntPr(amountOf(utxo)), Input.fromNative(sigIndices)),
  );
}

export function avaxBase(
  ctx: { networkID: number; xBlockchainID: string },
  outputs: TransferableOutput[],
  inputs: TransferableInput[],
  memo = new Uint8Array(),
): avaxSerial.BaseTx {
  return new avaxSerial.BaseTx(
    new Int(ctx.networkID),
    Id.fromString(ctx.xBlockchainID),
    outputs,
    inputs,
    new Bytes(memo),
  );
}

/**
 * An operation as the AVM codec lays it out (asset id, UTXO ids, typed fx operation).
 * avalanchejs keeps its TransferableOp class private, so this mirrors its `toBytes`.
 */
export function transferableOp(assetId: string, utxoIds: avaxSerial.UTXOID[], op: any): any {
  return {
    _type: 'avax.TransferableOp',
    toBytes(c: typeof codec) {
      const count = new Uint8Array(4);
      new DataView(count.buffer).setUint32(0, utxoIds.length);
      const parts = [
        Id.fromString(assetId).toBytes(),
        count,
        ...utxoIds.map((u) => u.toBytes(c)),
        c.PackPrefix(op),
      ];
      return utils.concatBytes(...parts);
    },
  };
}

/** Signs every credential with `key` (one signature each); `nft` marks credentials of nft ops. */
export async function signWith(
  unsigned: any,
  credentialKinds: ('secp' | 'nft')[],
  key: Uint8Array = EWOQ_KEY,
): Promise<avaxSerial.SignedTx> {
  const unsignedBytes = utils.concatBytes(new Uint8Array([0, 0]), codec.PackPrefix(unsigned));
  const sig = await secp256k1.signHash(sha256(unsignedBytes), key);
  const creds = credentialKinds.map((k) =>
    k === 'nft' ? new (NftCredential())([new Signature(sig)]) : new Credential([new Signature(sig)]),
  );
  return new avaxSerial.SignedTx(unsigned, creds);
}

/** A signed tx's bytes; avalanchejs's SignedTx.toBytes refuses txs without a VM tag (CreateAssetTx, OperationTx). */
export function signedBytes(tx: avaxSerial.SignedTx): Uint8Array {
  return utils.concatBytes(
    new Uint8Array([0, 0]),
    codec.PackPrefix(tx.unsignedTx),
    codec.PackPrefixList(tx.credentials as any),
  );
}

export async function issue(url: string, tx: avaxSerial.SignedTx): Promise<string> {
  const { txID } = await xResult(url, 'avm.issueTx', { tx: checkedHex(signedBytes(tx)), encoding: 'hex' });
  return txID;
}

export function secpOut(assetID: string, amount: bigint, addresses: Uint8Array[]): TransferableOutput {
  return TransferableOutput.fromNative(assetID, amount, addresses);
}

export function owners(addresses: Uint8Array[]): OutputOwners {
  return OutputOwners.fromNative(addresses);
}

/**
 * A signed CreateAssetTx of a fungible asset whose whole `supply` goes to the test key, its fee
 * paid from the key's richest AVAX UTXO.
 */
export async function fungibleAssetTx(
  url: string,
  ctx: { networkID: number; xBlockchainID: string; avaxAssetID: string; createAssetTxFee: bigint },
  asset: { name: string; symbol: string; denomination: number; supply: bigint },
): Promise<avaxSerial.SignedTx> {
  const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
  const base = avaxBase(
    ctx,
    [secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.createAssetTxFee, [EWOQ_ADDR])],
    [inputFrom(utxo)],
  );
  const create = new avmSerial.CreateAssetTx(
    base,
    new Stringpr(asset.name),
    new Stringpr(asset.symbol),
    new Byte(new Uint8Array([asset.denomination])),
    [
      new avmSerial.InitialState(new Int(0), [
        new TransferOutput(new BigIntPr(asset.supply), owners([EWOQ_ADDR])),
      ]),
    ],
  );
  return signWith(create, ['secp']);
}

export { BigIntPr, Bytes, Id, Int, TransferOutput };

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
  Utxo,
  utils,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { inputIdOf } from '../../components/utxo-id.js';
import { avmCodec, withVersion } from '../codec.js';
import { keyOf } from './effects.js';
import { readTx, readUtxo, type XUtxo } from './model.js';
import {
  TxVerifyError,
  verifySemantics,
  verifySyntax,
  type StateView,
  type VerifierContext,
} from './verifier.js';

const KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const ADDR = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(KEY));
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const ctx: VerifierContext = {
  networkId: 12345,
  chainId: utils.base58check.decode(X),
  avaxAssetId: utils.base58check.decode(AVAX),
  txFee: 1_000_000n,
  createAssetTxFee: 1_000_000n,
  atomicPeers: [],
};

function genesisUtxo(amount: bigint, locktime = 0n): Utxo {
  return new Utxo(
    avaxSerial.UTXOID.fromNative(AVAX, 0),
    Id.fromString(AVAX),
    new TransferOutput(new BigIntPr(amount), OutputOwners.fromNative([ADDR], locktime)),
  );
}

function viewOf(utxos: Utxo[]): StateView {
  const byKey = new Map<string, XUtxo>();
  for (const u of utxos)
    byKey.set(keyOf(inputIdOf(u.utxoId.txID.toBytes(), u.utxoId.outputIdx.value())), readUtxo(u));
  return {
    utxo: (ref) => byKey.get(keyOf(inputIdOf(ref.txId, ref.outputIndex))),
    atomicUtxo: () => undefined,
    asset: (id) => (Buffer.from(id).equals(Buffer.from(ctx.avaxAssetId)) ? { fxs: [0] } : undefined),
  };
}

interface Spec {
  amountIn?: bigint;
  outs?: bigint[];
  memo?: Uint8Array;
  networkId?: number;
  credentials?: number;
  key?: Uint8Array;
}

async function build(spec: Spec = {}, unsigned?: any): Promise<Uint8Array> {
  const amountIn = spec.amountIn ?? 10_000_000n;
  const tx =
    unsigned ??
    new avmSerial.BaseTx(
      new avaxSerial.BaseTx(
        new Int(spec.networkId ?? 12345),
        Id.fromString(X),
        (spec.outs ?? [4_000_000n]).map((a) => TransferableOutput.fromNative(AVAX, a, [ADDR])),
        [
          new TransferableInput(
            avaxSerial.UTXOID.fromNative(AVAX, 0),
            Id.fromString(AVAX),
            new TransferInput(new BigIntPr(amountIn), Input.fromNative([0])),
          ),
        ],
        new Bytes(spec.memo ?? new Uint8Array()),
      ),
    );
  const unsignedBytes = withVersion(avmCodec.PackPrefix(tx));
  const sig = await secp256k1.signHash(sha256(unsignedBytes), spec.key ?? KEY);
  const creds = Array.from({ length: spec.credentials ?? 1 }, () => new Credential([new Signature(sig)]));
  return withVersion(Buffer.concat([avmCodec.PackPrefix(tx), avmCodec.PackPrefixList(creds)]));
}

const NOW = 1_800_000_000n;
/** Matches a refusal's exact message (assert.rejects would match `TxVerifyError: …`). */
const says = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof TxVerifyError, String(e));
  assert.match(e.message, pattern);
  return true;
};
const check = (bytes: Uint8Array, utxos = [genesisUtxo(10_000_000n)]) => {
  const tx = readTx(bytes);
  verifySyntax(tx, ctx);
  verifySemantics(tx, ctx, viewOf(utxos), NOW);
};

describe('X-chain tx verifier', () => {
  it('accepts a balanced, signed base tx (surplus burned as the fee)', async () => {
    check(await build());
  });

  it('refuses syntax errors before looking at state', async () => {
    const cases: [Spec, RegExp][] = [
      [{ networkId: 5 }, /^tx has wrong network ID$/],
      [{ memo: new Uint8Array(257) }, /^memo exceeds maximum length: 257 > 256$/],
      [{ outs: [9_000_001n] }, /^insufficient funds$/],
      [{ outs: [5n, 3n] }, /^outputs not sorted$/],
      [{ outs: [0n] }, /^output has no value$/],
      [{ credentials: 2 }, /^wrong number of credentials: 2 != 1$/],
    ];
    for (const [spec, pattern] of cases) {
      const tx = readTx(await build(spec));
      assert.throws(
        () => verifySyntax(tx, ctx),
        (e: unknown) => e instanceof TxVerifyError && pattern.test(e.message),
      );
    }
  });

  it('refuses spends the state does not allow', async () => {
    await assert.rejects(
      async () => check(await build({ key: new Uint8Array(32).fill(7) })),
      says(/^failed to verify transfer: wrong signature: expected signature from \w+ but got from \w+$/),
    );
    await assert.rejects(
      async () => check(await build(), []),
      says(/^failed to verify transfer: failed to get utxo \w+: not found$/),
    );
    await assert.rejects(
      async () => check(await build(), [genesisUtxo(10_000_000n, NOW + 1n)]),
      says(/^failed to verify transfer: output is time locked$/),
    );
    await assert.rejects(
      async () => check(await build(), [genesisUtxo(9_999_999n)]),
      says(/^failed to verify transfer: utxo amount and input amount are not equal: 9999999 != 10000000$/),
    );
  });

  it('checks asset names, symbols and the create-asset fee', async () => {
    const base = (amountOut: bigint) =>
      new avaxSerial.BaseTx(
        new Int(12345),
        Id.fromString(X),
        [TransferableOutput.fromNative(AVAX, amountOut, [ADDR])],
        [
          new TransferableInput(
            avaxSerial.UTXOID.fromNative(AVAX, 0),
            Id.fromString(AVAX),
            new TransferInput(new BigIntPr(10_000_000n), Input.fromNative([0])),
          ),
        ],
        new Bytes(new Uint8Array()),
      );
    const create = (name: string, symbol: string, amountOut = 9_000_000n) =>
      new avmSerial.CreateAssetTx(
        base(amountOut),
        new Stringpr(name),
        new Stringpr(symbol),
        new Byte(new Uint8Array([2])),
        [
          new avmSerial.InitialState(new Int(0), [
            new TransferOutput(new BigIntPr(5n), OutputOwners.fromNative([ADDR])),
          ]),
        ],
      );
    check(await build({}, create('Good Name', 'GOOD')));
    await assert.rejects(
      async () => check(await build({}, create('No Symbol', ''))),
      says(/^symbol is too short, minimum size is 1$/),
    );
    await assert.rejects(
      async () => check(await build({}, create('x'.repeat(129), 'LONG'))),
      says(/^name is too long, maximum size is 128$/),
    );
    await assert.rejects(
      async () => check(await build({}, create('bad', 'low'))),
      says(/^asset's symbol must be all upper case letters$/),
    );
    await assert.rejects(
      async () => check(await build({}, create(' pad', 'PAD'))),
      says(/^unexpected whitespace provided$/),
    );
    await assert.rejects(
      async () => check(await build({}, create('Fee', 'FEE', 9_000_001n))),
      says(/^insufficient funds$/),
    );
  });
});

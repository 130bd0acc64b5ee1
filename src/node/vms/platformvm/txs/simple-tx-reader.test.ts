import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  avaxSerial,
  BigIntPr,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  pvmSerial,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
} from '@avalabs/avalanchejs';
import { parseSignedTx, parseSignedTxGeneric, pvmCodec, type ParsedTx } from '../codec.js';
import { readSimpleTx } from './simple-tx-reader.js';

/** A small seeded generator, so a failure names a tx that can be made again. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));
  const u64 = () => (BigInt(int(2 ** 32)) << 32n) | BigInt(int(2 ** 32));
  return { int, bytes, u64, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const u32 = (rng: Rng) => (rng.chance(0.3) ? rng.int(4) : rng.int(2 ** 32));

function owners(rng: Rng): OutputOwners {
  const addresses = Array.from({ length: rng.int(4) }, () => rng.bytes(20));
  return OutputOwners.fromNative(addresses, rng.chance(0.5) ? 0n : rng.u64(), u32(rng));
}

function output(rng: Rng): TransferableOutput {
  const transfer = new TransferOutput(new BigIntPr(rng.u64()), owners(rng));
  const out = rng.chance(0.3) ? new pvmSerial.StakeableLockOut(new BigIntPr(rng.u64()), transfer) : transfer;
  return new TransferableOutput(new Id(rng.bytes(32)), out);
}

function input(rng: Rng): TransferableInput {
  const indices = Array.from({ length: rng.int(4) }, () => u32(rng));
  const transfer = new TransferInput(new BigIntPr(rng.u64()), Input.fromNative(indices));
  const inp = rng.chance(0.3) ? new pvmSerial.StakeableLockIn(new BigIntPr(rng.u64()), transfer) : transfer;
  return new TransferableInput(
    new avaxSerial.UTXOID(new Id(rng.bytes(32)), new Int(u32(rng))),
    new Id(rng.bytes(32)),
    inp,
  );
}

const list = <T>(rng: Rng, max: number, make: (rng: Rng) => T): T[] =>
  Array.from({ length: rng.int(max + 1) }, () => make(rng));

/** A signed Base, Import or Export tx of random content, as avalanchejs encodes it. */
function randomTx(seed: number): Uint8Array {
  const rng = prng(seed);
  const base = new avaxSerial.BaseTx(
    new Int(u32(rng)),
    new Id(rng.bytes(32)),
    list(rng, 4, output),
    list(rng, 4, input),
    new Bytes(rng.bytes(rng.chance(0.5) ? 0 : rng.int(300))),
  );
  const kind = seed % 3;
  const unsigned =
    kind === 0
      ? new pvmSerial.BaseTx(base)
      : kind === 1
        ? new pvmSerial.ImportTx(base, new Id(rng.bytes(32)), list(rng, 3, input))
        : new pvmSerial.ExportTx(base, new Id(rng.bytes(32)), list(rng, 3, output));
  const credentials = list(rng, 4, () => new Credential(list(rng, 3, () => new Signature(rng.bytes(65)))));
  return new avaxSerial.SignedTx(unsigned, credentials).toBytes();
}

/** What parsing answers: the parsed tx, or the error's name and message. */
function outcome(parse: (bytes: Uint8Array) => ParsedTx, bytes: Uint8Array): unknown {
  try {
    return parse(bytes);
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
}

const withU32At = (bytes: Uint8Array, at: number, value: number): Uint8Array => {
  const copy = new Uint8Array(bytes);
  new DataView(copy.buffer).setUint32(at, value);
  return copy;
};

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe('direct P-chain tx reader', () => {
  it('reads random Base, Import and Export txs exactly as the generic decoder does', () => {
    for (const seed of SEEDS) {
      const bytes = randomTx(seed);
      const fast = readSimpleTx(bytes);
      assert.ok(fast, `seed ${seed}: read directly`);
      assert.deepStrictEqual(fast, parseSignedTxGeneric(bytes), `seed ${seed}`);
      // A Buffer's slices are views, also Buffers: the same as the decoder's, field by field.
      const buffer = Buffer.from(bytes);
      assert.deepStrictEqual(readSimpleTx(buffer), parseSignedTxGeneric(buffer), `seed ${seed} (Buffer)`);
      // Encoding what it read gives the bytes back: the unsigned part, then the whole signed tx.
      assert.deepEqual(fast.unsignedBytes, new Uint8Array([0, 0, ...pvmCodec.PackPrefix(fast.unsigned)]));
      const credentials = fast.credentials.map((sigs) => new Credential(sigs.map((s) => new Signature(s))));
      assert.deepEqual(new avaxSerial.SignedTx(fast.unsigned, credentials).toBytes(), bytes, `seed ${seed}`);
    }
  });

  it('leaves malformed bytes to the generic decoder, which refuses them in its words', () => {
    const bytes = randomTx(3); // an ExportTx
    // Offsets in the layout: codec version (2), type id (4), network id (4), blockchain id (32).
    const outputsCount = 2 + 4 + 4 + 32;
    const unsignedLength = parseSignedTxGeneric(bytes).unsignedBytes.length;
    const cases: Record<string, Uint8Array> = {
      'another codec version': Uint8Array.from(bytes, (b, i) => (i === 1 ? 1 : b)),
      'an unknown tx type id': withU32At(bytes, 2, 99),
      'a staking tx type id': withU32At(bytes, 2, 12),
      'an empty input': new Uint8Array(),
      'a codec version only': new Uint8Array([0, 0]),
      'a trailing byte': new Uint8Array([...bytes, 0]),
      'a truncated tx': bytes.subarray(0, bytes.length - 1),
      'an output count past the end': withU32At(bytes, outputsCount, 0xffff_ffff),
      'a credential count past the end': withU32At(bytes, unsignedLength, 1000),
      'an unknown credential type id': withU32At(bytes, unsignedLength + 4, 77),
    };
    for (const [name, bad] of Object.entries(cases)) {
      assert.equal(readSimpleTx(bad), undefined, name);
      const generic = outcome(parseSignedTxGeneric, bad);
      assert.ok((generic as { error?: string }).error, `${name}: the generic decoder refuses it`);
      assert.deepStrictEqual(outcome(parseSignedTx, bad), generic, name);
    }
  });

  it('leaves other type ids inside a simple tx to the generic decoder', () => {
    // A BaseTx with one output: its type id, then a stakeable-locked output wrapping another.
    const rng = prng(7);
    const transfer = new TransferOutput(new BigIntPr(5n), owners(rng));
    const nested = new pvmSerial.StakeableLockOut(
      new BigIntPr(1n),
      new pvmSerial.StakeableLockOut(new BigIntPr(2n), transfer),
    );
    const base = new avaxSerial.BaseTx(
      new Int(1),
      new Id(rng.bytes(32)),
      [new TransferableOutput(new Id(rng.bytes(32)), nested)],
      [],
      new Bytes(new Uint8Array()),
    );
    const bytes = new avaxSerial.SignedTx(new pvmSerial.BaseTx(base), []).toBytes();
    assert.equal(readSimpleTx(bytes), undefined);
    // The generic decoder takes it; parseSignedTx answers what it does.
    assert.deepStrictEqual(parseSignedTx(bytes), parseSignedTxGeneric(bytes));
    // A secp256k1 mint output's type id (6) where the output is: the PVM codec has the type, the
    // direct reader does not, so the generic decoder answers (here a misaligned read it refuses).
    const outputType = 2 + 4 + 4 + 32 + 4 + 32;
    const mint = withU32At(bytes, outputType, 6);
    assert.equal(readSimpleTx(mint), undefined);
    assert.deepStrictEqual(outcome(parseSignedTx, mint), outcome(parseSignedTxGeneric, mint));
  });

  it('agrees with the generic decoder on every truncation and on random byte changes', () => {
    for (const seed of SEEDS.slice(0, 40)) {
      const bytes = randomTx(seed);
      const rng = prng(seed * 7919);
      const variants = [bytes.subarray(0, rng.int(bytes.length))];
      for (let i = 0; i < 20; i++) {
        const changed = new Uint8Array(bytes);
        changed[rng.int(bytes.length)] ^= 1 << rng.int(8);
        variants.push(changed);
      }
      for (const bad of variants)
        assert.deepStrictEqual(
          outcome(parseSignedTx, bad),
          outcome(parseSignedTxGeneric, bad),
          `seed ${seed}`,
        );
    }
    for (let cut = 0; cut < randomTx(4).length; cut++) {
      const short = randomTx(4).subarray(0, cut);
      assert.deepStrictEqual(
        outcome(parseSignedTx, short),
        outcome(parseSignedTxGeneric, short),
        `cut ${cut}`,
      );
    }
  });
});

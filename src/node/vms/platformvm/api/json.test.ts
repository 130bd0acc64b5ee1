import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Address,
  avaxSerial,
  BigIntPr,
  BlsSignature,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  L1Validator,
  NodeId,
  OutputOwners,
  PChainOwner,
  pvmSerial,
  Signature,
  Stringpr,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
} from '@avalabs/avalanchejs';
import { blsProofOfPossession, blsPublicKey, blsSecretKeyFromIkm } from '../../../../shared/crypto/bls.js';
import { toCb58 } from '../../../../shared/encoding.js';
import { stringifyJson } from '../../../rpc/json-integer.js';
import { blockId, encodeBlock, rewardValidatorTxBytes } from '../block/block.js';
import { parseSignedTx } from '../codec.js';
import { PlatformJson } from './json.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const FX = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ';
const ASSET = new Uint8Array(32).fill(1);
const IN_TX = new Uint8Array(32).fill(2);
const ADDR = new Uint8Array(20).fill(3);
const P_ADDR = utils.format('P', 'local', ADDR);
const MAX_U64 = 2n ** 64n - 1n;
const json = new PlatformJson('local');

const id = (b: Uint8Array) => new Id(b);
const owners = (locktime = 0n) => new OutputOwners(new BigIntPr(locktime), new Int(1), [new Address(ADDR)]);
const base = (outs: TransferableOutput[] = [], ins: TransferableInput[] = [], memo = new Uint8Array()) =>
  new avaxSerial.BaseTx(new Int(12345), Id.fromString(PRIMARY), outs, ins, new Bytes(memo));
const input = (amount: bigint, sigs: number[]) =>
  new TransferableInput(
    new avaxSerial.UTXOID(id(IN_TX), new Int(3)),
    id(ASSET),
    new TransferInput(new BigIntPr(amount), Input.fromNative(sigs)),
  );
const auth = (sigs: number[]) => Input.fromNative(sigs);

/** A tx signed with the given credentials, parsed as the node reads a stored one. */
function signed(unsigned: unknown, credentials: Uint8Array[][] = []) {
  const creds = credentials.map((sigs) => new Credential(sigs.map((b) => new Signature(b))));
  return parseSignedTx(new avaxSerial.SignedTx(unsigned as never, creds).toBytes());
}

/** The tx as getTx json writes it. */
const render = (unsigned: unknown, credentials: Uint8Array[][] = []): string =>
  stringifyJson(json.tx(signed(unsigned, credentials)));

const signedId = (unsigned: unknown, credentials: Uint8Array[][] = []) =>
  toCb58(signed(unsigned, credentials).id);

/** A real BLS key (avalanchejs checks the points when it builds or reads a proof). */
const BLS = (() => {
  const secret = blsSecretKeyFromIkm(new TextEncoder().encode('json-test/'.padEnd(40, '.')));
  const publicKey = blsPublicKey(secret);
  const pop = blsProofOfPossession(secret);
  const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
  return { publicKey, pop, json: `{"publicKey":"${hex(publicKey)}","proofOfPossession":"${hex(pop)}"}` };
})();

describe('P-chain json encoding', () => {
  const A = toCb58(ASSET);
  const transfer = (amount: bigint, locktime = 0n) =>
    `{"addresses":["${P_ADDR}"],"amount":${amount},"locktime":${locktime},"threshold":1}`;
  const owner = `{"addresses":["${P_ADDR}"],"locktime":0,"threshold":1}`;
  const emptyBase = `"networkID":12345,"blockchainID":"${PRIMARY}","outputs":[],"inputs":[],"memo":"0x"`;

  it('writes a BaseTx as the reference marshals it: uint64s as bare numbers with every digit', () => {
    const locked = new pvmSerial.StakeableLockOut(
      new BigIntPr(100n),
      new TransferOutput(new BigIntPr(5n), owners(7n)),
    );
    const unsigned = new pvmSerial.BaseTx(
      base(
        [
          new TransferableOutput(id(ASSET), new TransferOutput(new BigIntPr(MAX_U64), owners())),
          new TransferableOutput(id(ASSET), locked),
        ],
        [input(9_007_199_254_740_993n, [0])],
        new Uint8Array([0xde, 0xad]),
      ),
    );
    const sig = new Uint8Array(65).fill(0xab);
    assert.equal(
      render(unsigned, [[sig]]),
      `{"unsignedTx":{"networkID":12345,"blockchainID":"${PRIMARY}",` +
        `"outputs":[{"assetID":"${A}","fxID":"${FX}","output":${transfer(MAX_U64)}},` +
        `{"assetID":"${A}","fxID":"${FX}","output":{"locktime":100,"output":${transfer(5n, 7n)}}}],` +
        `"inputs":[{"txID":"${toCb58(IN_TX)}","outputIndex":3,"assetID":"${A}","fxID":"${FX}",` +
        `"input":{"amount":9007199254740993,"signatureIndices":[0]}}],"memo":"0xdead"},` +
        `"credentials":[{"signatures":["0x${'ab'.repeat(65)}"]}],"id":"${signedId(unsigned, [[sig]])}"}`,
    );
  });

  it('nests the validator, writes the BLS signer in hex and an empty signer as {}', () => {
    const nodeId = NodeId.fromHex('0x' + '44'.repeat(20));
    const validator = new pvmSerial.Validator(
      nodeId,
      new BigIntPr(10n),
      new BigIntPr(20n),
      new BigIntPr(30n),
    );
    const subnetValidator = new pvmSerial.SubnetValidator(validator, Id.fromString(PRIMARY));
    const pop = new pvmSerial.ProofOfPossession(BLS.publicKey, BLS.pop);
    const stake = [new TransferableOutput(id(ASSET), new TransferOutput(new BigIntPr(30n), owners()))];
    const add = (signer: pvmSerial.Signer | pvmSerial.SignerEmpty) =>
      new pvmSerial.AddPermissionlessValidatorTx(
        new avaxSerial.BaseTx(new Int(12345), Id.fromString(PRIMARY), [], [], new Bytes(new Uint8Array())),
        subnetValidator,
        signer,
        stake,
        owners(),
        owners(),
        new Int(20_000),
      );
    const v = `{"nodeID":"${nodeId.toString()}","start":10,"end":20,"weight":30}`;
    const tail =
      `"stake":[{"assetID":"${A}","fxID":"${FX}","output":${transfer(30n)}}],` +
      `"validationRewardsOwner":${owner},"delegationRewardsOwner":${owner},"shares":20000}`;
    const withKey = add(new pvmSerial.Signer(pop));
    assert.equal(
      render(withKey),
      `{"unsignedTx":{${emptyBase},"validator":${v},"subnetID":"${PRIMARY}",` +
        `"signer":${BLS.json},${tail},` +
        `"credentials":[],"id":"${signedId(withKey)}"}`,
    );
    assert.match(render(add(new pvmSerial.SignerEmpty())), /"subnetID":"[^"]+","signer":\{\},"stake"/);

    const subnet = new Uint8Array(32).fill(8);
    const addSubnet = new pvmSerial.AddSubnetValidatorTx(
      base(),
      new pvmSerial.SubnetValidator(validator, id(subnet)),
      auth([0, 2]),
    );
    assert.ok(
      render(addSubnet).includes(
        `"validator":{"nodeID":"${nodeId.toString()}","start":10,"end":20,"weight":30,"subnetID":"${toCb58(subnet)}"},` +
          `"subnetAuthorization":{"signatureIndices":[0,2]}}`,
      ),
      'SubnetValidator embeds Validator: its fields sit beside subnetID',
    );
  });

  it('writes CreateChainTx genesis in base64 (a plain Go []byte) and its other members in order', () => {
    const subnet = new Uint8Array(32).fill(8);
    const vm = new Uint8Array(32).fill(9);
    const tx = new pvmSerial.CreateChainTx(
      base(),
      id(subnet),
      new Stringpr('my chain'),
      id(vm),
      [],
      new Bytes(new TextEncoder().encode('{"a":1}')),
      auth([0]),
    );
    assert.ok(
      render(tx).includes(
        `${emptyBase},"subnetID":"${toCb58(subnet)}","chainName":"my chain","vmID":"${toCb58(vm)}",` +
          `"fxIDs":[],"genesisData":"eyJhIjoxfQ==","subnetAuthorization":{"signatureIndices":[0]}}`,
      ),
    );
  });

  it('writes ACP-77 txs: hex node ids, cb58 PChainOwner addresses, the proof of possession as numbers', () => {
    const chain = new Uint8Array(32).fill(10);
    const subnet = new Uint8Array(32).fill(8);
    const pop = new pvmSerial.ProofOfPossession(BLS.publicKey, BLS.pop);
    const pOwner = new PChainOwner(new Int(1), [new Address(ADDR)]);
    const convert = new pvmSerial.ConvertSubnetToL1Tx(
      base(),
      id(subnet),
      id(chain),
      new Bytes(new Uint8Array([0xab, 0xcd])),
      [
        new L1Validator(
          new Bytes(new Uint8Array(20).fill(4)),
          new BigIntPr(MAX_U64),
          new BigIntPr(7n),
          pop,
          pOwner,
          pOwner,
        ),
      ],
      auth([1]),
    );
    const ownerJson = `{"threshold":1,"addresses":["${toCb58(ADDR)}"]}`;
    assert.ok(
      render(convert).includes(
        `"subnetID":"${toCb58(subnet)}","chainID":"${toCb58(chain)}","address":"0xabcd","validators":[` +
          `{"nodeID":"0x${'04'.repeat(20)}","weight":${MAX_U64},"balance":7,` +
          `"signer":${BLS.json},` +
          `"remainingBalanceOwner":${ownerJson},"deactivationOwner":${ownerJson}}],` +
          `"subnetAuthorization":{"signatureIndices":[1]}}`,
      ),
      render(convert),
    );
    const signature = BlsSignature.fromSignatureBytes(BLS.pop);
    const register = new pvmSerial.RegisterL1ValidatorTx(
      base(),
      new BigIntPr(12n),
      signature,
      new Bytes(new Uint8Array([1, 2])),
    );
    const registered = JSON.parse(render(register)).unsignedTx;
    assert.equal(registered.balance, 12);
    assert.deepEqual(registered.proofOfPossession, [...BLS.pop]);
    assert.equal(registered.message, '0x0102');
  });

  it('writes blocks with the members of their Go structs, in order, and the txs inside', () => {
    const parent = new Uint8Array(32).fill(7);
    const stakerTx = new Uint8Array(32).fill(9);
    const reward = rewardValidatorTxBytes(stakerTx);
    const baseTx = new avaxSerial.SignedTx(new pvmSerial.BaseTx(base()), []).toBytes();
    const block = (kind: 'standard' | 'proposal' | 'commit' | 'genesis', txs: Uint8Array[]) => {
      const bytes = encodeBlock({ kind, parentId: parent, height: 6n, time: 1_700_000_000n, txs });
      return stringifyJson(json.block(blockId(bytes), bytes));
    };
    const ids = (bytes: Uint8Array) => toCb58(blockId(bytes));
    const head = (kind: 'standard' | 'proposal' | 'commit' | 'genesis', txs: Uint8Array[]) =>
      `"parentID":"${toCb58(parent)}","height":6,"id":"${ids(
        encodeBlock({ kind, parentId: parent, height: 6n, time: 1_700_000_000n, txs }),
      )}"`;
    const baseJson = `{"unsignedTx":{${emptyBase}},"credentials":[],"id":"${toCb58(parseSignedTx(baseTx).id)}"}`;
    assert.equal(
      block('standard', [baseTx, baseTx]),
      `{"time":1700000000,${head('standard', [baseTx, baseTx])},"txs":[${baseJson},${baseJson}]}`,
    );
    assert.equal(
      block('proposal', [reward]),
      `{"time":1700000000,"txs":[],${head('proposal', [reward])},"tx":{"unsignedTx":{"txID":"${toCb58(stakerTx)}"},` +
        `"credentials":[],"id":"${toCb58(parseSignedTx(reward).id)}"}}`,
    );
    assert.equal(block('commit', []), `{"time":1700000000,${head('commit', [])}}`);
    assert.equal(block('genesis', []), `{${head('genesis', [])}}`, 'an Apricot commit block has no time');
  });
});

/**
 * Issue 4: every bad P-chain transaction gets a clear error and leaves the state untouched —
 * height and balances are what they were before it was issued, and, as in the reference's mempool,
 * the tx is remembered as Dropped with the reason it was refused for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  avaxSerial,
  Context,
  Int,
  OutputOwners,
  pvm,
  pvmSerial,
  secp256k1,
  TransferableOutput,
  utils,
  type Common,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_P,
  executionRefusal,
  signAndIssue,
  signAuth,
  testNodeId,
  txIdOf,
} from './pchain-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const AVAX = 1_000_000_000n;
const OTHER_KEY = utils.hexToBuffer('0x' + '42'.repeat(32));
const OTHER_ADDR = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(OTHER_KEY));

describe('P-chain refuses bad transactions and changes nothing', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  let foreignSubnet: string;
  let genesisNode: string;

  const utxos = async () => (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos;
  const now = async () => BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
  const snapshot = async () => ({
    height: (await api.getHeight()).height,
    balance: (await api.getBalance({ addresses: [EWOQ_P] })).balance,
    validators: (await api.getCurrentValidators()).validators.length,
  });

  before(async () => {
    net = await startDevnet();
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
    genesisNode = (await api.getCurrentValidators()).validators[0].nodeID;
    const create = pvm.newCreateSubnetTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        subnetOwners: [OTHER_ADDR],
      },
      ctx,
    );
    foreignSubnet = await signAndIssue(api, create);
  });
  after(async () => {
    await net?.stop();
  });

  /** `platform.issueTx` of hex text, as plain JSON-RPC: the body, error object included. */
  const issueRaw = async (tx: string): Promise<any> => {
    const res = await fetch(`${net.url}/ext/bc/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx } }),
    });
    return res.json();
  };

  const validator = async (overrides: Partial<pvm.NewAddPermissionlessValidatorTxProps>) => {
    const key = blsKey('bad-validator');
    return pvm.newAddPermissionlessValidatorTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        nodeId: testNodeId(99),
        subnetId: PRIMARY,
        start: await now(),
        end: (await now()) + 3600n,
        weight: 2_000n * AVAX,
        rewardAddresses: [EWOQ_ADDR],
        delegatorRewardsOwner: [EWOQ_ADDR],
        shares: 20_000,
        publicKey: key.publicKey,
        signature: key.pop,
        ...overrides,
      },
      ctx,
    );
  };

  const cases: {
    name: string;
    /**
     * The executor's reason, after the envelope naming the tx (a function when it names what the
     * suite made first; a pattern when it holds an amount).
     */
    why: string | RegExp | (() => string);
    build: () => Promise<Common.UnsignedTx>;
    sign?: (tx: Common.UnsignedTx) => Promise<void>;
  }[] = [
    {
      name: 'bad signature',
      why: /^failed to verify transfer: wrong signature: expected signature from 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV but got from \w+$/,
      build: async () =>
        pvm.newBaseTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await utxos(),
            outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [OTHER_ADDR])],
          },
          ctx,
        ),
      // A real signature by the right key, but over other bytes.
      sign: async (tx) => tx.addSignatureAt(await secp256k1.sign(new Uint8Array([1, 2, 3]), EWOQ_KEY), 0, 0),
    },
    {
      name: 'overlapping staking period',
      why: () => `duplicate validator: ${genesisNode} on ${PRIMARY}`,
      build: async () => validator({ nodeId: genesisNode }),
    },
    {
      name: 'too-short staking period',
      why: 'staking period is too short',
      build: async () => validator({ end: (await now()) + 30n }),
    },
    {
      name: 'the empty node ID',
      why: 'validator nodeID cannot be empty',
      build: async () => validator({ nodeId: 'NodeID-111111111111111111116DBWJs' }),
    },
    {
      name: 'a validator paying no fee',
      why: /^flow check failed: insufficient unlocked funds: needs \d+ more \w+$/,
      build: async () => validator({ feeState: { ...(await api.getFeeState()), price: 0n } }),
    },
    {
      name: 'stake below minimum',
      why: 'weight of this validator is too low',
      build: async () => validator({ weight: 1_000n * AVAX }),
    },
    {
      name: 'wrong subnet owner',
      // The reference's verifyAuthorization: the fx's refusal under `unauthorized modification: `.
      why: () =>
        `unauthorized modification: wrong signature: expected signature from ${utils.base58check.encode(OTHER_ADDR)} but got from 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV`,
      build: async () =>
        pvm.newCreateChainTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await utxos(),
            chainName: 'stolen',
            subnetId: foreignSubnet,
            subnetAuth: [0],
            vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
            fxIds: [],
            genesisData: { config: {} },
          },
          ctx,
        ),
      sign: async (tx) => {
        const { addTxSignatures } = await import('@avalabs/avalanchejs');
        await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
        await signAuth(tx, EWOQ_KEY);
      },
    },
    {
      name: 'outputs out of the order the reference demands',
      why: 'outputs not sorted',
      build: async () => {
        const tx = pvm.newBaseTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await utxos(),
            outputs: [AVAX, 2n * AVAX].map((a) =>
              TransferableOutput.fromNative(ctx.avaxAssetID, a, [OTHER_ADDR]),
            ),
          },
          ctx,
        );
        // The builder sorts them; a hand-made tx may not.
        (tx.getTx() as unknown as { baseTx: { outputs: TransferableOutput[] } }).baseTx.outputs.reverse();
        return tx;
      },
    },
    {
      name: 'insufficient fee',
      why: /^insufficient unlocked funds: needs \d+ more \w+$/,
      build: async () =>
        pvm.newBaseTx(
          {
            feeState: { ...(await api.getFeeState()), price: 0n },
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await utxos(),
            outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [OTHER_ADDR])],
          },
          ctx,
        ),
    },
  ];

  for (const c of cases) {
    it(`refuses a tx with ${c.name}`, async () => {
      const before = await snapshot();
      const tx = await c.build();
      if (c.sign) await c.sign(tx);
      else {
        const { addTxSignatures } = await import('@avalabs/avalanchejs');
        await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      }
      const txID = txIdOf(tx);
      // Every layer of the reference's refusal, the StandardTx one naming this tx.
      const envelope = executionRefusal(txID, '');
      let why = '';
      await assert.rejects(api.issueSignedTx(tx.getSignedTx()), (err: Error) => {
        assert.ok(err.message.startsWith(envelope), err.message);
        why = err.message.slice(envelope.length);
        if (c.why instanceof RegExp) assert.match(why, c.why);
        else assert.equal(why, typeof c.why === 'function' ? c.why() : c.why);
        return true;
      });
      // Dropped with what VerifyTx returned: the message less issueTx's and the mempool's wraps.
      assert.deepEqual(await api.getTxStatus({ txID }), {
        status: 'Dropped',
        reason: `failed execution: standard tx ${txID} failed execution: ${why}`,
      } as any);
      assert.deepEqual(await snapshot(), before);
    });
  }

  it('refuses a validator whose proof of possession is for another key', async () => {
    // avalanchejs will not build such a tx, so swap the proof inside a valid one's bytes and sign
    // the result by hand.
    const before = await snapshot();
    const a = blsKey('pop-a');
    const b = blsKey('pop-b');
    const tx = await validator({ publicKey: a.publicKey, signature: a.pop });
    const unsigned = Buffer.from(tx.toBytes());
    const at = unsigned.indexOf(Buffer.from(a.pop));
    assert.ok(at > 0);
    const forged = Buffer.concat([unsigned.subarray(0, at), Buffer.from(b.pop), unsigned.subarray(at + 96)]);
    const signature = Buffer.from(await secp256k1.sign(forged, EWOQ_KEY));
    const creds = tx.getCredentials().length;
    const parts: Buffer[] = [forged, u32(creds)];
    for (let i = 0; i < creds; i++) parts.push(u32(9), u32(1), signature);
    const bytes = Buffer.concat(parts);
    const hex = '0x' + bytes.toString('hex') + Buffer.from(sha256(bytes)).subarray(28).toString('hex');
    const res = await fetch(`${net.url}/ext/bc/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx: hex } }),
    });
    const body = (await res.json()) as any;
    const txID = utils.base58check.encode(sha256(bytes));
    assert.equal(
      body.error.message,
      executionRefusal(
        txID,
        'failed to verify validator, signer, or rewards owners: invalid proof of possession',
      ),
    );
    assert.equal((await api.getTxStatus({ txID })).status, 'Dropped');
    assert.deepEqual(await snapshot(), before);
  });

  it('refuses a pre-Etna AddValidatorTx as the reference VerifyTx does: no complexity rules for it', async () => {
    const before = await snapshot();
    const start = await now();
    const unsigned = new pvmSerial.AddValidatorTx(
      avaxSerial.BaseTx.fromNative(ctx.networkID, ctx.pBlockchainID, [], [], new Uint8Array()),
      pvmSerial.Validator.fromNative(testNodeId(98), start, start + 3600n, 2_000n * AVAX),
      [TransferableOutput.fromNative(ctx.avaxAssetID, 2_000n * AVAX, [EWOQ_ADDR])],
      OutputOwners.fromNative([EWOQ_ADDR], 0n, 1),
      new Int(20_000),
    );
    const bytes = new avaxSerial.SignedTx(unsigned, []).toBytes();
    const hex =
      '0x' + Buffer.from(bytes).toString('hex') + Buffer.from(sha256(bytes)).subarray(28).toString('hex');
    const res = await fetch(`${net.url}/ext/bc/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx: hex } }),
    });
    const body = (await res.json()) as any;
    assert.equal(
      body.error.message,
      "couldn't issue tx: failed verification: failed to calculate tx complexity: unsupported transaction type",
    );
    assert.deepEqual(await snapshot(), before);
  });

  it('drops the loser of two txs spending the same UTXO, with the reason in getTxStatus', async () => {
    const build = async (amount: bigint) => {
      const tx = pvm.newBaseTx(
        {
          feeState: await api.getFeeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await utxos(),
          outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [OTHER_ADDR])],
        },
        ctx,
      );
      const { addTxSignatures } = await import('@avalabs/avalanchejs');
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      return tx.getSignedTx();
    };
    const [a, b] = [await build(AVAX), await build(2n * AVAX)];
    const results = await Promise.allSettled([api.issueSignedTx(a), api.issueSignedTx(b)]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const lost = results[0].status === 'rejected' ? a : b;
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    // Refused at issue while the winner waits for its block, or after it, its UTXO gone.
    const why = /tx conflicts with other tx|UTXO .*not found/;
    assert.match(String(loser.reason), why);
    const status = await api.getTxStatus({ txID: utils.base58check.encode(sha256(lost.toBytes())) });
    assert.equal(status.status, 'Dropped');
    assert.match(status.reason, why);
  });

  it("refuses a damaged BaseTx with the decoder's words, as a JSON-RPC error", async () => {
    const tx = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [OTHER_ADDR])],
        memo: new TextEncoder().encode('damaged'),
      },
      ctx,
    );
    const { addTxSignatures } = await import('@avalabs/avalanchejs');
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const bytes = tx.getSignedTx().toBytes();
    // The unsigned tx (codec version included), then the credentials.
    const unsignedLength = tx.toBytes().length;
    const withU32 = (at: number, value: number) => {
      const copy = new Uint8Array(bytes);
      new DataView(copy.buffer).setUint32(at, value);
      return copy;
    };
    const memoLength = unsignedLength - 'damaged'.length - 4;
    const before = await snapshot();
    const cases: [string, Uint8Array, string][] = [
      [
        'a trailing byte',
        new Uint8Array([...bytes, 0]),
        'bytes are not in canonical form or have trailing data',
      ],
      [
        'a truncated signature',
        bytes.subarray(0, bytes.length - 1),
        'incorrect number of bytes for signature',
      ],
      ['codec version 1', Uint8Array.from(bytes, (b, i) => (i === 1 ? 1 : b)), 'codec id(1) not found'],
      ['an unknown tx type id', withU32(2, 99), "couldn't unmarshal interface: unknown type ID 99"],
      ['a memo length past the end', withU32(memoLength, 0xffff_ffff), 'not enough bytes'],
      [
        'an unknown credential type id',
        withU32(unsignedLength + 4, 77),
        "couldn't unmarshal interface: unknown type ID 77",
      ],
    ];
    for (const [name, bad, why] of cases) {
      const body = await issueRaw(utils.bufferToHex(utils.addChecksum(bad)));
      assert.deepEqual(body.error, { code: -32000, message: `couldn't parse tx: ${why}`, data: null }, name);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('refuses malformed bytes and a double spend inside one tx', async () => {
    const body = await issueRaw('0x00000000002a1c6c8c2b');
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /problem decoding transaction|couldn't parse tx/);
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

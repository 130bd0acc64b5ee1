/**
 * Issue 8: the signature aggregator of the chain-data service collects the validators'
 * signatures over HTTP, reaches quorum despite faulty validators when the honest weight
 * suffices, and says how much weight it reached when it does not. Every signed message is
 * verified here independently with @noble/curves against the P-chain's validator set.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { addTxSignatures, avm, Context, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';

const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

function unsignedMessage(networkID: number, sourceChain: Uint8Array, payload: Uint8Array): Uint8Array {
  const out = Buffer.alloc(42 + payload.length);
  out.writeUInt16BE(0, 0);
  out.writeUInt32BE(networkID, 2);
  Buffer.from(sourceChain).copy(out, 6);
  out.writeUInt32BE(payload.length, 38);
  Buffer.from(payload).copy(out, 42);
  return out;
}

function hashPayload(hash: Uint8Array): Uint8Array {
  const out = Buffer.alloc(38);
  Buffer.from(hash).copy(out, 6);
  return out;
}

/** Independent check: parse the signed message, rebuild the canonical set, verify with noble. */
async function verifyIndependently(
  net: Devnet,
  unsigned: Uint8Array,
  signedHex: string,
): Promise<{ signedWeight: bigint; total: bigint; signers: number[] }> {
  const signed = Buffer.from(signedHex, 'hex');
  assert.deepEqual(signed.subarray(0, unsigned.length), Buffer.from(unsigned));
  let at = unsigned.length;
  assert.equal(signed.readUInt32BE(at), 0); // BitSetSignature type id
  at += 4;
  const bitsetLength = signed.readUInt32BE(at);
  at += 4;
  const bitset = signed.subarray(at, at + bitsetLength);
  const signature = signed.subarray(at + bitsetLength);
  assert.equal(signature.length, 96);
  const { height } = await call(`${net.url}/ext/bc/P`, 'platform.getHeight');
  const { validators } = await call(`${net.url}/ext/bc/P`, 'platform.getValidatorsAt', {
    height,
    subnetID: '11111111111111111111111111111111LpoYY',
  });
  const entries = Object.values(validators as Record<string, { publicKey: string; weight: string }>).map(
    (v) => {
      const point = bls12_381.G1.Point.fromHex(v.publicKey.slice(2));
      return { point, sortKey: Buffer.from(point.toBytes(false)), weight: BigInt(v.weight) };
    },
  );
  entries.sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  const total = entries.reduce((s, e) => s + e.weight, 0n);
  const bits = BigInt('0x' + (bitset.length ? bitset.toString('hex') : '0'));
  const signers = entries.map((_, i) => i).filter((i) => (bits >> BigInt(i)) & 1n);
  const aggregateKey = signers.map((i) => entries[i].point).reduce((a, b) => a.add(b));
  const ok = bls12_381.longSignatures.verify(
    bls12_381.longSignatures.Signature.fromBytes(signature),
    bls12_381.longSignatures.hash(unsigned, SIG_DST),
    aggregateKey,
  );
  assert.ok(ok, 'aggregate signature verifies with @noble/curves');
  const signedWeight = signers.reduce((s, i) => s + entries[i].weight, 0n);
  return { signedWeight, total, signers };
}

const EWOQ_KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ_FUJI = 'X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t';

/** Sends a base tx on X so that a new block is accepted, and returns a Warp message naming it. */
async function newXBlockMessage(net: Devnet): Promise<Uint8Array> {
  const ctx = await Context.getContextFromURI(net.url);
  const xApi = new avm.AVMApi(net.url);
  const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_FUJI] });
  const me = utils.bech32ToBytes(EWOQ_FUJI);
  const tx = avm.newBaseTx(ctx, [me], utxos, [
    TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [me]),
  ]);
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
  const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
  for (let i = 0; i < 100; i++) {
    const { status } = await call(`${net.url}/ext/bc/X`, 'avm.getTxStatus', { txID });
    if (status === 'Accepted') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const last = await call(`${net.url}/ext/index/X/block`, 'index.getLastAccepted', { encoding: 'hex' });
  return unsignedMessage(
    5,
    utils.base58check.decode(net.facts.chains.X.blockchainID),
    hashPayload(utils.base58check.decode(last.id)),
  );
}

describe('signature aggregator', () => {
  let net: Devnet;
  let dataUrl: string;
  let message: Uint8Array;
  let peers: { nodeID: string }[];
  const sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });

  const aggregate = (body: Record<string, unknown>) =>
    fetch(`${dataUrl}/v1/signatureAggregator/fuji/aggregateSignatures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const setFault = (nodeID: string, fault: string, delayMs?: number) =>
    call(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', { nodeID, fault, delayMs });

  before(async () => {
    net = await startDevnet({ args: ['--network', 'fuji'] });
    dataUrl = net.facts.urls.data!;
    const last = await call(`${net.url}/ext/index/X/block`, 'index.getLastAccepted', { encoding: 'hex' });
    message = unsignedMessage(
      5,
      utils.base58check.decode(net.facts.chains.X.blockchainID),
      hashPayload(utils.base58check.decode(last.id)),
    );
    peers = (await call(`${net.url}/ext/info`, 'info.peers')).peers;
  });
  after(async () => {
    await net?.stop();
  });

  it('aggregates an accepted X-chain block hash through chainkit, verifiable against the validator set', async () => {
    const result = await sdk.data.signatureAggregator.aggregate(
      { network: 'fuji', signatureAggregatorRequest: { message: Buffer.from(message).toString('hex') } },
      { serverURL: dataUrl },
    );
    const check = await verifyIndependently(net, message, result.signedMessage);
    assert.ok(check.signedWeight * 100n >= check.total * 67n);
  });

  it('reaches quorum with one validator offline and one lying, when the honest weight suffices', async () => {
    await setFault(peers[0].nodeID, 'offline');
    await setFault(peers[3].nodeID, 'wrong-signature');
    try {
      const fresh = await newXBlockMessage(net);
      const res = await aggregate({
        message: '0x' + Buffer.from(fresh).toString('hex'),
        quorumPercentage: 60,
      });
      assert.equal(res.status, 201);
      const check = await verifyIndependently(net, fresh, ((await res.json()) as any).signedMessage);
      assert.ok(check.signedWeight * 100n >= check.total * 60n);
      assert.equal(check.signers.length, 3);
    } finally {
      await setFault(peers[0].nodeID, 'none');
      await setFault(peers[3].nodeID, 'none');
    }
  });

  it('does not wait for a slow validator once the quorum is reached', async () => {
    await setFault(peers[1].nodeID, 'slow', 30_000);
    try {
      // A message no validator signed before, so no cached signature stands in for the slow one.
      const fresh = await newXBlockMessage(net);
      const res = await aggregate({ message: Buffer.from(fresh).toString('hex'), quorumPercentage: 67 });
      assert.equal(res.status, 201);
      const check = await verifyIndependently(net, fresh, ((await res.json()) as any).signedMessage);
      assert.equal(check.signers.length, 4);
    } finally {
      await setFault(peers[1].nodeID, 'none');
    }
  });

  it('states the weight reached when the honest weight does not suffice', async () => {
    await setFault(peers[0].nodeID, 'wrong-signature');
    await setFault(peers[1].nodeID, 'refuse');
    await setFault(peers[2].nodeID, 'offline');
    try {
      // A message no validator signed before, so no cached signature helps.
      const other = await newXBlockMessage(net);
      const res = await aggregate({ message: Buffer.from(other).toString('hex'), quorumPercentage: 100 });
      const body = (await res.json()) as any;
      assert.equal(res.status, 503);
      assert.equal(body.statusCode, 503);
      assert.match(body.message, /weight \d+ of \d+ \(\d+(\.\d+)?%\), 100% required/);
    } finally {
      for (const p of peers.slice(0, 3)) await setFault(p.nodeID, 'none');
    }
  });

  it('answers bad requests with 400 and unknown chains with 404', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{}, 400],
      [{ message: 'zz' }, 400],
      [{ message: '0x0102' }, 400],
      [
        { message: Buffer.from(message).toString('hex'), quorumPercentage: 90, quorumPercentageBuffer: 20 },
        400,
      ],
      [{ message: Buffer.from(message).toString('hex'), quorumPercentage: 101 }, 400],
      // A JSON body keeps its types: a quoted number is not read as one.
      [{ message: Buffer.from(message).toString('hex'), quorumPercentage: '67' }, 400],
      [{ message: Buffer.from(message).toString('hex'), pChainHeight: '0' }, 400],
      [{ message: Buffer.from(message).toString('hex'), signingSubnetId: 'not-an-id' }, 400],
      [
        {
          message: Buffer.from(
            unsignedMessage(5, new Uint8Array(32).fill(7), hashPayload(new Uint8Array(32))),
          ).toString('hex'),
        },
        404,
      ],
      [
        {
          message: Buffer.from(
            unsignedMessage(1, message.subarray(6, 38), hashPayload(new Uint8Array(32))),
          ).toString('hex'),
        },
        400,
      ],
    ];
    for (const [body, status] of cases) {
      const res = await aggregate(body);
      const answer = (await res.json()) as any;
      assert.equal(res.status, status, JSON.stringify({ body, answer }));
      assert.equal(answer.statusCode, status);
      assert.equal(typeof answer.message, 'string');
    }
  });
});

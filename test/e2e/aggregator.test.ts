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
import { sha256 } from '@noble/hashes/sha2.js';
import {
  addTxSignatures,
  avm,
  Context,
  L1Validator,
  PChainOwner,
  pvm,
  pvmSerial,
  TransferableOutput,
  utils,
} from '@avalabs/avalanchejs';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY as EWOQ_P_KEY,
  pChainMessage,
  registerPayload,
  signAndIssue,
  signedWarp,
  testNodeId,
  weightPayload,
  type BlsKey,
} from './pchain-helpers.js';
import { createSubnetEvmChain, pAddress } from './subnet-evm-helpers.js';
import { blockIdOf } from './proposer-helpers.js';

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
  subnetID = '11111111111111111111111111111111LpoYY',
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
  const { validators } = await call(`${net.url}/ext/bc/P`, 'platform.getValidatorsAt', { height, subnetID });
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
    hashPayload(utils.base58check.decode(blockIdOf(last))),
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
    // The X-chain's last accepted block: the genesis on a fresh devnet (in no index, as on the
    // reference, but accepted).
    const { height } = await call(`${net.url}/ext/bc/X`, 'avm.getHeight');
    const { block } = await call(`${net.url}/ext/bc/X`, 'avm.getBlockByHeight', { height, encoding: 'json' });
    message = unsignedMessage(
      5,
      utils.base58check.decode(net.facts.chains.X.blockchainID),
      hashPayload(utils.base58check.decode(block.id)),
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
      // A height the P-chain has not reached is bad input (a 5XX would be retried by the SDKs).
      [{ message: Buffer.from(message).toString('hex'), pChainHeight: 1_000_000 }, 400],
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

  describe("the L1 Warp message of a P-chain transaction, signed by the L1's validators", () => {
    let subnetId: string;
    let chainId: string;
    const manager = new Uint8Array(20).fill(0xcd);
    const owner = blsKey('aggregator-l1-owner');
    const ownerNode = testNodeId(61);
    const added = blsKey('aggregator-l1-added');
    const addedNode = testNodeId(62);
    const removed = blsKey('aggregator-l1-removed');
    const removedNode = testNodeId(63);
    let removedValidation: string;
    const txIds: Record<'convert' | 'register' | 'registerRemoved' | 'removal' | 'weight', string> =
      {} as any;
    let genesisKeys: Uint8Array[];

    /** The signers bitset of `signer` alone within the canonical order of `keys` (compressed). */
    const bitsetOf = (keys: Uint8Array[], signer: BlsKey) => {
      const order = keys
        .map((k) => Buffer.from(bls12_381.G1.Point.fromBytes(k).toBytes(false)))
        .sort(Buffer.compare);
      const index = order.findIndex((k) =>
        k.equals(Buffer.from(bls12_381.G1.Point.fromBytes(signer.publicKey).toBytes(false))),
      );
      const bits = 1n << BigInt(index);
      return Uint8Array.from(
        Buffer.from(bits.toString(16).padStart(Math.ceil((index + 1) / 8) * 2, '0'), 'hex'),
      );
    };

    before(async () => {
      // An L1 whose validators are the five genesis nodes (weight 1 each, they answer signature
      // requests) and a key this test holds (weight 100, so the test can sign the L1's messages).
      const created = await createSubnetEvmChain(
        net.url,
        {
          config: { chainId: 77_003, feeConfig: { gasLimit: 15_000_000 }, warpConfig: { blockTimestamp: 0 } },
          alloc: {},
          gasLimit: '0xe4e1c0',
          timestamp: '0x0',
        },
        'aggregator l1',
      );
      ({ subnetId, chainId } = created);
      const { api, ctx } = created;
      const utxos = async () => (await api.getUTXOs({ addresses: [pAddress(ctx.hrp)] })).utxos;
      const hex = (t: string) => utils.hexToBuffer(t.startsWith('0x') ? t : '0x' + t);
      const self = await call(`${net.url}/ext/info`, 'info.getNodeID');
      const nodes = [self];
      for (const p of peers) nodes.push(await call(`http://${(p as any).ip}/ext/info`, 'info.getNodeID'));
      genesisKeys = nodes.map((n) => hex(n.nodePOP.publicKey));
      const pChainOwner = () => PChainOwner.fromNative([EWOQ_ADDR], 1);
      const convert = pvm.newConvertSubnetToL1Tx(
        {
          feeState: await api.getFeeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await utxos(),
          subnetId,
          chainId,
          address: manager,
          subnetAuth: [0],
          validators: [
            ...nodes.map((n) =>
              L1Validator.fromNative(
                n.nodeID,
                1n,
                1_000_000_000n,
                new pvmSerial.ProofOfPossession(hex(n.nodePOP.publicKey), hex(n.nodePOP.proofOfPossession)),
                pChainOwner(),
                pChainOwner(),
              ),
            ),
            L1Validator.fromNative(
              ownerNode,
              100n,
              1_000_000_000n,
              new pvmSerial.ProofOfPossession(owner.publicKey, owner.pop),
              pChainOwner(),
              pChainOwner(),
            ),
          ],
        },
        ctx,
      );
      txIds.convert = await signAndIssue(api, convert, [EWOQ_P_KEY], EWOQ_P_KEY);

      // The L1's messages are signed by the test's key alone (100 of at most 108) and name it
      // within the L1's keys of the moment.
      const keys = [...genesisKeys, owner.publicKey];
      const now = BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
      const register = async (key: BlsKey, nodeId: string) => {
        const registration = registerPayload(subnetId, nodeId, key, now + 600n, EWOQ_ADDR, 1n);
        const message = signedWarp(5, chainId, manager, registration, [owner], bitsetOf(keys, owner));
        const tx = pvm.newRegisterL1ValidatorTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await utxos(),
            balance: 1_000_000_000n,
            blsSignature: key.pop,
            message,
          },
          ctx,
        );
        const txID = await signAndIssue(api, tx);
        keys.push(key.publicKey);
        return txID;
      };
      const validationOf = async (nodeId: string) =>
        ((await api.getCurrentValidators({ subnetID: subnetId })).validators as any[]).find(
          (v) => v.nodeID === nodeId,
        ).validationID as string;
      const setWeight = async (validationId: string, weight: bigint) => {
        const payload = weightPayload(validationId, 0n, weight);
        const tx = pvm.newSetL1ValidatorWeightTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await utxos(),
            message: signedWarp(5, chainId, manager, payload, [owner], bitsetOf(keys, owner)),
          },
          ctx,
        );
        return signAndIssue(api, tx);
      };
      txIds.register = await register(added, addedNode);
      // A second validator, removed again (weight 0): its registration is then "not registered".
      txIds.registerRemoved = await register(removed, removedNode);
      removedValidation = await validationOf(removedNode);
      txIds.removal = await setWeight(removedValidation, 0n);
      keys.splice(keys.indexOf(removed.publicKey), 1);
      // The test's own validator down to weight 1, so that the genesis nodes hold 5 of the L1's 7
      // and can sign for it.
      txIds.weight = await setWeight(await validationOf(ownerNode), 1n);
    });

    /** The signed message of `txHash` through chainkit, checked against the L1's validator set. */
    const signedFor = async (txHash: string, expected: Uint8Array) => {
      const result = await sdk.data.signatureAggregator.get(
        { network: 'fuji', txHash },
        { serverURL: dataUrl },
      );
      const check = await verifyIndependently(net, expected, result.signedMessage, subnetId);
      assert.equal(check.total, 7n);
      // The five genesis nodes signed; the two keys without a node did not.
      assert.equal(check.signedWeight, 5n);
      assert.equal(check.signers.length, 5);
      return check;
    };

    it("ConvertSubnetToL1Tx: the SubnetToL1ConversionMessage of the subnet's conversion id", async () => {
      const { conversionID } = await call(`${net.url}/ext/bc/P`, 'platform.getSubnet', {
        subnetID: subnetId,
      });
      await signedFor(txIds.convert, pChainMessage(5, 0, utils.base58check.decode(conversionID)));
    });

    it('RegisterL1ValidatorTx: the registration of its validation, registered', async () => {
      const { validators } = await call(`${net.url}/ext/bc/P`, 'platform.getCurrentValidators', {
        subnetID: subnetId,
        nodeIDs: [addedNode],
      });
      const validationID = utils.base58check.decode(validators[0].validationID);
      await signedFor(txIds.register, pChainMessage(5, 2, new Uint8Array([...validationID, 1])));
    });

    it('RegisterL1ValidatorTx of a validation since removed: not registered, justified by its registration', async () => {
      const validationID = utils.base58check.decode(removedValidation);
      await signedFor(txIds.registerRemoved, pChainMessage(5, 2, new Uint8Array([...validationID, 0])));
    });

    it('SetL1ValidatorWeightTx: the weight message of its nonce and weight', async () => {
      const { validators } = await call(`${net.url}/ext/bc/P`, 'platform.getCurrentValidators', {
        subnetID: subnetId,
        nodeIDs: [ownerNode],
      });
      const validationID = utils.base58check.decode(validators[0].validationID);
      const fields = Buffer.alloc(48);
      Buffer.from(validationID).copy(fields);
      fields.writeBigUInt64BE(0n, 32);
      fields.writeBigUInt64BE(1n, 40);
      await signedFor(txIds.weight, pChainMessage(5, 3, fields));
    });

    it('answers a malformed id or a tx without an L1 message with 400, an unknown tx or network with 404', async () => {
      const cases: [string, string, number][] = [
        ['fuji', 'not-a-tx-id', 400],
        ['fuji', utils.base58check.encode(new Uint8Array(20)), 400],
        // A CreateSubnetTx emits no Warp message.
        ['fuji', subnetId, 400],
        // A removal whose registration no Warp log of the manager chain holds (this test's L1
        // messages are signed by hand) cannot be justified.
        ['fuji', txIds.removal, 400],
        ['fuji', utils.base58check.encode(sha256(new Uint8Array([7]))), 404],
        ['mainnet', txIds.convert, 404],
        ['devnet', txIds.convert, 400],
      ];
      for (const [network, txHash, status] of cases) {
        const res = await fetch(`${dataUrl}/v1/signatureAggregator/${network}/aggregateSignatures/${txHash}`);
        const body = (await res.json()) as any;
        assert.equal(res.status, status, JSON.stringify({ network, txHash, body }));
        assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
        assert.equal(body.statusCode, status);
      }
      await assert.rejects(
        sdk.data.signatureAggregator.get({ network: 'fuji', txHash: subnetId }, { serverURL: dataUrl }),
        (err: any) => err.name === 'BadRequestError',
      );
    });
  });
});

/**
 * The P-chain's `json` encoding end to end: txs of several types issued with avalanchejs v5
 * builders, then read back as JSON through @avalanche-sdk/client (pChain.getTx, getBlock,
 * getBlockByHeight) and raw JSON-RPC, checked against what was issued — ids, amounts (every digit
 * of those above 2^53, in the raw text), addresses, owners, BLS keys, credentials — and the blocks
 * holding them, down to the reward block the node issues itself. Bad encodings are refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  Context,
  L1Validator,
  PChainOwner,
  pvm,
  pvmSerial,
  TransferableOutput,
  utils,
  type Common,
} from '@avalabs/avalanchejs';
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_P,
  executionRefusal,
  signAndIssue,
  testNodeId,
} from './pchain-helpers.js';
import { createSubnetEvmChain, SUBNET_EVM_VM } from './subnet-evm-helpers.js';
import { unwrapContainer } from './proposer-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const SECP_FX = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ';
const AVAX = 1_000_000_000n;
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

describe('P-chain json encoding', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  let client: any;
  const other = utils.hexToBuffer('0x' + '22'.repeat(20));
  const otherP = utils.format('P', 'local', other);
  const base = async () => ({
    feeState: await api.getFeeState(),
    fromAddressesBytes: [EWOQ_ADDR],
    utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
  });
  const now = async () => BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
  const pRpc = async (method: string, params: unknown) =>
    (await rpc(`${net.url}/ext/bc/P`, method, params)).body;
  /** getTx json through the SDK, checked against the raw answer. */
  const txJson = async (txID: string) => {
    const got = await client.pChain.getTx({ txID, encoding: 'json' });
    assert.equal(got.encoding, 'json');
    assert.deepEqual(got, (await pRpc('platform.getTx', { txID, encoding: 'json' })).result);
    return got.tx;
  };
  /** The signatures of each credential of an issued tx, as the json encoding writes them. */
  const signaturesOf = (tx: Common.UnsignedTx) =>
    tx.getCredentials().map((c) => ({ signatures: c.getSignatures().map((s) => s.toLowerCase()) }));

  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--min-stake-duration', '60'] });
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
    client = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
  });
  after(async () => {
    await net?.stop();
  });

  let baseTxId: string;
  it('renders a BaseTx: outputs, inputs, memo and credentials as issued; large amounts with every digit', async () => {
    const props = await base();
    // Since Durango a P-chain tx may carry no memo: refused in the reference's words.
    const memo = new TextEncoder().encode('flurry json');
    const withMemo = pvm.newBaseTx(
      { ...props, memo, outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 5n * AVAX, [other])] },
      ctx,
    );
    await addTxSignatures({ unsignedTx: withMemo, privateKeys: [EWOQ_KEY] });
    const refused = await rpc(`${net.url}/ext/bc/P`, 'platform.issueTx', {
      tx: utils.bufferToHex(utils.addChecksum(withMemo.getSignedTx().toBytes())),
      encoding: 'hex',
    });
    assert.equal(
      refused.body.error?.message,
      executionRefusal(withMemo, 'memo exceeds maximum length: 11 > 0'),
    );
    const tx = pvm.newBaseTx(
      { ...props, outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 5n * AVAX, [other])] },
      ctx,
    );
    baseTxId = await signAndIssue(api, tx);
    const got = await txJson(baseTxId);
    assert.equal(got.id, baseTxId);
    const u = got.unsignedTx;
    assert.deepEqual(Object.keys(u), ['networkID', 'blockchainID', 'outputs', 'inputs', 'memo']);
    assert.equal(u.networkID, 12345);
    assert.equal(u.blockchainID, ctx.pBlockchainID);
    assert.equal(u.memo, '0x');
    const paid = u.outputs.find((o: any) => o.output.addresses[0] === otherP);
    assert.deepEqual(paid, {
      assetID: ctx.avaxAssetID,
      fxID: SECP_FX,
      output: { addresses: [otherP], amount: 5_000_000_000, locktime: 0, threshold: 1 },
    });
    const change = u.outputs.find((o: any) => o.output.addresses[0] === EWOQ_P);
    assert.ok(change, 'the change goes back to the sender');

    const issued = tx.getTx() as pvmSerial.BaseTx;
    assert.deepEqual(
      u.inputs.map((i: any) => [i.txID, i.outputIndex, i.assetID, i.fxID, i.input.signatureIndices]),
      issued.baseTx.inputs.map((i) => [
        i.utxoID.txID.toString(),
        i.utxoID.outputIdx.value(),
        i.assetId.toString(),
        SECP_FX,
        i.sigIndicies(),
      ]),
    );
    assert.deepEqual(got.credentials, signaturesOf(tx));

    // The genesis UTXO spent holds millions of AVAX (above 2^53 nAVAX): the raw answer carries
    // its amount and the change's as bare numbers with every digit, as the reference writes them.
    const spent = issued.baseTx.inputs.map((i) => i.amount());
    assert.ok(spent.some((a) => a > BigInt(Number.MAX_SAFE_INTEGER)));
    const raw = await fetch(`${net.url}/ext/bc/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'platform.getTx',
        params: { txID: baseTxId, encoding: 'json' },
      }),
    }).then((r) => r.text());
    for (const amount of spent)
      assert.ok(raw.includes(`"input":{"amount":${amount},"signatureIndices"`), raw);
    for (const o of issued.baseTx.outputs) assert.ok(raw.includes(`"amount":${o.amount()},"locktime"`), raw);
  });

  let subnetId: string;
  let chainId: string;
  it('renders CreateSubnetTx and CreateChainTx: owner, chain fields, base64 genesis, subnet auth', async () => {
    const genesis = {
      config: { chainId: 77777, feeConfig: { gasLimit: 15_000_000 } },
      alloc: {},
      gasLimit: '0xe4e1c0',
    };
    ({ subnetId, chainId } = await createSubnetEvmChain(net.url, genesis, 'json chain'));
    const subnetTx = await txJson(subnetId);
    assert.deepEqual(subnetTx.unsignedTx.owner, { addresses: [EWOQ_P], locktime: 0, threshold: 1 });

    const got = await txJson(chainId);
    const u = got.unsignedTx;
    assert.deepEqual(Object.keys(u).slice(5), [
      'subnetID',
      'chainName',
      'vmID',
      'fxIDs',
      'genesisData',
      'subnetAuthorization',
    ]);
    assert.equal(u.subnetID, subnetId);
    assert.equal(u.chainName, 'json chain');
    assert.equal(u.vmID, SUBNET_EVM_VM);
    assert.deepEqual(u.fxIDs, []);
    assert.deepEqual(JSON.parse(Buffer.from(u.genesisData, 'base64').toString('utf8')), genesis);
    assert.deepEqual(u.subnetAuthorization, { signatureIndices: [0] });
    assert.equal(got.credentials.length, 2, 'the inputs and the subnet auth');
    for (const c of got.credentials) for (const sig of c.signatures) assert.match(sig, /^0x[0-9a-f]{130}$/);
  });

  it('renders AddSubnetValidatorTx, RemoveSubnetValidatorTx and ConvertSubnetToL1Tx', async () => {
    const genesisNode = (await api.getCurrentValidators()).validators[0].nodeID;
    const start = await now();
    const add = pvm.newAddSubnetValidatorTx(
      {
        ...(await base()),
        nodeId: genesisNode,
        subnetId,
        subnetAuth: [0],
        start,
        end: start + 600n,
        weight: 20n,
      },
      ctx,
    );
    const addId = await signAndIssue(api, add, [EWOQ_KEY], EWOQ_KEY);
    const added = (await txJson(addId)).unsignedTx;
    assert.deepEqual(added.validator, {
      nodeID: genesisNode,
      start: Number(start),
      end: Number(start + 600n),
      weight: 20,
      subnetID: subnetId,
    });
    assert.deepEqual(added.subnetAuthorization, { signatureIndices: [0] });

    const remove = pvm.newRemoveSubnetValidatorTx(
      { ...(await base()), nodeId: genesisNode, subnetId, subnetAuth: [0] },
      ctx,
    );
    const removed = (await txJson(await signAndIssue(api, remove, [EWOQ_KEY], EWOQ_KEY))).unsignedTx;
    assert.equal(removed.nodeID, genesisNode);
    assert.equal(removed.subnetID, subnetId);

    const key = blsKey('json-l1-0');
    const nodeId = testNodeId(90);
    const manager = utils.hexToBuffer('0x' + 'ef'.repeat(20));
    const convert = pvm.newConvertSubnetToL1Tx(
      {
        ...(await base()),
        subnetId,
        chainId,
        address: manager,
        subnetAuth: [0],
        validators: [
          L1Validator.fromNative(
            nodeId,
            100n,
            AVAX,
            new pvmSerial.ProofOfPossession(key.publicKey, key.pop),
            PChainOwner.fromNative([EWOQ_ADDR], 1),
            PChainOwner.fromNative([other], 1),
          ),
        ],
      },
      ctx,
    );
    const converted = (await txJson(await signAndIssue(api, convert, [EWOQ_KEY], EWOQ_KEY))).unsignedTx;
    assert.equal(converted.subnetID, subnetId);
    assert.equal(converted.chainID, chainId);
    assert.equal(converted.address, hex(manager));
    assert.deepEqual(converted.validators, [
      {
        nodeID: hex(utils.base58check.decode(nodeId.slice('NodeID-'.length))),
        weight: 100,
        balance: 1_000_000_000,
        signer: { publicKey: hex(key.publicKey), proofOfPossession: hex(key.pop) },
        // ACP-77 owners list bare short ids, as the reference's PChainOwner does.
        remainingBalanceOwner: { threshold: 1, addresses: [utils.base58check.encode(EWOQ_ADDR)] },
        deactivationOwner: { threshold: 1, addresses: [utils.base58check.encode(other)] },
      },
    ]);
  });

  const validatorKey = blsKey('json-validator');
  const validatorNode = testNodeId(91);
  let validatorTx: string;
  let delegatorTx: string;
  it('renders a permissionless validator with its BLS signer, a delegator and an export', async () => {
    const start = await now();
    const add = pvm.newAddPermissionlessValidatorTx(
      {
        ...(await base()),
        nodeId: validatorNode,
        subnetId: PRIMARY,
        start,
        end: start + 3600n,
        weight: 2_000n * AVAX,
        rewardAddresses: [EWOQ_ADDR],
        delegatorRewardsOwner: [other],
        shares: 100_000,
        publicKey: validatorKey.publicKey,
        signature: validatorKey.pop,
      },
      ctx,
    );
    validatorTx = await signAndIssue(api, add);
    const v = (await txJson(validatorTx)).unsignedTx;
    assert.deepEqual(Object.keys(v).slice(5), [
      'validator',
      'subnetID',
      'signer',
      'stake',
      'validationRewardsOwner',
      'delegationRewardsOwner',
      'shares',
    ]);
    assert.deepEqual(v.validator, {
      nodeID: validatorNode,
      start: Number(start),
      end: Number(start + 3600n),
      weight: 2_000_000_000_000,
    });
    assert.equal(v.subnetID, PRIMARY);
    assert.deepEqual(v.signer, {
      publicKey: hex(validatorKey.publicKey),
      proofOfPossession: hex(validatorKey.pop),
    });
    assert.deepEqual(v.stake, [
      {
        assetID: ctx.avaxAssetID,
        fxID: SECP_FX,
        output: { addresses: [EWOQ_P], amount: 2_000_000_000_000, locktime: 0, threshold: 1 },
      },
    ]);
    assert.deepEqual(v.validationRewardsOwner, { addresses: [EWOQ_P], locktime: 0, threshold: 1 });
    assert.deepEqual(v.delegationRewardsOwner, { addresses: [otherP], locktime: 0, threshold: 1 });
    assert.equal(v.shares, 100_000);

    const delegate = pvm.newAddPermissionlessDelegatorTx(
      {
        ...(await base()),
        nodeId: validatorNode,
        subnetId: PRIMARY,
        start,
        end: start + 3000n,
        weight: 500n * AVAX,
        rewardAddresses: [other],
      },
      ctx,
    );
    delegatorTx = await signAndIssue(api, delegate);
    const d = (await txJson(delegatorTx)).unsignedTx;
    assert.deepEqual(Object.keys(d).slice(5), ['validator', 'subnetID', 'stake', 'rewardsOwner']);
    assert.equal(d.validator.weight, 500_000_000_000);
    assert.deepEqual(d.rewardsOwner, { addresses: [otherP], locktime: 0, threshold: 1 });

    const exp = pvm.newExportTx(
      {
        ...(await base()),
        destinationChainId: ctx.xBlockchainID,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 7n * AVAX, [other])],
      },
      ctx,
    );
    const e = (await txJson(await signAndIssue(api, exp))).unsignedTx;
    assert.equal(e.destinationChain, ctx.xBlockchainID);
    // Formatted by the chain that renders them, as the reference's P-chain does.
    assert.deepEqual(e.exportedOutputs, [
      {
        assetID: ctx.avaxAssetID,
        fxID: SECP_FX,
        output: { addresses: [otherP], amount: 7_000_000_000, locktime: 0, threshold: 1 },
      },
    ]);
  });

  it('renders blocks through pChain.getBlock and getBlockByHeight, with the txs they hold', async () => {
    const genesis = await client.pChain.getBlockByHeight({ height: 0, encoding: 'json' });
    assert.deepEqual(Object.keys(genesis.block), ['parentID', 'height', 'id']);
    assert.equal(genesis.block.height, 0);
    // As on the reference, the genesis block is not indexed (it was never accepted through
    // consensus): position 0 is block 1, a proposervm block whose parent is the genesis block.
    const index = `${net.url}/ext/index/P/block`;
    assert.deepEqual((await rpc(index, 'index.isAccepted', { id: genesis.block.id })).body.result, {
      isAccepted: false,
    });
    const container1 = (await rpc(index, 'index.getContainerByIndex', { index: 0, encoding: 'hex' })).body
      .result;
    const wrapped1 = unwrapContainer(container1.bytes);
    assert.equal(container1.id, wrapped1.id);
    assert.equal(container1.index, '0');
    assert.equal(wrapped1.parentId, genesis.block.id);
    const first = await client.pChain.getBlock({ blockId: wrapped1.innerId, encoding: 'json' });
    assert.equal(first.encoding, 'json');
    assert.deepEqual(first, await client.pChain.getBlockByHeight({ height: 1, encoding: 'json' }));
    const b = first.block;
    assert.deepEqual(Object.keys(b), ['time', 'parentID', 'height', 'id', 'txs']);
    assert.equal(b.parentID, genesis.block.id);
    assert.equal(b.height, 1);
    assert.equal(b.id, wrapped1.innerId);
    const bytes = Buffer.from(wrapped1.inner);
    assert.equal(BigInt(b.time), bytes.readBigUInt64BE(6), 'the time the block bytes carry');
    assert.deepEqual(b.txs, [await txJson(baseTxId)]);
  });

  it('renders the reward blocks the node issues: a proposal block with the RewardValidatorTx, then a commit', async () => {
    const before = BigInt((await api.getHeight()).height);
    await pRpc('platform.advanceTime', { seconds: 3700 });
    const height = BigInt((await api.getHeight()).height);
    const blocks: any[] = [];
    for (let h = before + 1n; h <= height; h++)
      blocks.push(
        (await pRpc('platform.getBlockByHeight', { height: h.toString(), encoding: 'json' })).result.block,
      );
    for (const staker of [delegatorTx, validatorTx]) {
      const at = blocks.findIndex((blk) => blk.tx?.unsignedTx?.txID === staker);
      assert.ok(at >= 0, `a proposal block rewards ${staker}`);
      const proposal = blocks[at];
      assert.deepEqual(Object.keys(proposal), ['time', 'txs', 'parentID', 'height', 'id', 'tx']);
      assert.deepEqual(proposal.txs, []);
      assert.deepEqual(proposal.tx.credentials, []);
      assert.equal((await txJson(proposal.tx.id)).unsignedTx.txID, staker);
      const commit = blocks[at + 1];
      assert.deepEqual(Object.keys(commit), ['time', 'parentID', 'height', 'id']);
      assert.equal(commit.parentID, proposal.id);
      assert.equal(commit.time, proposal.time);
    }
  });

  it('serves the genesis validator txs, and the other encodings, and refuses bad ones in the reference words', async () => {
    const genesisTx = (await api.getCurrentValidators()).validators[0].txID;
    const g = await txJson(genesisTx);
    assert.deepEqual(g.credentials, []);
    assert.equal(g.unsignedTx.subnetID, PRIMARY);

    const hexTx = (await pRpc('platform.getTx', { txID: baseTxId, encoding: 'hex' })).result.tx;
    assert.deepEqual((await pRpc('platform.getTx', { txID: baseTxId, encoding: 'hexnc' })).result, {
      tx: hexTx.slice(0, -8),
      encoding: 'hexnc',
    });
    assert.deepEqual((await pRpc('platform.getTx', { txID: baseTxId, encoding: 'HexC' })).result, {
      tx: hexTx,
      encoding: 'hexc',
    });
    assert.equal(
      (await pRpc('platform.getTx', { txID: baseTxId, encoding: 'JSON' })).result.encoding,
      'json',
    );

    const bad = await pRpc('platform.getBlockByHeight', { height: 1, encoding: 'yaml' });
    assert.match(
      bad.error.message,
      /^couldn't unmarshal an argument\. .*encoding: "yaml" is not one of hex, hexnc, hexc, json/,
    );
    const utxos = await pRpc('platform.getUTXOs', { addresses: [EWOQ_P], encoding: 'json' });
    assert.match(utxos.error.message, /^couldn't encode UTXO \w+ as json: unsupported encoding in method$/);
    const issue = await pRpc('platform.issueTx', { tx: hexTx, encoding: 'json' });
    assert.equal(issue.error.message, 'problem decoding transaction: unsupported encoding in method');
  });
});

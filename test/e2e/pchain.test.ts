/**
 * Issue 4: the P-chain end to end, driven by @avalabs/avalanchejs v5 builders unchanged — genesis
 * state, base txs and blocks in the index, subnets and a Subnet-EVM chain, a permissionless
 * validator with a BLS key and a delegator, import/export with the X-chain, an L1 conversion with
 * a Warp-registered L1 validator, and rewards once the devnet clock passes the staking end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  avm,
  Context,
  L1Validator,
  PChainOwner,
  pvm,
  pvmSerial,
  TransferableOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import blst from '@chainsafe/blst';
import { sha256 } from '@noble/hashes/sha2.js';
import { startDevnet, call, rpc, type Devnet } from '../helpers/devnet.js';
import { innerHex, unwrapContainer } from './proposer-helpers.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_P,
  executionRefusal,
  pChainMessage,
  pResult,
  registerPayload,
  signAndIssue,
  signedWarp,
  testNodeId,
  weightPayload,
} from './pchain-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const AVAX = 1_000_000_000n;
const SUBNET_EVM_VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';

describe('P-chain', () => {
  let net: Devnet;
  let url: string;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  const other = utils.hexToBuffer('0x' + '11'.repeat(20));
  const otherP = utils.format('P', 'local', other);

  const utxos = async () => (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos;
  const feeState = () => api.getFeeState();

  before(async () => {
    net = await startDevnet({ args: ['--min-stake-duration', '60'] });
    url = net.url;
    api = new pvm.PVMApi(url);
    ctx = await Context.getContextFromURI(url);
  });
  after(async () => {
    await net?.stop();
  });

  it('starts from genesis: balances, validators with BLS keys, fee config, chains', async () => {
    assert.equal((await api.getHeight()).height, '0' as unknown as number);
    const balance = await api.getBalance({ addresses: [EWOQ_P] });
    assert.equal(balance.balance, 30_000_000n * AVAX);
    assert.equal(balance.unlocked, 30_000_000n * AVAX);
    const { validators } = await api.getCurrentValidators();
    assert.equal(validators.length, 5);
    for (const v of validators) {
      assert.match(v.nodeID, /^NodeID-/);
      assert.equal(typeof v.weight, 'string');
      assert.equal(v.weight, (2000n * AVAX).toString());
      assert.match((v.signer as any).publicKey, /^0x[0-9a-f]{96}$/);
      assert.equal(v.delegationFee, '2.0000');
      assert.ok(BigInt(v.potentialReward) > 0n);
    }
    assert.equal(ctx.platformFeeConfig.maxCapacity, 1_000_000n);
    const fs = await feeState();
    assert.equal(fs.price, 1n);
    const { blockchains } = await api.getBlockchains();
    assert.deepEqual(blockchains.map((b) => b.id).sort(), [ctx.xBlockchainID, ctx.cBlockchainID].sort());
    const at0 = await pResult(url, 'platform.getValidatorsAt', { height: 0 });
    assert.equal(Object.keys(at0.validators).length, 5);
    const all = await pResult(url, 'platform.getAllValidatorsAt', { height: '0' });
    assert.equal(all.validatorSets[PRIMARY].validators.length, 5);
    assert.equal(all.validatorSets[PRIMARY].totalWeight, (10_000n * AVAX).toString());
  });

  it('samples distinct current validators through @avalanche-sdk/client', async () => {
    const client: any = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
    const current = new Set((await api.getCurrentValidators()).validators.map((v) => v.nodeID));
    const { validators } = await client.pChain.sampleValidators({ size: 3 });
    assert.equal(validators.length, 3);
    assert.equal(new Set(validators).size, 3);
    for (const id of validators) assert.ok(current.has(id), id);
    assert.deepEqual([...validators].sort(), validators, 'sorted, as the reference answers');
    const { body } = await rpc(`${url}/ext/bc/P`, 'platform.sampleValidators', { size: '6' });
    assert.match(body.error.message, /6 validators requested, the set has 5/);
  });

  it('gives genesis UTXOs the empty tx id and lists them, with the validators, in devnet.getGenesis', async () => {
    const mine = await utxos();
    assert.deepEqual(
      mine.map((u) => [u.utxoId.txID.toString(), u.utxoId.outputIdx.value()]),
      [
        [PRIMARY, 0],
        [PRIMARY, 1],
      ],
    );
    const genesis = await call(`${url}/ext/devnet`, 'devnet.getGenesis');
    assert.equal(genesis.encoding, 'hex');
    assert.equal(genesis.pChain.blockchainID, PRIMARY);
    // Byte for byte what platform.getUTXOs serves while they are unspent.
    const listed = await call(`${url}/ext/bc/P`, 'platform.getUTXOs', {
      addresses: [EWOQ_P],
      encoding: 'hex',
    });
    assert.equal(listed.utxos.length, 2);
    for (const hex of listed.utxos) assert.ok(genesis.pChain.utxos.includes(hex));
    // A search that finds nothing names the last address searched and the empty id.
    const nobody = utils.format('P', 'local', new Uint8Array(20).fill(0xee));
    const empty = await call(`${url}/ext/bc/P`, 'platform.getUTXOs', { addresses: [nobody] });
    assert.deepEqual(empty.endIndex, { address: nobody, utxo: PRIMARY });
    const { validators } = await api.getCurrentValidators();
    const txIds = (genesis.pChain.validatorTxs as string[]).map((h) =>
      utils.base58check.encode(sha256(utils.hexToBuffer(h).subarray(0, -4))),
    );
    assert.deepEqual(txIds.sort(), validators.map((v) => v.txID).sort());
  });

  it('accepts a BaseTx, commits it in a Banff block and indexes the block bytes', async () => {
    const tx = pvm.newBaseTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 5n * AVAX, [other])],
        utxos: await utxos(),
      },
      ctx,
    );
    const txID = await signAndIssue(api, tx);
    assert.deepEqual(await api.getTxStatus({ txID }), { status: 'Committed' } as any);
    const got = await api.getTx({ txID });
    assert.equal(got.unsignedTx.getBlockchainId(), ctx.pBlockchainID);
    const otherBalance = await api.getBalance({ addresses: [otherP] });
    assert.equal(otherBalance.unlocked, 5n * AVAX);
    const height = BigInt((await api.getHeight()).height);
    assert.equal(height, 1n);
    const block = await pResult(url, 'platform.getBlockByHeight', { height: '1', encoding: 'hex' });
    const bytes = Buffer.from(block.block.slice(2, -8), 'hex');
    assert.equal(bytes.readUInt16BE(0), 0);
    assert.equal(bytes.readUInt32BE(2), 32, 'BanffStandardBlock type id');
    assert.equal(bytes.readBigUInt64BE(46), 1n, 'height');
    // Position 0 holds height 1: the genesis block is not indexed, as on the reference.
    const container = await call(`${url}/ext/index/P/block`, 'index.getContainerByIndex', {
      index: 0,
      encoding: 'hex',
    });
    // As on the reference node, the container is a proposervm block around the P-chain block.
    const wrapped = unwrapContainer(container.bytes);
    assert.equal(innerHex(container), block.block);
    assert.equal(container.id, wrapped.id);
    const byId = await pResult(url, 'platform.getBlock', { blockID: wrapped.innerId });
    assert.equal(byId.block, block.block);
  });

  let subnetId: string;
  let chainId: string;
  it('creates a subnet and a Subnet-EVM chain on it', async () => {
    const createSubnet = pvm.newCreateSubnetTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        subnetOwners: [EWOQ_ADDR],
      },
      ctx,
    );
    subnetId = await signAndIssue(api, createSubnet);
    const subnet = await api.getSubnet({ subnetID: subnetId });
    assert.equal(subnet.isPermissioned, true);
    assert.deepEqual(subnet.controlKeys, [EWOQ_P]);
    assert.equal(subnet.threshold, '1');

    const genesis = {
      config: { chainId: 99999, feeConfig: { gasLimit: 15_000_000 } },
      alloc: {},
      gasLimit: '0xe4e1c0',
    };
    const createChain = pvm.newCreateChainTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        chainName: 'flurry evm',
        subnetId,
        subnetAuth: [0],
        vmId: SUBNET_EVM_VM,
        fxIds: [],
        genesisData: genesis,
      },
      ctx,
    );
    chainId = await signAndIssue(api, createChain, [EWOQ_KEY], EWOQ_KEY);
    const { blockchains } = await api.getBlockchains();
    const created = blockchains.find((b) => b.id === chainId);
    assert.deepEqual(created, { id: chainId, name: 'flurry evm', subnetID: subnetId, vmID: SUBNET_EVM_VM });
    const { status } = await api.getBlockchainStatus(chainId);
    assert.ok(['Created', 'Validating'].includes(status));
    const tx = await api.getTx({ txID: chainId });
    assert.ok(pvmSerial.isCreateChainTx(tx.unsignedTx));
  });

  const validatorKey = blsKey('validator-1');
  const validatorNode = testNodeId(1);
  let validatorTx: string;
  let delegatorTx: string;
  let stakeEnd: bigint;
  it('adds a permissionless validator with a BLS proof of possession, and a delegator', async () => {
    const now = BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
    stakeEnd = now + 3600n;
    const add = pvm.newAddPermissionlessValidatorTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        nodeId: validatorNode,
        subnetId: PRIMARY,
        start: now,
        end: stakeEnd,
        weight: 2_000n * AVAX,
        rewardAddresses: [EWOQ_ADDR],
        delegatorRewardsOwner: [EWOQ_ADDR],
        shares: 100_000,
        publicKey: validatorKey.publicKey,
        signature: validatorKey.pop,
      },
      ctx,
    );
    validatorTx = await signAndIssue(api, add);
    const delegate = pvm.newAddPermissionlessDelegatorTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        nodeId: validatorNode,
        subnetId: PRIMARY,
        start: now,
        end: stakeEnd - 60n,
        weight: 500n * AVAX,
        rewardAddresses: [other],
      },
      ctx,
    );
    delegatorTx = await signAndIssue(api, delegate);
    const { validators } = await api.getCurrentValidators({ nodeIDs: [validatorNode] });
    assert.equal(validators.length, 1);
    const v = validators[0];
    assert.equal(v.txID, validatorTx);
    assert.equal(v.weight, (2_000n * AVAX).toString());
    assert.equal(v.delegationFee, '10.0000');
    assert.equal(v.delegatorCount, '1');
    assert.equal(v.delegatorWeight, (500n * AVAX).toString());
    assert.equal(v.delegators[0].txID, delegatorTx);
    // As the reference: `delegators` only when exactly one nodeID is asked for, else left out.
    const genesisNode = (await api.getCurrentValidators()).validators.find(
      (g) => g.nodeID !== validatorNode,
    )!.nodeID;
    const two = await api.getCurrentValidators({ nodeIDs: [validatorNode, genesisNode] });
    assert.equal(two.validators.length, 2);
    for (const each of two.validators) assert.equal('delegators' in each, false, each.nodeID);
    const all = await api.getCurrentValidators();
    assert.equal(all.validators.find((a) => a.nodeID === validatorNode)!.delegatorCount, '1');
    assert.ok(all.validators.every((a) => !('delegators' in a)));
    assert.equal((v.signer as any).publicKey, '0x' + Buffer.from(validatorKey.publicKey).toString('hex'));
    const stake = await api.getStake({ addresses: [EWOQ_P] });
    assert.ok(stake.staked >= 2_500n * AVAX);
    const height = (await api.getHeight()).height;
    const set = await pResult(url, 'platform.getValidatorsAt', { height });
    assert.equal(set.validators[validatorNode].weight, (2_500n * AVAX).toString());
    const before = await pResult(url, 'platform.getValidatorsAt', { height: 1 });
    assert.equal(before.validators[validatorNode], undefined, 'past heights answer the past set');
  });

  it('exports to the X-chain and imports back', async () => {
    const exp = pvm.newExportTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        destinationChainId: ctx.xBlockchainID,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 10n * AVAX, [EWOQ_ADDR])],
      },
      ctx,
    );
    await signAndIssue(api, exp);
    const xApi = new avm.AVMApi(url);
    const { utxos: atomic } = await xApi.getUTXOs({
      addresses: ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'],
      sourceChain: 'P',
    });
    assert.equal(atomic.length, 1);
    assert.equal((atomic[0].output as any).amount(), 10n * AVAX);

    const imp = avm.newImportTx(ctx, ctx.pBlockchainID, atomic, [EWOQ_ADDR], [EWOQ_ADDR]);
    await avmSign(imp);
    await xApi.issueSignedTx(imp.getSignedTx());

    const xUtxos = (await xApi.getUTXOs({ addresses: ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] }))
      .utxos;
    const xExp = avm.newExportTx(ctx, ctx.pBlockchainID, [EWOQ_ADDR], xUtxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 3n * AVAX, [EWOQ_ADDR]),
    ]);
    await avmSign(xExp);
    await xApi.issueSignedTx(xExp.getSignedTx());
    await waitFor(
      async () => (await api.getUTXOs({ addresses: [EWOQ_P], sourceChain: 'X' })).utxos.length === 1,
    );
    const { utxos: fromX } = await api.getUTXOs({ addresses: [EWOQ_P], sourceChain: 'X' });
    const pImp = pvm.newImportTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: fromX,
        sourceChainId: ctx.xBlockchainID,
        toAddressesBytes: [other],
      },
      ctx,
    );
    await signAndIssue(api, pImp);
    const { utxos: left } = await api.getUTXOs({ addresses: [EWOQ_P], sourceChain: 'X' });
    assert.equal(left.length, 0, 'imported UTXOs leave shared memory');
  });

  const l1Key = blsKey('l1-validator-0');
  const l1Node = testNodeId(40);
  const manager = utils.hexToBuffer('0x' + 'ab'.repeat(20));
  let l1ValidationId: string;
  it('converts the subnet to an L1 and registers an L1 validator through a Warp message', async () => {
    const convert = pvm.newConvertSubnetToL1Tx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        subnetId,
        chainId,
        address: manager,
        subnetAuth: [0],
        validators: [
          L1Validator.fromNative(
            l1Node,
            100n,
            1n * AVAX,
            new pvmSerial.ProofOfPossession(l1Key.publicKey, l1Key.pop),
            PChainOwner.fromNative([EWOQ_ADDR], 1),
            PChainOwner.fromNative([EWOQ_ADDR], 1),
          ),
        ],
      },
      ctx,
    );
    await signAndIssue(api, convert, [EWOQ_KEY], EWOQ_KEY);
    const subnet = await api.getSubnet({ subnetID: subnetId });
    assert.equal(subnet.isPermissioned, false);
    assert.equal(subnet.managerChainID, chainId);
    assert.equal(subnet.managerAddress, '0x' + 'ab'.repeat(20));

    const newKey = blsKey('l1-validator-1');
    const newNode = testNodeId(41);
    const now = BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
    const payload = registerPayload(subnetId, newNode, newKey, now + 600n, EWOQ_ADDR, 50n);
    const message = signedWarp(12345, chainId, manager, payload, [l1Key], new Uint8Array([1]));
    const register = pvm.newRegisterL1ValidatorTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        balance: 2n * AVAX,
        blsSignature: newKey.pop,
        message,
      },
      ctx,
    );
    await signAndIssue(api, register);
    const { validators } = await api.getCurrentValidators({ subnetID: subnetId });
    assert.equal(validators.length, 2);
    const registered = (validators as any[]).find((v) => v.nodeID === newNode);
    assert.ok(registered, 'the registered validator is listed');
    assert.equal(registered.weight, '50');
    l1ValidationId = registered.validationID;
    // An L1's validators are the reference's APIL1Validator; getL1Validator adds the subnet and
    // the last accepted height.
    assert.deepEqual(Object.keys(registered), [
      'nodeID',
      'weight',
      'startTime',
      'validationID',
      'publicKey',
      'remainingBalanceOwner',
      'deactivationOwner',
      'minNonce',
      'balance',
    ]);
    const details = await api.getL1Validator(l1ValidationId);
    assert.equal(details.subnetID, subnetId);
    assert.equal(details.height, BigInt((await api.getHeight()).height));
    assert.ok(details.balance > 0n && details.balance <= 2n * AVAX);

    // The same registration again is a replay (signed by the whole L1 set now, so it gets
    // past the signature check).
    const replayMessage = signedWarp(12345, chainId, manager, payload, [l1Key, newKey], new Uint8Array([3]));
    const replay = pvm.newRegisterL1ValidatorTx(
      {
        feeState: await feeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: await utxos(),
        balance: 2n * AVAX,
        blsSignature: newKey.pop,
        message: replayMessage,
      },
      ctx,
    );
    await assert.rejects(signAndIssue(api, replay), (err: Error) => {
      assert.equal(
        err.message,
        executionRefusal(replay, `warp message already issued for validationID ${l1ValidationId}`),
      );
      return true;
    });

    // A weight change needs 67% of the L1's weight: one signer (100 or 50 of 150) is not enough.
    const weight = weightPayload(l1ValidationId, 0n, 70n);
    const weakly = signedWarp(12345, chainId, manager, weight, [l1Key], new Uint8Array([1]));
    const setWeakly = pvm.newSetL1ValidatorWeightTx(
      { feeState: await feeState(), fromAddressesBytes: [EWOQ_ADDR], utxos: await utxos(), message: weakly },
      ctx,
    );
    await assert.rejects(
      signAndIssue(api, setWeakly),
      /^Error: couldn't issue tx: failed verification: failed verifying warp messages: signature weight is insufficient: 67\*150 > 100\*(100|50)$/,
    );
    const both = signedWarp(12345, chainId, manager, weight, [l1Key, newKey], new Uint8Array([3]));
    const setWeight = pvm.newSetL1ValidatorWeightTx(
      { feeState: await feeState(), fromAddressesBytes: [EWOQ_ADDR], utxos: await utxos(), message: both },
      ctx,
    );
    await signAndIssue(api, setWeight);
    const updated = await api.getL1Validator(l1ValidationId);
    assert.equal(updated.weight, 70n);
    assert.equal(updated.minNonce, 1n);
    const all = await pResult(url, 'platform.getAllValidatorsAt', { height: 'proposed' });
    assert.equal(all.validatorSets[subnetId].totalWeight, '170');

    // The node's validator signs the P-chain's ACP-77 messages about this L1 (ACP-118).
    const { nodePOP } = await call(`${url}/ext/info`, 'info.getNodeID');
    const nodeKey = blst.PublicKey.fromBytes(Buffer.from(nodePOP.publicKey.slice(2), 'hex'), true);
    const sign = (message: Uint8Array, justification: Uint8Array = new Uint8Array()) =>
      rpc(`${url}/ext/acp118`, 'acp118.signatureRequest', {
        message: Buffer.from(message).toString('hex'),
        justification: Buffer.from(justification).toString('hex'),
      }).then((r) => r.body);
    const validationBytes = utils.base58check.decode(l1ValidationId);
    const registeredMsg = pChainMessage(12345, 2, new Uint8Array([...validationBytes, 1]));
    const signed = await sign(registeredMsg);
    const signature = blst.Signature.fromBytes(
      Buffer.from(signed.result.signature.replace(/^0x/, ''), 'hex'),
      true,
    );
    assert.ok(blst.verify(registeredMsg, nodeKey, signature));
    const conversion = (await api.getSubnet({ subnetID: subnetId })).conversionID;
    const conversionMsg = pChainMessage(12345, 0, utils.base58check.decode(conversion));
    assert.ok((await sign(conversionMsg, utils.base58check.decode(subnetId))).result.signature);
    const weightNow = new Uint8Array(Buffer.concat([validationBytes, u64(0n), u64(70n)]));
    assert.ok((await sign(pChainMessage(12345, 3, weightNow))).result.signature);
    const stale = new Uint8Array(Buffer.concat([validationBytes, u64(0n), u64(50n)]));
    assert.match((await sign(pChainMessage(12345, 3, stale))).error.message, /refusing to sign: weight 50/);
    const unknown = pChainMessage(12345, 2, new Uint8Array([...new Uint8Array(32).fill(5), 1]));
    assert.match((await sign(unknown)).error.message, /refusing to sign: the validation is not registered/);

    // Weight 0 removes the validator: the reference deletes it, so getL1Validator finds nothing.
    const removal = signedWarp(
      12345,
      chainId,
      manager,
      weightPayload(l1ValidationId, 1n, 0n),
      [l1Key, newKey],
      new Uint8Array([3]),
    );
    await signAndIssue(
      api,
      pvm.newSetL1ValidatorWeightTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await utxos(),
          message: removal,
        },
        ctx,
      ),
    );
    const gone = await rpc(`${url}/ext/bc/P`, 'platform.getL1Validator', { validationID: l1ValidationId });
    assert.equal(gone.body.error.message, `fetching L1 validator "${l1ValidationId}" failed: not found`);
  });

  it('pays rewards into reward UTXOs once the devnet clock passes the staking end', async () => {
    const before = await api.getBalance({ addresses: [EWOQ_P] });
    const { validators } = await api.getCurrentValidators({ nodeIDs: [validatorNode] });
    const potential = BigInt(validators[0].potentialReward);
    assert.ok(potential > 0n);
    await pResult(url, 'platform.advanceTime', { seconds: 3700 });
    const after = await api.getCurrentValidators({ nodeIDs: [validatorNode] });
    assert.equal(after.validators.length, 0, 'the validator left the set');
    assert.deepEqual(await api.getTxStatus({ txID: validatorTx }), { status: 'Committed' } as any);
    const rewards = await api.getRewardUTXOs({ txID: validatorTx });
    // In output order: the validation reward, then the 10% fee earned on the delegation.
    const amounts = rewards.utxos.map((u: Utxo) => (u.output as any).amount() as bigint);
    assert.equal(amounts.length, 2);
    assert.equal(amounts[0], potential);
    const delegatorRewards = await api.getRewardUTXOs({ txID: delegatorTx });
    assert.equal(delegatorRewards.utxos.length, 1);
    const delegatorAmount = (delegatorRewards.utxos[0].output as any).amount() as bigint;
    const delegationTotal = delegatorAmount + amounts[1];
    assert.equal(
      amounts[1],
      delegationTotal - (delegationTotal * 900_000n) / 1_000_000n,
      'the validator keeps 10%',
    );
    const afterBalance = await api.getBalance({ addresses: [EWOQ_P] });
    // stake (2000 AVAX) back plus the validation reward plus the delegation fee, minus L1 fees paid meanwhile
    assert.ok(afterBalance.unlocked > before.unlocked + 2_000n * AVAX);
    const { utxoIDs } = afterBalance;
    assert.ok(utxoIDs.some((u) => u.txID === validatorTx));
  });
});

async function avmSign(tx: any): Promise<void> {
  const { addTxSignatures } = await import('@avalabs/avalanchejs');
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
}

async function waitFor(check: () => Promise<boolean>, attempts = 50): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached');
}

function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
}

/**
 * Issue 4: the remaining subnet and L1 transactions through avalanchejs v5 builders —
 * AddSubnetValidatorTx / RemoveSubnetValidatorTx with their validator-set history,
 * TransferSubnetOwnershipTx (the old owner loses its say), and an L1 validator's
 * IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx (its remaining balance comes back), and a
 * converted L1 whose owner still removes legacy validators and changes hands.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addTxSignatures, Context, pvm, secp256k1, utils, type Common } from '@avalabs/avalanchejs';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_P,
  executionRefusal,
  l1Validator,
  pCall,
  pResult,
  registerPayload,
  signAndIssue,
  signAuth,
  signedWarp,
  testNodeId,
  weightPayload,
} from './pchain-helpers.js';

const AVAX = 1_000_000_000n;
const NEW_OWNER_KEY = utils.hexToBuffer('0x' + '24'.repeat(32));
const NEW_OWNER = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(NEW_OWNER_KEY));
const EMPTY_NODE = 'NodeID-111111111111111111116DBWJs';
/**
 * `err` is the P-chain executor's refusal of `tx` (signed by then), word for word: `issueTx`'s,
 * the mempool's, `VerifyTx`'s and `StandardTx`'s layers, the last naming the tx.
 */
const refusedAs = (tx: Common.UnsignedTx, why: string) => (err: Error) => {
  assert.equal(err.message, executionRefusal(tx, why));
  return true;
};

describe('P-chain subnet and L1 operations', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  let subnetId: string;
  let genesisNode: string;
  const utxos = async () => (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos;
  const base = async () => ({
    feeState: await api.getFeeState(),
    fromAddressesBytes: [EWOQ_ADDR],
    utxos: await utxos(),
  });
  const now = async () => BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
  /** The genesis node joins `subnet` for ten minutes. */
  const subnetValidatorTx = async (subnet: string, weight: bigint) =>
    pvm.newAddSubnetValidatorTx(
      {
        ...(await base()),
        nodeId: genesisNode,
        subnetId: subnet,
        subnetAuth: [0],
        start: await now(),
        end: (await now()) + 600n,
        weight,
      },
      ctx,
    );
  const chainTx = async (subnet: string, chainName: string) =>
    pvm.newCreateChainTx(
      {
        ...(await base()),
        chainName,
        subnetId: subnet,
        subnetAuth: [0],
        vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
        fxIds: [],
        genesisData: {},
      },
      ctx,
    );

  before(async () => {
    net = await startDevnet();
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
    genesisNode = (await api.getCurrentValidators()).validators[0].nodeID;
    subnetId = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
  });
  after(async () => {
    await net?.stop();
  });

  it('adds and removes a subnet validator, and remembers the set at each height', async () => {
    await signAndIssue(api, await subnetValidatorTx(subnetId, 20n), [EWOQ_KEY], EWOQ_KEY);
    const addedAt = (await api.getHeight()).height;
    const { validators } = await api.getCurrentValidators({ subnetID: subnetId });
    assert.equal(validators.length, 1);
    assert.equal(validators[0].nodeID, genesisNode);
    assert.equal(validators[0].weight, '20');
    // A permissioned subnet validator is a bare staker, as the reference writes it.
    assert.deepEqual(Object.keys(validators[0]), ['txID', 'startTime', 'endTime', 'weight', 'nodeID']);

    const remove = pvm.newRemoveSubnetValidatorTx(
      { ...(await base()), nodeId: genesisNode, subnetId, subnetAuth: [0] },
      ctx,
    );
    await signAndIssue(api, remove, [EWOQ_KEY], EWOQ_KEY);
    assert.equal((await api.getCurrentValidators({ subnetID: subnetId })).validators.length, 0);
    const then = await pResult(net.url, 'platform.getValidatorsAt', { height: addedAt, subnetID: subnetId });
    assert.equal(then.validators[genesisNode].weight, '20');
    assert.match(then.validators[genesisNode].publicKey, /^0x[0-9a-f]{96}$/, 'the primary validator key');
    const nowSet = await pResult(net.url, 'platform.getValidatorsAt', {
      height: 'proposed',
      subnetID: subnetId,
    });
    assert.deepEqual(nowSet.validators, {});
  });

  it('answers the subnet and chain read methods, and their errors, as the reference does', async () => {
    const PRIMARY = '11111111111111111111111111111111LpoYY';
    const unknown = '2Z36RnQuk1hvsnFeGWzfZUfXNr7w1SjzmDQ78YxfTVNAkDq3nZ';
    const error = async (method: string, params: unknown) =>
      (await pCall(net.url, `platform.${method}`, params)).error?.message;

    assert.equal(await error('getSubnet', { subnetID: PRIMARY }), "the primary network isn't a subnet");
    assert.equal(await error('getSubnet', {}), "the primary network isn't a subnet");
    assert.equal(await error('getSubnet', { subnetID: unknown }), 'not found');
    // A mistyped id (wrong checksum) does not unmarshal.
    assert.match(
      (await error('getSubnet', { subnetID: subnetId.slice(0, -1) + (subnetId.endsWith('a') ? 'b' : 'a') }))!,
      /^couldn't unmarshal an argument/,
    );
    const subnets = (await api.getSubnets({ ids: [] })).subnets;
    assert.equal(subnets.at(-1)!.id, PRIMARY, 'the Primary Network comes last');
    const asked = (await api.getSubnets({ ids: [subnetId, unknown, PRIMARY, subnetId] })).subnets;
    assert.deepEqual(
      asked.map((s) => s.id),
      [subnetId, PRIMARY],
    );

    assert.deepEqual(await pResult(net.url, 'platform.validatedBy', {}), { subnetID: PRIMARY });
    assert.equal(
      await error('validatedBy', { blockchainID: unknown }),
      `problem retrieving blockchain "${unknown}": not found`,
    );
    assert.equal(
      await error('validates', { subnetID: unknown }),
      `problem retrieving subnet "${unknown}": not found`,
    );
    assert.deepEqual(await pResult(net.url, 'platform.validates', { subnetID: subnetId }), {
      blockchainIDs: [],
    });
    assert.equal(await error('getBlockchainStatus', {}), "argument 'blockchainID' not given");
    // The reference finds no CreateChainTx for the P-chain, so does not count itself its validator.
    for (const blockchainID of ['P', 'platform', PRIMARY])
      assert.deepEqual(await pResult(net.url, 'platform.getBlockchainStatus', { blockchainID }), {
        status: 'Syncing',
      });
    assert.deepEqual(await pResult(net.url, 'platform.getBlockchainStatus', { blockchainID: 'X' }), {
      status: 'Validating',
    });
    assert.equal(
      await error('getBlockchainStatus', { blockchainID: 'zzz' }),
      'problem parsing blockchainID "zzz": input string is smaller than the checksum size',
    );
    const noTransform = `failed fetching subnet transformation for ${subnetId}: not found`;
    assert.equal(await error('getStakingAssetID', { subnetID: subnetId }), noTransform);
    assert.equal(await error('getMinStake', { subnetID: subnetId }), noTransform);
    assert.equal(
      await error('getCurrentSupply', { subnetID: subnetId }),
      'fetching current supply failed: not found',
    );
    assert.equal(await error('getTx', { txID: unknown }), "couldn't get tx: not found");
    // Fee states are the last accepted block's, at getTimestamp's time.
    const [fee, validatorFee, time] = await Promise.all([
      pResult(net.url, 'platform.getFeeState'),
      pResult(net.url, 'platform.getValidatorFeeState'),
      api.getTimestamp(),
    ]);
    assert.equal(fee.timestamp, time.timestamp);
    assert.equal(validatorFee.timestamp, time.timestamp);
  });

  it('transfers subnet ownership: the new owner authorises, the old one no longer can', async () => {
    const transfer = pvm.newTransferSubnetOwnershipTx(
      { ...(await base()), subnetId, subnetAuth: [0], subnetOwners: [NEW_OWNER] },
      ctx,
    );
    await signAndIssue(api, transfer, [EWOQ_KEY], EWOQ_KEY);
    const subnet = await api.getSubnet({ subnetID: subnetId });
    assert.deepEqual(subnet.controlKeys, [utils.format('P', 'local', NEW_OWNER)]);
    const chain = () => chainTx(subnetId, 'evm');
    const unauthorized = await chain();
    await assert.rejects(
      signAndIssue(api, unauthorized, [EWOQ_KEY], EWOQ_KEY),
      refusedAs(
        unauthorized,
        `unauthorized modification: wrong signature: expected signature from ${utils.base58check.encode(NEW_OWNER)} but got from 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV`,
      ),
    );
    const chainId = await signAndIssue(api, await chain(), [EWOQ_KEY], NEW_OWNER_KEY);
    // As the reference: each subnet's chains first, the Primary Network's last.
    assert.equal((await api.getBlockchains()).blockchains[0].id, chainId);
  });

  it('needs two of the three owners of a 2-of-3 subnet, refusing one in the reference words', async () => {
    const keys = [1, 2, 3].map((i) => new Uint8Array(32).fill(0x50 + i));
    const owners = keys.map((k) => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(k)));
    const subnet = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: owners, threshold: 2 }, ctx),
    );
    const info = await api.getSubnet({ subnetID: subnet });
    assert.equal(info.threshold, '2');
    assert.equal(info.controlKeys.length, 3);
    // The owners' keys in the order of the subnet's (sorted) addresses.
    const sorted = info.controlKeys.map(
      (a) => keys[owners.findIndex((o) => utils.format('P', 'local', o) === a)]!,
    );
    const chain = (auth: number[]) =>
      base().then((b) =>
        pvm.newCreateChainTx(
          {
            ...b,
            chainName: 'multisig',
            subnetId: subnet,
            subnetAuth: auth,
            vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
            fxIds: [],
            genesisData: {},
          },
          ctx,
        ),
      );
    const one = await chain([0]);
    await addTxSignatures({ unsignedTx: one, privateKeys: [EWOQ_KEY] });
    await signAuth(one, sorted[0]!, 0);
    await assert.rejects(
      api.issueSignedTx(one.getSignedTx()),
      refusedAs(one, 'unauthorized modification: input has less signers than expected'),
    );
    const two = await chain([0, 2]);
    await addTxSignatures({ unsignedTx: two, privateKeys: [EWOQ_KEY] });
    await signAuth(two, sorted[0]!, 0);
    await signAuth(two, sorted[2]!, 1);
    const { txID } = await api.issueSignedTx(two.getSignedTx());
    assert.ok((await api.getBlockchains()).blockchains.some((b) => b.id === txID && b.subnetID === subnet));
  });

  it('tops up an L1 validator balance and disables it, refunding what is left', async () => {
    const chainId = (await api.getBlockchains()).blockchains.find((b) => b.subnetID === subnetId)!.id;
    const keys = [blsKey('ops-0'), blsKey('ops-1'), blsKey('ops-2')];
    // The third validator pays the continuous fee (1 nAVAX/s on local) from a 5,000 nAVAX balance.
    const balances = [AVAX, AVAX, 5_000n];
    const convert = pvm.newConvertSubnetToL1Tx(
      {
        ...(await base()),
        subnetId,
        chainId,
        address: utils.hexToBuffer('0x' + 'cd'.repeat(20)),
        subnetAuth: [0],
        validators: keys.map((k, i) => l1Validator(testNodeId(60 + i), 10n, balances[i], k)),
      },
      ctx,
    );
    await signAndIssue(api, convert, [EWOQ_KEY], NEW_OWNER_KEY);
    const l1 = (await pResult(net.url, 'platform.getCurrentL1Validators', { subnetID: subnetId })).validators;
    assert.equal(l1.length, 3);
    const target = l1[0].validationID;
    const before = await api.getL1Validator(target);

    await signAndIssue(
      api,
      pvm.newIncreaseL1ValidatorBalanceTx({ ...(await base()), validationId: target, balance: AVAX }, ctx),
    );
    const topped = await api.getL1Validator(target);
    assert.ok(
      topped.balance > before.balance + AVAX - 1000n,
      `${topped.balance} after topping up ${before.balance}`,
    );

    const balanceBefore = (await api.getBalance({ addresses: [EWOQ_P] })).balance;
    const disable = pvm.newDisableL1ValidatorTx(
      { ...(await base()), validationId: target, disableAuth: [0] },
      ctx,
    );
    await signAndIssue(api, disable, [EWOQ_KEY], EWOQ_KEY);
    const disabled = await api.getL1Validator(target);
    assert.equal(disabled.balance, 0n);
    const balanceAfter = (await api.getBalance({ addresses: [EWOQ_P] })).balance;
    assert.ok(balanceAfter > balanceBefore + AVAX, 'the remaining balance came back as a UTXO');
    const set = await pResult(net.url, 'platform.getValidatorsAt', {
      height: 'proposed',
      subnetID: subnetId,
    });
    // As the reference: the disabled validator no longer signs, but its weight stays in the set,
    // keyless, under the empty node id (so Warp quorums still count it).
    assert.equal(set.validators[disabled.nodeID], undefined, 'the disabled validator left the set');
    assert.deepEqual(set.validators[EMPTY_NODE], { publicKey: null, weight: '10' });
    assert.equal(Object.keys(set.validators).length, 3);
    const { height } = await pResult(net.url, 'platform.getHeight');
    const all = (await pResult(net.url, 'platform.getAllValidatorsAt', { height })).validatorSets[subnetId];
    assert.equal(all.totalWeight, '30');
    assert.equal(all.validators.length, 2, 'the keyless weight is not a signer');
  });

  it('deactivates an L1 validator whose balance the continuous fee used up', async () => {
    const poor = (
      await pResult(net.url, 'platform.getCurrentL1Validators', { subnetID: subnetId })
    ).validators.find((v: any) => BigInt(v.balance) <= 5_000n && BigInt(v.balance) > 0n);
    assert.ok(poor, 'the 5,000 nAVAX validator is still active');
    const heightBefore = BigInt((await api.getHeight()).height);
    await pResult(net.url, 'platform.advanceTime', { seconds: 6_000 });
    assert.ok(BigInt((await api.getHeight()).height) > heightBefore, 'a block moved time');
    assert.equal((await api.getL1Validator(poor.validationID)).balance, 0n);
    const set = await pResult(net.url, 'platform.getValidatorsAt', {
      height: 'proposed',
      subnetID: subnetId,
    });
    assert.equal(set.validators[poor.nodeID], undefined, 'the validator that ran dry left the set');
    assert.deepEqual(set.validators[EMPTY_NODE], { publicKey: null, weight: '20' });
    assert.equal(Object.keys(set.validators).length, 2);
    // The one validator left active holds 10 of 30: its signature alone is no quorum.
    const chainId = (await api.getBlockchains()).blockchains.find((b) => b.subnetID === subnetId)!.id;
    const payload = registerPayload(
      subnetId,
      testNodeId(70),
      blsKey('ops-new'),
      (await now()) + 300n,
      EWOQ_ADDR,
      1n,
    );
    const message = signedWarp(
      12345,
      chainId,
      utils.hexToBuffer('0x' + 'cd'.repeat(20)),
      payload,
      [blsKey('ops-1')],
      new Uint8Array([1]),
    );
    await assert.rejects(
      signAndIssue(
        api,
        pvm.newRegisterL1ValidatorTx(
          { ...(await base()), balance: AVAX, blsSignature: blsKey('ops-new').pop, message },
          ctx,
        ),
      ),
      // Checked before the tx executes, as the reference's VerifyWarpMessages: 67% of 30 is more
      // than the 10 signed.
      (err: Error) => {
        assert.equal(
          err.message,
          "couldn't issue tx: failed verification: failed verifying warp messages: signature weight is insufficient: 67*30 > 100*10",
        );
        return true;
      },
    );
  });

  it("removes a converted L1's legacy subnet validator and transfers its ownership, but adds no chain", async () => {
    // As the reference: after a conversion the subnet's permissioned validators stay until the owner
    // removes them (RemoveSubnetValidatorTx), and the owner can still change; only adding validators
    // or chains is refused (`"<subnet>" is immutable`).
    const l1 = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
    const chainId = await signAndIssue(api, await chainTx(l1, 'legacy'), [EWOQ_KEY], EWOQ_KEY);
    await signAndIssue(api, await subnetValidatorTx(l1, 7n), [EWOQ_KEY], EWOQ_KEY);
    const l1Node = testNodeId(90);
    const l1Key = blsKey('legacy-l1');
    const manager = utils.hexToBuffer('0x' + 'ef'.repeat(20));
    const convert = pvm.newConvertSubnetToL1Tx(
      {
        ...(await base()),
        subnetId: l1,
        chainId,
        address: manager,
        subnetAuth: [0],
        validators: [l1Validator(l1Node, 10n, AVAX, l1Key)],
      },
      ctx,
    );
    await signAndIssue(api, convert, [EWOQ_KEY], EWOQ_KEY);
    const listed = (await api.getCurrentValidators({ subnetID: l1 })).validators.map((v) => v.nodeID);
    assert.deepEqual(listed.sort(), [genesisNode, l1Node].sort(), 'the legacy validator stays');

    const remove = pvm.newRemoveSubnetValidatorTx(
      { ...(await base()), nodeId: genesisNode, subnetId: l1, subnetAuth: [0] },
      ctx,
    );
    await signAndIssue(api, remove, [EWOQ_KEY], EWOQ_KEY);
    const left = (await api.getCurrentValidators({ subnetID: l1 })).validators.map((v) => v.nodeID);
    assert.deepEqual(left, [l1Node]);
    const set = await pResult(net.url, 'platform.getValidatorsAt', { height: 'proposed', subnetID: l1 });
    assert.deepEqual(Object.keys(set.validators), [l1Node]);

    // Messages of the L1's manager the reference refuses whatever their signatures: a weight set
    // with the last nonce (kept for removals), a registration of the empty NodeID.
    const fromManager = (payload: Uint8Array) =>
      signedWarp(12345, chainId, manager, payload, [l1Key], new Uint8Array([1]));
    const [{ validationID: validationId }] = (
      await pResult(net.url, 'platform.getCurrentValidators', { subnetID: l1 })
    ).validators;
    const lastNonce = pvm.newSetL1ValidatorWeightTx(
      { ...(await base()), message: fromManager(weightPayload(validationId, (1n << 64n) - 1n, 20n)) },
      ctx,
    );
    await assert.rejects(
      signAndIssue(api, lastNonce),
      refusedAs(lastNonce, 'maxUint64 nonce is reserved for removal'),
    );
    const emptyKey = blsKey('empty-node');
    const expiry = (await now()) + 600n;
    const emptyNode = pvm.newRegisterL1ValidatorTx(
      {
        ...(await base()),
        balance: AVAX,
        blsSignature: emptyKey.pop,
        message: fromManager(registerPayload(l1, EMPTY_NODE, emptyKey, expiry, EWOQ_ADDR, 5n)),
      },
      ctx,
    );
    await assert.rejects(
      signAndIssue(api, emptyNode),
      refusedAs(emptyNode, 'invalid node ID: empty nodeID is disallowed'),
    );
    assert.equal((await api.getL1Validator(validationId)).weight, 10n);

    const transfer = pvm.newTransferSubnetOwnershipTx(
      { ...(await base()), subnetId: l1, subnetAuth: [0], subnetOwners: [NEW_OWNER] },
      ctx,
    );
    await signAndIssue(api, transfer, [EWOQ_KEY], EWOQ_KEY);
    const subnet = await api.getSubnet({ subnetID: l1 });
    assert.deepEqual(subnet.controlKeys, [utils.format('P', 'local', NEW_OWNER)]);
    assert.equal(subnet.isPermissioned, false);

    const late = await chainTx(l1, 'late');
    await assert.rejects(
      signAndIssue(api, late, [EWOQ_KEY], NEW_OWNER_KEY),
      refusedAs(late, `"${l1}" is immutable`),
    );
  });

  it('converts a subnet whose validator manager lives on the C-chain', async () => {
    // As the reference: the manager chain may be any chain, here one of another subnet.
    const subnet = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
    const node = testNodeId(91);
    const convert = pvm.newConvertSubnetToL1Tx(
      {
        ...(await base()),
        subnetId: subnet,
        chainId: ctx.cBlockchainID,
        address: utils.hexToBuffer('0x' + '0c'.repeat(20)),
        subnetAuth: [0],
        validators: [l1Validator(node, 10n, AVAX, blsKey('c-chain-managed'))],
      },
      ctx,
    );
    await signAndIssue(api, convert, [EWOQ_KEY], EWOQ_KEY);
    const converted = await api.getSubnet({ subnetID: subnet });
    assert.equal(converted.isPermissioned, false);
    assert.equal(converted.managerChainID, ctx.cBlockchainID);
    assert.equal(converted.managerAddress, '0x' + '0c'.repeat(20));
    const { validators } = await api.getCurrentValidators({ subnetID: subnet });
    assert.deepEqual(
      validators.map((v) => v.nodeID),
      [node],
    );
  });

  it('removes a permissioned subnet validator at its end in a standard block, with no reward tx', async () => {
    // As the reference's AdvanceTimeTo: only primary-network stakers get a RewardValidatorTx.
    const subnet = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
    const clock = async () =>
      BigInt(Date.parse((await pResult(net.url, 'platform.advanceTime', { seconds: 1 })).timestamp) / 1000);
    const start = await clock();
    const add = pvm.newAddSubnetValidatorTx(
      {
        ...(await base()),
        nodeId: genesisNode,
        subnetId: subnet,
        subnetAuth: [0],
        start,
        end: start + 100n,
        weight: 3n,
      },
      ctx,
    );
    const stakingTx = await signAndIssue(api, add, [EWOQ_KEY], EWOQ_KEY);
    const [{ endTime }] = (await api.getCurrentValidators({ subnetID: subnet })).validators;
    const from = BigInt((await api.getHeight()).height);
    await pResult(net.url, 'platform.advanceTime', { seconds: 200 });
    assert.deepEqual((await api.getCurrentValidators({ subnetID: subnet })).validators, []);

    const to = BigInt((await api.getHeight()).height);
    const blocks = [];
    for (let h = from + 1n; h <= to; h++)
      blocks.push(
        (await pResult(net.url, 'platform.getBlockByHeight', { height: String(h), encoding: 'json' })).block,
      );
    assert.ok(
      blocks.every((b) => b.tx?.unsignedTx?.txID !== stakingTx),
      'no proposal block rewards the permissioned validator',
    );
    const leaving = blocks.find((b) => b.time === Number(endTime));
    assert.ok(leaving, 'a block at the end time');
    assert.deepEqual(leaving.txs, [], 'an empty standard block carries the removal');
    const at = await pResult(net.url, 'platform.getValidatorsAt', {
      height: leaving.height,
      subnetID: subnet,
    });
    assert.deepEqual(at.validators, {});
    const before = await pResult(net.url, 'platform.getValidatorsAt', {
      height: leaving.height - 1,
      subnetID: subnet,
    });
    assert.equal(before.validators[genesisNode].weight, '3');
  });
});

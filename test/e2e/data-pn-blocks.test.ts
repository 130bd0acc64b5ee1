/**
 * Primary-network blocks, vertices, network details, address activity, pending rewards, L1
 * validators, the AVAX supply and the live check of the chain-data service: X and P activity
 * through the node (transfers, a validator with a delegator, a subnet converted to an L1), then
 * every route read through @avalanche-sdk/chainkit (zod-validated), checked against the node's
 * own answers, every list walked to the end with page tokens, and bad input refused with 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
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
import { storeArgs } from '../helpers/postgres.js';
import { collectPages, waitIndexed } from './data-helpers.js';
import { blsKey, EWOQ_ADDR, EWOQ_KEY, signAndIssue, testNodeId } from './pchain-helpers.js';
import { waitAccepted } from './xchain-helpers.js';
import { unwrapContainer } from './proposer-helpers.js';

const AVAX = 1_000_000_000n;
const SUBNET_EVM_VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const HRP = 'fuji';
const fmt = (chain: string, bytes: Uint8Array) => utils.format(chain, HRP, bytes);
const bare = (bytes: Uint8Array) => utils.formatBech32(HRP, bytes);

describe('chain-data primary-network blocks, network details, activity, pending rewards, L1 validators', () => {
  let net: Devnet;
  let url: string;
  let data: string;
  let ctx: Context.Context;
  let pApi: pvm.PVMApi;
  let xApi: avm.AVMApi;
  let sdk: Avalanche;
  const at = () => ({ serverURL: data });
  const recipient = utils.hexToBuffer('0x' + '31'.repeat(20));
  const delegatorOwner = utils.hexToBuffer('0x' + '32'.repeat(20));
  const unused = utils.hexToBuffer('0x' + '33'.repeat(20));
  const EWOQ_X = fmt('X', EWOQ_ADDR);
  const EWOQ_P = fmt('P', EWOQ_ADDR);
  const validatorNode = testNodeId(71);
  const l1Node = testNodeId(72);
  const xTxs: string[] = [];
  let validatorTx: string;
  let delegatorTx: string;
  let subnetId: string;

  const indexed = () => waitIndexed(url, data);
  const collect = collectPages;

  const feeState = () => pApi.getFeeState();
  const pUtxos = async () => (await pApi.getUTXOs({ addresses: [EWOQ_P] })).utxos;

  before(async () => {
    net = await startDevnet({
      args: ['--network', 'fuji', '--min-stake-duration', '60', ...(await storeArgs())],
    });
    url = net.url;
    data = net.facts.urls.data;
    ctx = await Context.getContextFromURI(url);
    pApi = new pvm.PVMApi(url);
    xApi = new avm.AVMApi(url);
    sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });

    // X-chain: three transfers, each in its own block.
    for (const amount of [1_000_000_000n, 300_000_000n, 40_000_000n]) {
      const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
      const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
        TransferableOutput.fromNative(ctx.avaxAssetID, amount, [recipient]),
      ]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
      await waitAccepted(url, txID);
      xTxs.push(txID);
    }
    // P-chain: a validator with a delegator (rewards pending), and a subnet converted to an L1.
    const now = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    const key = blsKey('pn-blocks-validator');
    validatorTx = await signAndIssue(
      pApi,
      pvm.newAddPermissionlessValidatorTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          nodeId: validatorNode,
          subnetId: ctx.pBlockchainID,
          start: now,
          end: now + 7200n,
          weight: 2_000n * AVAX,
          rewardAddresses: [EWOQ_ADDR],
          delegatorRewardsOwner: [EWOQ_ADDR],
          shares: 100_000,
          publicKey: key.publicKey,
          signature: key.pop,
        },
        ctx,
      ),
    );
    delegatorTx = await signAndIssue(
      pApi,
      pvm.newAddPermissionlessDelegatorTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          nodeId: validatorNode,
          subnetId: ctx.pBlockchainID,
          start: now,
          end: now + 7000n,
          weight: 500n * AVAX,
          rewardAddresses: [delegatorOwner],
        },
        ctx,
      ),
    );
    subnetId = await signAndIssue(
      pApi,
      pvm.newCreateSubnetTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          subnetOwners: [EWOQ_ADDR],
        },
        ctx,
      ),
    );
    const chainId = await signAndIssue(
      pApi,
      pvm.newCreateChainTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          chainName: 'pn blocks evm',
          subnetId,
          subnetAuth: [0],
          vmId: SUBNET_EVM_VM,
          fxIds: [],
          genesisData: { config: { chainId: 99998 }, alloc: {}, gasLimit: '0xe4e1c0', difficulty: '0x0' },
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    const l1Keys = [blsKey('pn-blocks-l1-0'), blsKey('pn-blocks-l1-1'), blsKey('pn-blocks-l1-2')];
    await signAndIssue(
      pApi,
      pvm.newConvertSubnetToL1Tx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          subnetId,
          chainId,
          address: utils.hexToBuffer('0x' + 'cd'.repeat(20)),
          subnetAuth: [0],
          validators: l1Keys.map((k, i) =>
            L1Validator.fromNative(
              i === 0 ? l1Node : testNodeId(73 + i),
              100n + BigInt(i),
              1n * AVAX,
              new pvmSerial.ProofOfPossession(k.publicKey, k.pop),
              PChainOwner.fromNative([EWOQ_ADDR], 1),
              PChainOwner.fromNative([EWOQ_ADDR], 1),
            ),
          ),
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    await indexed();
  });
  after(async () => {
    await net?.stop();
  });

  for (const chain of ['p-chain', 'x-chain'] as const) {
    it(`lists every ${chain} block newest first as the node's index holds them, each exactly once`, async () => {
      const alias = chain === 'p-chain' ? 'P' : 'X';
      const last = await call(`${url}/ext/index/${alias}/block`, 'index.getLastAccepted', {
        encoding: 'hex',
      });
      const count = Number(last.index) + 1;
      const containers: any[] = (
        await call(`${url}/ext/index/${alias}/block`, 'index.getContainerRange', {
          startIndex: 0,
          numToFetch: count,
          encoding: 'hex',
        })
      ).containers;
      const walked = await collect<any>(
        await sdk.data.primaryNetwork.blocks.listLatest({ blockchainId: chain, pageSize: 2 }, at()),
        'blocks',
      );
      // The genesis block is not indexed (as on the reference node); the platform lists it too.
      assert.equal(walked.items.length, count + 1);
      assert.equal(walked.pages, Math.ceil((count + 1) / 2));
      assert.equal(new Set(walked.items.map((b) => b.blockHash)).size, count + 1);
      // Containers are proposervm blocks; blockHash is the inner block's id.
      const inner = (c: any) => {
        try {
          return unwrapContainer(c.bytes);
        } catch {
          return undefined;
        }
      };
      const byId = new Map(
        containers.map((c) => {
          const w = inner(c);
          return [
            w?.innerId ?? c.id,
            { ...c, size: w ? w.inner.length : utils.hexToBuffer(c.bytes).length - 4 },
          ];
        }),
      );
      const heights = walked.items.map((b) => Number(b.blockNumber));
      assert.deepEqual(
        heights,
        Array.from({ length: count + 1 }, (_, i) => count - i),
      );
      const method = chain === 'p-chain' ? 'platform.getBlockByHeight' : 'avm.getBlockByHeight';
      const endpoint = `${url}/ext/bc/${alias}`;
      const genesis = await call(endpoint, method, { height: 0, encoding: 'json' });
      const genesisHex = await call(endpoint, method, { height: 0, encoding: 'hex' });
      byId.set(genesis.block.id, { size: utils.hexToBuffer(genesisHex.block).length - 4 });
      for (const b of walked.items) {
        const c = byId.get(b.blockHash);
        assert.ok(c, `block ${b.blockHash} is in the node's index`);
        assert.equal(b.blockSizeBytes, c.size);
        const json = (await call(endpoint, method, { height: b.blockNumber, encoding: 'json' })).block;
        assert.equal(json.id ?? b.blockHash, b.blockHash);
        assert.equal(json.parentID, b.parentHash);
        assert.equal(String(json.height), b.blockNumber);
        const txs: any[] = json.txs ?? (json.tx ? [json.tx] : []);
        assert.equal(b.txCount, txs.length);
        assert.equal(b.transactions.length, b.txCount);
        // Every block but an Apricot P-chain block (which has no time of its own) carries its time.
        if (!b.blockType.startsWith('Apricot'))
          assert.equal(b.blockTimestamp, Number(json.time), b.blockType);
        assert.match(b.blockType, chain === 'x-chain' ? /^StandardBlock$/ : /^(Banff|Apricot)\w+Block$/);
      }
      if (chain === 'x-chain')
        for (const tx of xTxs)
          assert.equal(walked.items.filter((b) => b.transactions.includes(tx)).length, 1);
      else
        for (const tx of [validatorTx, delegatorTx, subnetId])
          assert.equal(walked.items.filter((b) => b.transactions.includes(tx)).length, 1);

      // One block by height and by id, as listed.
      const newest = walked.items[0];
      const byHeight = await sdk.data.primaryNetwork.blocks.get(
        { blockchainId: chain, blockId: newest.blockNumber },
        at(),
      );
      assert.deepEqual(byHeight, newest);
      const byHash = await sdk.data.primaryNetwork.blocks.get(
        { blockchainId: chain, blockId: newest.blockHash },
        at(),
      );
      assert.deepEqual(byHash, newest);

      // A time window keeps the blocks inside it, newest first.
      const mid = walked.items[Math.floor(walked.items.length / 2)].blockTimestamp;
      const windowed = await collect<any>(
        await sdk.data.primaryNetwork.blocks.listLatest(
          { blockchainId: chain, startTimestamp: mid, endTimestamp: mid + 1_000_000, pageSize: 1 },
          at(),
        ),
        'blocks',
      );
      assert.deepEqual(
        windowed.items.map((b) => b.blockHash),
        walked.items.filter((b) => b.blockTimestamp >= mid).map((b) => b.blockHash),
      );

      // The node proposes without a proposervm: no block names a proposer.
      const proposed = await sdk.data.primaryNetwork.blocks.listByNodeId(
        { blockchainId: chain, nodeId: validatorNode },
        at(),
      );
      assert.deepEqual(proposed.result.blocks, []);
      assert.deepEqual(proposed.result.chainInfo, { chainName: chain, network: 'fuji' });
    });
  }

  it('answers the X-chain vertex routes as for a chain without vertices', async () => {
    const list = await sdk.data.primaryNetwork.vertices.listLatest({ blockchainId: 'x-chain' }, at());
    assert.deepEqual(list.result.vertices, []);
    assert.equal(list.result.nextPageToken, undefined);
    const atHeight = await sdk.data.primaryNetwork.vertices.listByHeight(
      { blockchainId: 'x-chain', vertexHeight: 0 },
      at(),
    );
    assert.deepEqual(atHeight.result.vertices, []);
    await assert.rejects(
      sdk.data.primaryNetwork.vertices.getByHash({ blockchainId: 'x-chain', vertexHash: xTxs[0] }, at()),
      (err: any) => err.statusCode === 404,
    );
    const pChain = await fetch(`${data}/v1/networks/fuji/blockchains/p-chain/vertices`);
    assert.equal(pChain.status, 400);
  });

  it('reports network details as platform.getCurrentValidators counts them', async () => {
    const details = await sdk.data.primaryNetwork.getNetworkDetails({}, at());
    const current = (await pApi.getCurrentValidators()).validators as any[];
    const sum = (values: (string | number | bigint)[]) => values.reduce<bigint>((s, v) => s + BigInt(v), 0n);
    assert.equal(details.validatorDetails.validatorCount, current.length);
    assert.equal(details.validatorDetails.totalAmountStaked, sum(current.map((v) => v.weight)).toString());
    assert.equal(details.delegatorDetails.delegatorCount, Number(sum(current.map((v) => v.delegatorCount))));
    assert.equal(
      details.delegatorDetails.totalAmountStaked,
      sum(current.map((v) => v.delegatorWeight)).toString(),
    );
    // With node ids the node lists each validator's delegators and their potential rewards.
    const named = (await pApi.getCurrentValidators({ nodeIDs: current.map((v) => v.nodeID) }))
      .validators as any[];
    const potential = sum(
      named.flatMap((v) => [
        v.potentialReward ?? 0,
        ...(v.delegators ?? []).map((d: any) => d.potentialReward),
      ]),
    );
    assert.equal(details.validatorDetails.estimatedAnnualStakingReward, potential.toString());
    assert.ok(potential > 0n);
    const validators = current.length;
    const byVersion = details.validatorDetails.stakingDistributionByVersion;
    assert.equal(
      byVersion.reduce((s, v) => s + v.validatorCount, 0),
      validators,
    );
    const version = (await call(`${url}/ext/info`, 'info.getNodeVersion', {})).version;
    assert.ok(byVersion.some((v) => v.version === version));
    assert.ok(Number(details.validatorDetails.stakingRatio) > 0);
  });

  it('maps addresses to the chains they touched and reports their last activity', async () => {
    const listed = await sdk.data.primaryNetwork.getChainIdsForAddresses(
      { addresses: [EWOQ_X, fmt('X', recipient), bare(unused)].join(',') },
      at(),
    );
    assert.deepEqual(listed.addresses, [
      { address: bare(EWOQ_ADDR), blockchainIds: [ctx.pBlockchainID, ctx.xBlockchainID] },
      { address: bare(recipient), blockchainIds: [ctx.xBlockchainID] },
      { address: bare(unused), blockchainIds: [] },
    ]);

    // The recipient's newest activity is the last transfer's output; EWOQ's the last tx's spend.
    const last = xTxs[xTxs.length - 1];
    const tx = await call(`${url}/ext/bc/X`, 'avm.getTx', { txID: last, encoding: 'json' });
    assert.ok(tx);
    const recv = await sdk.data.primaryNetwork.utxos.getLastActivityTimestampByAddresses(
      { blockchainId: 'x-chain', addresses: fmt('X', recipient) },
      at(),
    );
    assert.equal(recv.txHash, last);
    assert.equal(recv.isConsumed, false);
    assert.equal(recv.chainName, 'x-chain');
    assert.equal(recv.network, 'fuji');
    const block = await sdk.data.primaryNetwork.blocks.get(
      { blockchainId: 'x-chain', blockId: recv.blockNumber },
      at(),
    );
    assert.ok(block.transactions.includes(last));
    assert.equal(recv.timestamp, block.blockTimestamp);

    const ewoq = await sdk.data.primaryNetwork.utxos.getLastActivityTimestampByAddressesV2(
      { blockchainId: 'p-chain', primaryNetworkAddressesBodyDto: { addresses: EWOQ_P } },
      at(),
    );
    const pBlocks = await collect<any>(
      await sdk.data.primaryNetwork.blocks.listLatest({ blockchainId: 'p-chain', pageSize: 100 }, at()),
      'blocks',
    );
    const newestWithTx = pBlocks.items.find((b) => b.txCount > 0);
    assert.equal(ewoq.blockNumber, newestWithTx.blockNumber);
    assert.ok(newestWithTx.transactions.includes(ewoq.txHash));
    assert.equal(ewoq.timestamp, newestWithTx.blockTimestamp);

    await assert.rejects(
      sdk.data.primaryNetwork.utxos.getLastActivityTimestampByAddresses(
        { blockchainId: 'p-chain', addresses: bare(unused) },
        at(),
      ),
      (err: any) => err.statusCode === 404,
    );
  });

  it('lists pending rewards by node and by address with the node’s potential rewards, walked with tokens', async () => {
    const live = (await pApi.getCurrentValidators({ nodeIDs: [validatorNode] })).validators[0] as any;
    const byNode = await collect<any>(
      await sdk.data.primaryNetwork.rewards.listPendingRewards({ nodeIds: validatorNode, pageSize: 1 }, at()),
      'pendingRewards',
    );
    assert.deepEqual(
      byNode.items.map((r) => [r.txHash, r.rewardType]),
      [
        [validatorTx, 'VALIDATOR'],
        [delegatorTx, 'DELEGATOR'],
      ],
    );
    assert.equal(byNode.pages, 2);
    assert.equal(byNode.items[0].estimatedReward.amount, String(live.potentialReward));
    assert.equal(byNode.items[0].estimatedReward.assetId, ctx.avaxAssetID);
    assert.equal(byNode.items[1].estimatedReward.amount, String(live.delegators[0].potentialReward));
    assert.equal(byNode.items[0].amountStaked, String(2_000n * AVAX));
    assert.ok(byNode.items[0].progress >= 0 && byNode.items[0].progress <= 100);

    const desc = await sdk.data.primaryNetwork.rewards.listPendingRewards(
      { nodeIds: validatorNode, sortOrder: 'desc' },
      at(),
    );
    assert.deepEqual(
      desc.result.pendingRewards.map((r) => r.txHash),
      [delegatorTx, validatorTx],
    );
    const byAddress = await collect<any>(
      await sdk.data.primaryNetwork.rewards.listPendingRewards({ addresses: fmt('P', delegatorOwner) }, at()),
      'pendingRewards',
    );
    assert.deepEqual(
      byAddress.items.map((r) => r.txHash),
      [delegatorTx],
    );
    assert.deepEqual(byAddress.items[0].addresses, [bare(delegatorOwner)]);
  });

  it('lists the L1 validators as platform.getCurrentValidators of the L1 does, walked with tokens', async () => {
    const node = (await call(`${url}/ext/bc/P`, 'platform.getCurrentValidators', { subnetID: subnetId }))
      .validators as any[];
    assert.equal(node.length, 3);
    const walked = await collect<any>(
      await sdk.data.primaryNetwork.listL1Validators({ subnetId, pageSize: 2 }, at()),
      'validators',
    );
    assert.equal(walked.pages, 2);
    assert.deepEqual(walked.items.map((v) => v.validationId).sort(), node.map((v) => v.validationID).sort());
    for (const v of walked.items) {
      const n = node.find((x) => x.validationID === v.validationId);
      assert.equal(v.nodeId, n.nodeID);
      assert.equal(v.subnetId, subnetId);
      assert.equal(v.weight, Number(n.weight));
      assert.equal(v.remainingBalance, Number(n.balance));
      assert.equal(v.creationTimestamp, Number(n.startTime));
      assert.equal(
        v.validationIdHex,
        '0x' + Buffer.from(utils.base58check.decode(v.validationId)).toString('hex'),
      );
      assert.deepEqual(v.remainingBalanceOwner, { addresses: [bare(EWOQ_ADDR)], threshold: 1 });
    }
    const all = await collect<any>(
      await sdk.data.primaryNetwork.listL1Validators({ pageSize: 1 }, at()),
      'validators',
    );
    assert.equal(all.items.length, 3);
    const one = await sdk.data.primaryNetwork.listL1Validators({ nodeId: l1Node }, at());
    assert.deepEqual(
      one.result.validators.map((v) => v.nodeId),
      [l1Node],
    );
    const byId = await sdk.data.primaryNetwork.listL1Validators(
      { l1ValidationId: node[1].validationID },
      at(),
    );
    assert.deepEqual(
      byId.result.validators.map((v) => v.validationId),
      [node[1].validationID],
    );
    const height = (await pApi.getHeight()).height;
    assert.equal(Number(one.result.blockHeight), Number(height));
  });

  it('serves the AVAX supply from platform.getCurrentSupply and the live check', async () => {
    const supply = await sdk.avaxSupply.get(at());
    const node = BigInt((await call(`${url}/ext/bc/P`, 'platform.getCurrentSupply', {})).supply);
    // The node's supply counts the rewards its current stakers will earn: genesis is the rest.
    const p = `${url}/ext/bc/P`;
    const nodeIDs = (await call(p, 'platform.getCurrentValidators', {})).validators.map((v: any) => v.nodeID);
    let toCome = 0n;
    for (const v of (await call(p, 'platform.getCurrentValidators', { nodeIDs })).validators) {
      toCome += BigInt(v.potentialReward ?? 0) + BigInt(v.accruedDelegateeReward ?? 0);
      for (const d of v.delegators ?? []) toCome += BigInt(d.potentialReward);
    }
    const avax = (n: bigint) =>
      `${n / AVAX}${n % AVAX ? '.' + (n % AVAX).toString().padStart(9, '0').replace(/0+$/, '') : ''}`;
    const nano = (text: string) => {
      const [whole, frac = ''] = text.split('.');
      return BigInt(whole!) * AVAX + BigInt(frac.padEnd(9, '0').slice(0, 9));
    };
    assert.ok(toCome > 0n, 'the genesis validators have rewards to come');
    assert.equal(supply.genesisUnlock, avax(node - nano(supply.totalRewards) - toCome));
    const burned = nano(supply.totalPBurned) + nano(supply.totalXBurned) + nano(supply.totalCBurned);
    // Within a nAVAX: the C-chain's gas is counted in wei.
    const total = nano(supply.genesisUnlock) + nano(supply.totalRewards) - burned;
    assert.ok(nano(supply.totalSupply) - total <= 1n && total - nano(supply.totalSupply) <= 1n);
    assert.equal(supply.circulatingSupply, supply.totalSupply);
    assert.ok(supply.lastUpdated instanceof Date);
    const live = await sdk.data.liveCheck(at());
    assert.equal(live.status, 'ok');
  });

  it('refuses bad input with 400 in the error shape', async () => {
    const base = `${data}/v1/networks`;
    const first = (await (await fetch(`${base}/fuji/blockchains/p-chain/blocks?pageSize=1`)).json()) as any;
    const token: string = first.nextPageToken;
    assert.ok(token);
    const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA');
    const cases: [string, RequestInit?][] = [
      [`${base}/fuji/blockchains/p-chain/blocks?pageSize=0`],
      [`${base}/fuji/blockchains/p-chain/blocks?pageSize=101`],
      [`${base}/nowhere/blockchains/p-chain/blocks`],
      [`${base}/fuji/blockchains/q-chain/blocks`],
      [`${base}/fuji/blockchains/c-chain/blocks`],
      [`${base}/fuji/blockchains/p-chain/blocks?pageToken=${tampered}`],
      [`${base}/fuji/blockchains/x-chain/blocks?pageToken=${token}`],
      [`${base}/fuji/blockchains/p-chain/blocks?startTimestamp=-1`],
      [`${base}/fuji/blockchains/p-chain/blocks?startTimestamp=10&endTimestamp=5`],
      // Past 2^53 - 1 (and past PostgreSQL's bigint, a 500 there where SQLite compared it).
      [`${base}/fuji/blockchains/p-chain/blocks?endTimestamp=9223372036854775808`],
      [`${base}/fuji/blockchains/p-chain/nodes/${validatorNode}/blocks?startTimestamp=1e23`],
      [`${base}/fuji/blockchains/p-chain/blocks/not-a-block`],
      [`${base}/fuji/blockchains/p-chain/nodes/NodeID-nope/blocks`],
      [`${base}/fuji/blockchains/p-chain/nodes/${validatorNode}/blocks?pageSize=0`],
      [`${base}/fuji/blockchains/x-chain/vertices?pageSize=101`],
      [`${base}/fuji/blockchains/x-chain/vertices:listByHeight`],
      [`${base}/fuji/blockchains/x-chain/vertices/zzz`],
      [`${base}/nowhere`],
      [`${base}/fuji/addresses:listChainIds?addresses=fuji1nope`],
      [`${base}/fuji/addresses:listChainIds`],
      [`${base}/fuji/blockchains/p-chain/lastActivityTimestampByAddresses?addresses=avax1nope`],
      [`${base}/fuji/blockchains/p-chain/lastActivityTimestampByAddresses`],
      [
        `${base}/fuji/blockchains/p-chain/lastActivityTimestampByAddresses`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"addresses":5}' },
      ],
      [`${base}/fuji/rewards:listPending`],
      [`${base}/fuji/rewards:listPending?nodeIds=${validatorNode}&pageSize=0`],
      [`${base}/fuji/rewards:listPending?nodeIds=${validatorNode}&pageSize=101`],
      [`${base}/fuji/rewards:listPending?nodeIds=NodeID-bad`],
      [`${base}/fuji/rewards:listPending?nodeIds=${validatorNode}&pageToken=${token}`],
      [`${base}/fuji/l1Validators?pageSize=0`],
      [`${base}/fuji/l1Validators?pageSize=101`],
      [`${base}/fuji/l1Validators?nodeId=bad`],
      [`${base}/fuji/l1Validators?subnetId=bad`],
      [`${base}/fuji/l1Validators?pageToken=${tampered}`],
    ];
    for (const [path, init] of cases) {
      const res = await fetch(path, init);
      const body = (await res.json()) as any;
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.statusCode, 400, path);
      assert.equal(body.error, 'Bad Request', path);
      assert.equal(typeof body.message, 'string', path);
    }
    // A known network this service does not index, and unknown ids, are 404.
    assert.equal((await fetch(`${base}/mainnet/blockchains/x-chain/blocks`)).status, 404);
    assert.equal((await fetch(`${base}/fuji/blockchains/p-chain/blocks/99999999`)).status, 404);
    assert.equal((await fetch(`${base}/fuji/blockchains/x-chain/blocks/${validatorTx}`)).status, 404);
  });
});

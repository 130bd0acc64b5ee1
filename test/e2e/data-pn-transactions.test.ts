/**
 * The primary network's transaction routes of the chain-data service, read through
 * @avalanche-sdk/chainkit (zod-validated): P-chain (base, import, subnet and chain creation,
 * validator and delegator), X-chain (transfer, asset creation, export) and C-chain atomic txs
 * (import and export) made through the node with avalanchejs, then `…/transactions` walked to
 * the end on each chain, `…/transactions/{txHash}` and `…/transactions:listStaking` checked
 * against the node's own blocks, stakers and balances, and a bad-input table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import {
  addTxSignatures,
  avm,
  avmSerial,
  BigIntPr,
  Byte,
  Context,
  evm,
  Int,
  pvm,
  secp256k1,
  Stringpr,
  TransferableOutput,
  TransferOutput,
  utils,
} from '@avalabs/avalanchejs';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { storeArgs } from '../helpers/postgres.js';
import { collectPages } from './data-helpers.js';
import { blsKey, EWOQ_ADDR, EWOQ_KEY, signAndIssue, testNodeId } from './pchain-helpers.js';
import {
  amountOf,
  avaxBase,
  inputFrom,
  issue,
  owners,
  richestUtxo,
  secpOut,
  signWith,
  waitAccepted,
} from './xchain-helpers.js';

const AVAX = 1_000_000_000n;
const HRP = 'fuji';
const EWOQ_EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const SUBNET_EVM_VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const fmt = (chain: string, bytes: Uint8Array) => utils.format(chain, HRP, bytes);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Alias = 'p-chain' | 'x-chain' | 'c-chain';

describe('primary-network transactions in the chain-data service', () => {
  let net: Devnet;
  let url: string;
  let data: string;
  let ctx: Context.Context;
  let pApi: pvm.PVMApi;
  let xApi: avm.AVMApi;
  let evmApi: evm.EVMApi;
  let sdk: Avalanche;
  const at = () => ({ serverURL: data });
  const recipient = utils.hexToBuffer('0x' + '31'.repeat(20));
  const lockedOwner = utils.hexToBuffer('0x' + '33'.repeat(20));
  const EWOQ_X = fmt('X', EWOQ_ADDR);
  const EWOQ_P = fmt('P', EWOQ_ADDR);
  const feeState = () => pApi.getFeeState();
  const pUtxos = async () => (await pApi.getUTXOs({ addresses: [EWOQ_P] })).utxos;

  /** Every tx made, by chain, with what the test knows of it. */
  const made: Record<Alias, Map<string, { type: string }>> = {
    'p-chain': new Map(),
    'x-chain': new Map(),
    'c-chain': new Map(),
  };
  let assetId: string;
  let validatorTx: string;
  let delegatorTx: string;
  let stakeStart: bigint;
  const validatorNode = testNodeId(71);

  /** AVAX the txs burned as their builder made them (nAVAX), and the supply's genesis figure. */
  const burned = { p: 0n, cAtomic: 0n };
  let genesisUnlock: string;
  let lockedAtGenesis: string;
  /** AVAX a built X/P tx burns: inputs (own and imported) less outputs (own, exported, staked). */
  function avaxBurnOf(tx: any): bigint {
    const sum = (list: any[] | undefined) =>
      (list ?? [])
        .filter((x) => x.assetId.toString() === ctx.avaxAssetID)
        .reduce((total: bigint, x) => total + BigInt(x.amount()), 0n);
    return sum(tx.baseTx?.inputs) + sum(tx.ins) - sum(tx.baseTx?.outputs) - sum(tx.outs) - sum(tx.stake);
  }

  /** Builds a P-chain tx from the ewoq key's UTXOs, issues it and records it. */
  async function issueP<P>(
    type: string,
    build: (props: P, context: Context.Context) => Parameters<typeof signAndIssue>[1],
    props: Omit<P, 'feeState' | 'fromAddressesBytes' | 'utxos'> & { utxos?: unknown },
    authKey?: Uint8Array,
  ): Promise<string> {
    const full = {
      feeState: await feeState(),
      fromAddressesBytes: [EWOQ_ADDR],
      utxos: await pUtxos(),
      ...props,
    };
    const unsigned = build(full as P, ctx);
    burned.p += avaxBurnOf(unsigned.getTx());
    const txID = await signAndIssue(pApi, unsigned, [EWOQ_KEY], authKey);
    made['p-chain'].set(txID, { type });
    return txID;
  }

  /** Waits until the service serves every tx made so far. */
  async function served(): Promise<void> {
    for (const [chain, txs] of Object.entries(made))
      for (const txHash of txs.keys())
        for (let i = 0; ; i++) {
          const r = await fetch(`${data}/v1/networks/fuji/blockchains/${chain}/transactions/${txHash}`);
          if (r.status === 200) break;
          if (i > 400) throw new Error(`${chain} tx ${txHash} was not indexed`);
          await sleep(25);
        }
  }

  /** Walks a list through chainkit's page iterator; returns its txs and page count. */
  const walk = async (pages: AsyncIterable<any>) => {
    const { items, pages: count } = await collectPages<any>(pages, 'transactions');
    return { txs: items, pages: count };
  };

  const getTx = (blockchainId: Alias, txHash: string): Promise<any> =>
    sdk.data.primaryNetwork.transactions.get({ blockchainId, txHash }, at());

  const list = async (blockchainId: Alias, extra: Record<string, unknown> = {}) =>
    walk(
      await sdk.data.primaryNetwork.transactions.listLatest(
        { blockchainId, pageSize: 2, ...extra } as any,
        at(),
      ),
    );

  /** The node's block at a height, in json (P and X). */
  const nodeBlock = async (chain: 'P' | 'X', height: number) =>
    (
      await call(
        `${url}/ext/bc/${chain}`,
        chain === 'P' ? 'platform.getBlockByHeight' : 'avm.getBlockByHeight',
        {
          height: String(height),
          encoding: 'json',
        },
      )
    ).block;

  before(async () => {
    net = await startDevnet({
      args: ['--network', 'fuji', '--min-stake-duration', '60', ...(await storeArgs())],
    });
    url = net.url;
    data = net.facts.urls.data;
    ctx = await Context.getContextFromURI(url);
    pApi = new pvm.PVMApi(url);
    xApi = new avm.AVMApi(url);
    evmApi = new evm.EVMApi(url);
    sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
  });
  after(async () => {
    await net?.stop();
  });

  it('makes X-chain, C-chain atomic and P-chain activity through the node', async () => {
    ({ genesisUnlock, totalLocked: lockedAtGenesis } = await sdk.avaxSupply.get(at()));
    // X: a transfer, a new asset, an export of 5 AVAX to the C-chain.
    const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
    // With 1.5 AVAX to a third address, locked for a year (the supply's totalLocked).
    const year = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000) + 365 * 86_400);
    const send = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 3n * AVAX, [recipient]),
      TransferableOutput.fromNative(ctx.avaxAssetID, (3n * AVAX) / 2n, [lockedOwner], year),
    ]);
    await addTxSignatures({ unsignedTx: send, privateKeys: [EWOQ_KEY] });
    const xSend = (await xApi.issueSignedTx(send.getSignedTx())).txID;
    await waitAccepted(url, xSend);
    made['x-chain'].set(xSend, { type: 'BaseTx' });
    const rich = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const create = new avmSerial.CreateAssetTx(
      avaxBase(
        ctx,
        [secpOut(ctx.avaxAssetID, amountOf(rich) - ctx.createAssetTxFee, [EWOQ_ADDR])],
        [inputFrom(rich)],
      ),
      new Stringpr('Transaction Token'),
      new Stringpr('TXT'),
      new Byte(new Uint8Array([3])),
      [
        new avmSerial.InitialState(new Int(0), [
          new TransferOutput(new BigIntPr(5_000n), owners([EWOQ_ADDR])),
        ]),
      ],
    );
    assetId = await issue(url, await signWith(create, ['secp']));
    await waitAccepted(url, assetId);
    made['x-chain'].set(assetId, { type: 'CreateAssetTx' });
    const exportX = avm.newExportTx(
      ctx,
      ctx.cBlockchainID,
      [EWOQ_ADDR],
      (await xApi.getUTXOs({ addresses: [EWOQ_X] })).utxos,
      [TransferableOutput.fromNative(ctx.avaxAssetID, 5n * AVAX, [EWOQ_ADDR])],
    );
    await addTxSignatures({ unsignedTx: exportX, privateKeys: [EWOQ_KEY] });
    const xExport = (await xApi.issueSignedTx(exportX.getSignedTx())).txID;
    await waitAccepted(url, xExport);
    made['x-chain'].set(xExport, { type: 'ExportTx' });

    // C: import the 5 AVAX, then export 2 AVAX to the P-chain.
    const baseFee = async () => ((await evmApi.getBaseFee()) + 999_999_999n) / 1_000_000_000n;
    const atomic = await evmApi.getUTXOs({ addresses: [fmt('C', EWOQ_ADDR)], sourceChain: 'X' });
    const importC = evm.newImportTxFromBaseFee(
      ctx,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_ADDR],
      atomic.utxos,
      ctx.xBlockchainID,
      await baseFee(),
    );
    const evmSum = (list: any[]) => list.reduce((t: bigint, x) => t + BigInt(x.amount.value()), 0n);
    const atomicSum = (list: any[]) => list.reduce((t: bigint, x) => t + BigInt(x.amount()), 0n);
    const imported: any = importC.getTx();
    burned.cAtomic += atomicSum(imported.importedInputs) - evmSum(imported.Outs);
    await addTxSignatures({ unsignedTx: importC, privateKeys: [EWOQ_KEY] });
    const cImport = (await evmApi.issueSignedTx(importC.getSignedTx())).txID;
    const accepted = async (txID: string) => {
      for (let i = 0; i < 200; i++) {
        if ((await evmApi.getAtomicTxStatus(txID)).status === 'Accepted') return;
        await sleep(25);
      }
      throw new Error(`C-chain atomic tx ${txID} not accepted`);
    };
    await accepted(cImport);
    made['c-chain'].set(cImport, { type: 'ImportTx' });
    const nonce = BigInt(await call(`${url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']));
    const exportC = evm.newExportTxFromBaseFee(
      ctx,
      await baseFee(),
      2n * AVAX,
      ctx.pBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_ADDR],
      nonce,
    );
    const exported: any = exportC.getTx();
    burned.cAtomic += evmSum(exported.ins) - atomicSum(exported.exportedOutputs);
    await addTxSignatures({ unsignedTx: exportC, privateKeys: [EWOQ_KEY] });
    const cExport = (await evmApi.issueSignedTx(exportC.getSignedTx())).txID;
    await accepted(cExport);
    made['c-chain'].set(cExport, { type: 'ExportTx' });

    // P: import the 2 AVAX, a transfer, a subnet and its chain, a validator and a delegator.
    await issueP('ImportTx', pvm.newImportTx, {
      utxos: (await pApi.getUTXOs({ addresses: [EWOQ_P], sourceChain: 'C' })).utxos,
      sourceChainId: ctx.cBlockchainID,
      toAddressesBytes: [EWOQ_ADDR],
    });
    await issueP('BaseTx', pvm.newBaseTx, {
      outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 7n * AVAX, [recipient])],
    });
    const subnetId = await issueP('CreateSubnetTx', pvm.newCreateSubnetTx, {
      subnetOwners: [EWOQ_ADDR],
    });
    await issueP(
      'CreateChainTx',
      pvm.newCreateChainTx,
      {
        chainName: 'tx list chain',
        subnetId,
        subnetAuth: [0],
        vmId: SUBNET_EVM_VM,
        fxIds: [],
        genesisData: { config: { chainId: 77777 }, alloc: {}, gasLimit: '0xe4e1c0', difficulty: '0x0' },
      },
      EWOQ_KEY,
    );
    stakeStart = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    const key = blsKey('pn-transactions-validator');
    validatorTx = await issueP('AddPermissionlessValidatorTx', pvm.newAddPermissionlessValidatorTx, {
      nodeId: validatorNode,
      subnetId: ctx.pBlockchainID,
      start: stakeStart,
      end: stakeStart + 3600n,
      weight: 2_000n * AVAX,
      rewardAddresses: [EWOQ_ADDR],
      delegatorRewardsOwner: [EWOQ_ADDR],
      shares: 50_000,
      publicKey: key.publicKey,
      signature: key.pop,
    });
    delegatorTx = await issueP('AddPermissionlessDelegatorTx', pvm.newAddPermissionlessDelegatorTx, {
      nodeId: validatorNode,
      subnetId: ctx.pBlockchainID,
      start: stakeStart,
      end: stakeStart + 3000n,
      weight: 500n * AVAX,
      rewardAddresses: [recipient],
    });
    await served();
  });

  it('serves each tx by hash as the node has it: type, block, time, amounts', async () => {
    for (const chain of ['p-chain', 'x-chain'] as const) {
      for (const [txHash, { type }] of made[chain]) {
        const tx = await getTx(chain, txHash);
        assert.equal(tx.txHash, txHash);
        assert.equal(tx.txType, type);
        const height = chain === 'p-chain' ? Number(tx.blockNumber) : tx.blockHeight;
        const block = await nodeBlock(chain === 'p-chain' ? 'P' : 'X', height);
        assert.equal(tx.blockHash, block.id, `${type} is in the node's block at ${height}`);
        assert.ok(
          (block.txs as any[]).some((t) => (t.id ?? t) === txHash),
          `the node's block at ${height} holds ${type} ${txHash}`,
        );
        const time = chain === 'p-chain' ? tx.blockTimestamp : tx.timestamp;
        assert.equal(time, Number(block.time), `${type} time`);
      }
    }
    // X: the transfer's output to the recipient, the new asset, the export's destination.
    const xSend: any = await getTx('x-chain', [...made['x-chain'].keys()][0]);
    const toRecipient = xSend.emittedUtxos.find((u: any) =>
      u.addresses.includes(utils.formatBech32(HRP, recipient)),
    );
    assert.equal(toRecipient.asset.amount, String(3n * AVAX));
    assert.equal(xSend.chainFormat, 'linear');
    const created: any = await getTx('x-chain', assetId);
    assert.equal(created.assetCreated.symbol, 'TXT');
    assert.equal(created.assetCreated.denomination, 3);
    const [, , xExport] = [...made['x-chain'].keys()];
    const exported: any = await getTx('x-chain', xExport);
    assert.equal(exported.destinationChain, ctx.cBlockchainID);
    assert.ok(
      exported.emittedUtxos.some(
        (u: any) => u.consumedOnChainId === ctx.cBlockchainID && u.asset.amount === String(5n * AVAX),
      ),
    );

    // C: the import's EVM output and consumed X output; the export's EVM input and P output.
    const [cImport, cExport] = [...made['c-chain'].keys()];
    const imp: any = await getTx('c-chain', cImport);
    assert.equal(imp.txType, 'ImportTx');
    assert.equal(imp.sourceChain, ctx.xBlockchainID);
    assert.equal(imp.destinationChain, ctx.cBlockchainID);
    assert.equal(imp.consumedUtxos.length, 1);
    assert.equal(imp.consumedUtxos[0].creationTxHash, xExport);
    assert.equal(imp.consumedUtxos[0].consumingTxHash, cImport);
    assert.equal(imp.evmOutputs[0].toAddress, EWOQ_EVM);
    const fee = 5n * AVAX - BigInt(imp.evmOutputs[0].asset.amount);
    assert.ok(fee > 0n && fee < AVAX / 10n, `import fee ${fee}`);
    const nodeImport = await call(`${url}/ext/bc/C/avax`, 'avax.getAtomicTx', {
      txID: cImport,
      encoding: 'hex',
    });
    assert.equal(imp.blockHeight, Number(nodeImport.blockHeight));
    const cBlock = await call(`${url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', [
      '0x' + imp.blockHeight.toString(16),
      false,
    ]);
    assert.equal(imp.blockHash, cBlock.hash);
    assert.equal(imp.timestamp, Number(BigInt(cBlock.timestamp)));
    const exp: any = await getTx('c-chain', cExport);
    assert.equal(exp.txType, 'ExportTx');
    assert.equal(exp.destinationChain, ctx.pBlockchainID);
    assert.equal(exp.evmInputs[0].fromAddress, EWOQ_EVM);
    assert.equal(exp.evmInputs[0].credentials.length, 1);
    assert.equal(exp.emittedUtxos[0].asset.amount, String(2n * AVAX));
    assert.ok(BigInt(exp.evmInputs[0].asset.amount) > 2n * AVAX, 'the input pays the fee too');

    // P: the import consumed C's export; the transfer paid the recipient; staking details.
    const [pImport, pBase, subnetId, chainId] = [...made['p-chain'].keys()];
    const pImp: any = await getTx('p-chain', pImport);
    assert.deepEqual(
      pImp.consumedUtxos.map((u: any) => u.txHash),
      [cExport],
    );
    assert.equal(pImp.sourceChain, ctx.cBlockchainID);
    const base: any = await getTx('p-chain', pBase);
    assert.ok(
      base.emittedUtxos.some(
        (u: any) =>
          u.amount === String(7n * AVAX) && u.addresses.includes(utils.formatBech32(HRP, recipient)),
      ),
    );
    assert.equal(base.amountBurned.length, 1, 'the fee');
    const unlocked = base.consumedUtxos.reduce((s: bigint, u: any) => s + BigInt(u.amount), 0n);
    const emitted = base.emittedUtxos.reduce((s: bigint, u: any) => s + BigInt(u.amount), 0n);
    assert.equal(BigInt(base.amountBurned[0].amount), unlocked - emitted);
    const subnet: any = await getTx('p-chain', subnetId);
    assert.equal(subnet.subnetId, subnetId);
    assert.deepEqual(subnet.subnetOwnershipInfo.addresses, [utils.formatBech32(HRP, EWOQ_ADDR)]);
    const chain: any = await getTx('p-chain', chainId);
    assert.equal(chain.subnetId, subnetId);
    assert.equal(chain.blockchainInfo.chainName, 'tx list chain');
    assert.equal(chain.blockchainInfo.vmId, SUBNET_EVM_VM);
    const live = (await pApi.getCurrentValidators({ nodeIDs: [validatorNode] })).validators[0] as any;
    const v: any = await getTx('p-chain', validatorTx);
    assert.equal(v.nodeId, validatorNode);
    assert.equal(v.subnetId, ctx.pBlockchainID);
    assert.deepEqual(
      v.amountStaked.map((a: any) => a.amount),
      [String(2_000n * AVAX)],
    );
    assert.equal(v.startTimestamp, Number(live.startTime));
    assert.equal(v.endTimestamp, Number(live.endTime));
    assert.equal(v.delegationFeePercent, '5');
    assert.ok(v.blsCredentials.publicKey.startsWith('0x'));
    assert.ok(v.emittedUtxos.some((u: any) => u.utxoType === 'STAKE' && u.staked === true));
  });

  it('walks each chain to the end with page tokens, each tx once, in time order both ways', async () => {
    for (const chain of ['p-chain', 'x-chain', 'c-chain'] as const) {
      const down = await list(chain);
      const hashes = down.txs.map((t) => t.txHash);
      assert.equal(new Set(hashes).size, hashes.length, `${chain}: each tx once`);
      for (const txHash of made[chain].keys()) assert.ok(hashes.includes(txHash), `${chain} lists ${txHash}`);
      assert.equal(down.pages, Math.max(1, Math.ceil(hashes.length / 2)));
      const time = (t: any) => t.blockTimestamp ?? t.timestamp;
      for (let i = 1; i < down.txs.length; i++)
        assert.ok(time(down.txs[i - 1]) >= time(down.txs[i]), 'newest first');
      const up = await list(chain, { sortOrder: 'asc' });
      assert.deepEqual(
        up.txs.map((t) => t.txHash),
        [...hashes].reverse(),
      );
    }
    // Exactly the txs of the node's P-chain blocks (genesis validators are in no block).
    const height = Number((await pApi.getHeight()).height);
    const nodeTxs: string[] = [];
    for (let h = 1; h <= height; h++)
      for (const t of (await nodeBlock('P', h)).txs ?? []) nodeTxs.push(t.id ?? t);
    assert.deepEqual(new Set((await list('p-chain')).txs.map((t) => t.txHash)), new Set(nodeTxs));

    // Filters: addresses (0x on the C-chain), txTypes, a time window.
    const c = await list('c-chain', { addresses: EWOQ_EVM });
    assert.deepEqual(new Set(c.txs.map((t) => t.txHash)), new Set(made['c-chain'].keys()));
    const toRecipient = await list('p-chain', { addresses: fmt('P', recipient) });
    assert.deepEqual(
      toRecipient.txs.map((t) => t.txHash),
      [[...made['p-chain'].keys()][1]],
      'the transfer to the recipient (the delegation only names it as reward owner)',
    );
    const staking = await list('p-chain', {
      txTypes: ['AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx'],
      addresses: EWOQ_P,
    });
    assert.deepEqual(
      staking.txs.map((t) => t.txHash),
      [delegatorTx, validatorTx],
    );
    const first: any = (await list('x-chain', { sortOrder: 'asc' })).txs.find((t) => t.txHash === assetId);
    const window = await list('x-chain', { startTimestamp: first.timestamp, endTimestamp: first.timestamp });
    assert.ok(window.txs.every((t) => t.timestamp === first.timestamp));
    assert.ok(window.txs.some((t) => t.txHash === assetId));
  });

  it('lists the open staking transactions of the P-chain', async () => {
    const all = await walk(
      await sdk.data.primaryNetwork.transactions.listActiveStakingTransactions(
        { blockchainId: 'p-chain', pageSize: 1 },
        at(),
      ),
    );
    assert.deepEqual(
      all.txs.map((t) => t.txHash),
      [delegatorTx, validatorTx],
    );
    assert.equal(all.pages, 2);
    const mine = await walk(
      await sdk.data.primaryNetwork.transactions.listActiveStakingTransactions(
        { blockchainId: 'p-chain', addresses: fmt('P', recipient), sortOrder: 'asc' },
        at(),
      ),
    );
    assert.deepEqual(
      mine.txs.map((t) => t.txHash),
      [delegatorTx],
    );
    const live = (await pApi.getCurrentValidators({ nodeIDs: [validatorNode] })).validators[0] as any;
    const v = all.txs.find((t) => t.txHash === validatorTx);
    assert.equal(v.estimatedReward, String(live.potentialReward));
    assert.equal(v.endTimestamp, Number(stakeStart + 3600n));
  });

  it('shows the reward of an ended delegation as a RewardValidatorTx and drops it from the staking list', async () => {
    const chainNow = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: Number(stakeStart + 3010n - chainNow) });
    const paid = (await pApi.getRewardUTXOs({ txID: delegatorTx })).utxos as any[];
    assert.ok(paid.length > 0, 'the node paid the delegator');
    let reward: any;
    for (let i = 0; i < 400 && !reward; i++) {
      const rewards = await list('p-chain', { txTypes: ['RewardValidatorTx'] });
      reward = rewards.txs.find((t) => t.stakingTxHash === delegatorTx);
      if (!reward) await sleep(25);
    }
    assert.ok(reward, 'the RewardValidatorTx is listed');
    // At the proposal block that holds it (the block it is included in, whose time the commit
    // child repeats), not at that commit: by the list and by its hash.
    const holder = (
      await call(`${url}/ext/bc/P`, 'platform.getBlockByHeight', {
        height: reward.blockNumber,
        encoding: 'json',
      })
    ).block;
    assert.equal(holder.tx?.id, reward.txHash);
    const byHash: any = await getTx('p-chain', reward.txHash);
    for (const found of [reward, byHash])
      assert.deepEqual(
        [found.blockNumber, found.blockHash, found.blockTimestamp],
        [String(holder.height), holder.id, Number(holder.time)],
      );
    assert.deepEqual(
      reward.emittedUtxos.map((u: any) => [u.amount, u.rewardType, u.txHash]),
      paid.map((u) => [String(u.output.amount()), 'DELEGATOR', delegatorTx]),
    );
    const staking: any = await getTx('p-chain', delegatorTx);
    assert.equal(staking.rewardTxHash, reward.txHash);
    const open = await walk(
      await sdk.data.primaryNetwork.transactions.listActiveStakingTransactions(
        { blockchainId: 'p-chain' },
        at(),
      ),
    );
    assert.deepEqual(
      open.txs.map((t) => t.txHash),
      [validatorTx],
    );
  });

  it("counts each chain's burned AVAX in the supply, genesis unchanged by staking and rewards", async () => {
    let supply = await sdk.avaxSupply.get(at());
    for (let i = 0; i < 400 && supply.totalRewards === '0'; i++) {
      await sleep(25);
      supply = await sdk.avaxSupply.get(at());
    }
    /** A decimal AVAX text in wei, exactly. */
    const wei = (text: string) => {
      const [whole, frac = ''] = text.split('.');
      return BigInt(whole!) * 10n ** 18n + BigInt(frac.padEnd(18, '0'));
    };
    const NANO = 10n ** 9n;
    // X: the node's fixed fees, two plain txs and one asset creation.
    assert.equal(wei(supply.totalXBurned), (2n * ctx.baseTxFee + ctx.createAssetTxFee) * NANO);
    // P: what the builder left unspent of each tx (no L1 here, so no validator fees).
    assert.ok(burned.p > 0n);
    assert.equal(wei(supply.totalPBurned), burned.p * NANO);
    assert.equal(supply.l1ValidatorFees, '0');
    // C: the atomic txs' fees and every EVM tx's gas, from the node's receipts.
    const latest = Number(await call(`${url}/ext/bc/C/rpc`, 'eth_blockNumber', []));
    let gas = 0n;
    for (let n = 1; n <= latest; n++)
      for (const r of await call(`${url}/ext/bc/C/rpc`, 'eth_getBlockReceipts', ['0x' + n.toString(16)]))
        gas += BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
    assert.ok(burned.cAtomic > 0n);
    assert.equal(wei(supply.totalCBurned), burned.cAtomic * NANO + gas);
    // Staking added potential rewards to the P-chain's supply and a reward was paid: what
    // genesis created is the same, and the total is genesis plus rewards less what burned.
    assert.ok(wei(supply.totalRewards) > 0n);
    assert.equal(supply.genesisUnlock, genesisUnlock);
    assert.equal(
      wei(supply.totalSupply),
      wei(supply.genesisUnlock) +
        wei(supply.totalRewards) -
        wei(supply.totalPBurned) -
        wei(supply.totalXBurned) -
        wei(supply.totalCBurned),
    );
    assert.equal(supply.circulatingSupply, supply.totalSupply);
    // Locked: what genesis locked, and the year-locked X output (still locked after the hour).
    assert.equal(wei(supply.totalLocked), wei(lockedAtGenesis) + (3n * AVAX * NANO) / 2n);
  });

  it('lists the outputs a tx consumed in the order of its inputs, on every store', async () => {
    // A fresh key gets four UTXOs, each from its own tx (so in creation order, which is not the
    // order of their ids), then spends them all in one tx: AvalancheGo takes inputs sorted by
    // UTXO id, and consumedUtxos follow them whatever order the store reads its rows in.
    const key = utils.hexToBuffer('0x' + '5a'.repeat(32));
    const addr = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key));
    for (let i = 1n; i <= 4n; i++) {
      const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
      const fund = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
        TransferableOutput.fromNative(ctx.avaxAssetID, i * 10_000_000n, [addr]),
      ]);
      await addTxSignatures({ unsignedTx: fund, privateKeys: [EWOQ_KEY] });
      await waitAccepted(url, (await xApi.issueSignedTx(fund.getSignedTx())).txID);
    }
    const { utxos } = await xApi.getUTXOs({ addresses: [fmt('X', addr)] });
    assert.equal(utxos.length, 4);
    const spend = avm.newBaseTx(ctx, [addr], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 100_000_000n - ctx.baseTxFee, [EWOQ_ADDR]),
    ]);
    await addTxSignatures({ unsignedTx: spend, privateKeys: [key] });
    const txHash = (await xApi.issueSignedTx(spend.getSignedTx())).txID;
    await waitAccepted(url, txHash);
    made['x-chain'].set(txHash, { type: 'BaseTx' });
    await served();

    const { tx: nodeTx } = await call(`${url}/ext/bc/X`, 'avm.getTx', { txID: txHash, encoding: 'json' });
    const inputAmounts = nodeTx.unsignedTx.inputs.map((i: any) => String(i.input.amount));
    assert.equal(inputAmounts.length, 4);
    const listed = await getTx('x-chain', txHash);
    assert.deepEqual(
      listed.consumedUtxos.map((u: any) => u.asset.amount),
      inputAmounts,
    );
  });

  it('answers bad input with 400 in the documented shape', async () => {
    const base = `${data}/v1/networks/fuji/blockchains`;
    const good = await (await fetch(`${base}/p-chain/transactions?pageSize=1`)).json();
    const token = (good as any).nextPageToken as string;
    assert.ok(token);
    const cases: [string, number][] = [
      ['/p-chain/transactions?pageSize=0', 400],
      ['/p-chain/transactions?pageSize=101', 400],
      ['/x-chain/transactions:listStaking', 400],
      ['/p-chain/transactions:listStaking?pageSize=0', 400],
      ['/p-chain/transactions?addresses=fuji1notanaddress', 400],
      ['/p-chain/transactions?addresses=0x1234', 400],
      ['/p-chain/transactions:listStaking?addresses=' + EWOQ_EVM, 400],
      ['/p-chain/transactions?txTypes=NotATx', 400],
      ['/p-chain/transactions?startTimestamp=20&endTimestamp=10', 400],
      // Past 2^53 - 1 (and past PostgreSQL's bigint, a 500 there where SQLite compared it).
      ['/p-chain/transactions?endTimestamp=9223372036854775808', 400],
      ['/p-chain/transactions?startTimestamp=1e23', 400],
      ['/p-chain/transactions:listStaking?endTimestamp=9223372036854775808', 400],
      ['/p-chain/transactions?pageToken=forged', 400],
      [`/p-chain/transactions?pageToken=${token.slice(0, -2)}xx`, 400],
      [`/x-chain/transactions?pageToken=${encodeURIComponent(token)}`, 400],
      [`/p-chain/transactions?sortOrder=asc&pageToken=${encodeURIComponent(token)}`, 400],
      ['/p-chain/transactions?l1ValidationId=abc', 400],
      ['/p-chain/transactions/zzz', 400],
      ['/q-chain/transactions', 400],
      [`/p-chain/transactions/${assetId}`, 404],
      [`/x-chain/transactions/${'1'.repeat(32)}`, 400],
    ];
    for (const [path, status] of cases) {
      const r = await fetch(base + path);
      assert.equal(r.status, status, path);
      const body = (await r.json()) as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'], path);
      assert.equal(body.statusCode, status, path);
    }
    for (const network of ['notanetwork', 'mainnet']) {
      const r = await fetch(`${data}/v1/networks/${network}/blockchains/p-chain/transactions`);
      assert.equal(r.status, network === 'mainnet' ? 404 : 400, network);
      assert.deepEqual(Object.keys((await r.json()) as any).sort(), ['error', 'message', 'statusCode']);
    }
    // Through chainkit: its typed errors.
    await assert.rejects(
      sdk.data.primaryNetwork.transactions.get({ blockchainId: 'p-chain', txHash: 'bad' }, at()),
      (err: any) => err.constructor.name === 'BadRequestError' && err.statusCode === 400,
    );
    await assert.rejects(
      sdk.data.primaryNetwork.transactions.get({ blockchainId: 'c-chain', txHash: validatorTx }, at()),
      (err: any) => err.constructor.name === 'NotFoundError' && err.statusCode === 404,
    );
    await assert.rejects(
      (async () =>
        sdk.data.primaryNetwork.transactions.listLatest(
          { blockchainId: 'x-chain', pageToken: 'forged' },
          at(),
        ))(),
      (err: any) => err.constructor.name === 'BadRequestError' && err.statusCode === 400,
    );
  });
});

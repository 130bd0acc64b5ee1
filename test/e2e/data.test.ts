/**
 * Issue 6 (primary network): `flurry start` indexes the X- and P-chains of its own node over
 * HTTP and serves them through the chain-data REST service. X transfers, an asset, a subnet with
 * a Subnet-EVM chain converted to an L1, a validator and a delegator paid after the devnet clock
 * passes their end, and an export/import — then every primary-network endpoint read through
 * @avalanche-sdk/chainkit (zod-validated) and @avalabs/glacier-sdk, checked against the node's
 * own answers, every list walked to the end with page tokens. data-postgres.test.ts runs the
 * suite again on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { Glacier } from '@avalabs/glacier-sdk';
import {
  addTxSignatures,
  avm,
  avmSerial,
  BigIntPr,
  Byte,
  Context,
  Int,
  L1Validator,
  PChainOwner,
  pvm,
  pvmSerial,
  Stringpr,
  TransferableOutput,
  TransferOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { storeArgs } from '../helpers/postgres.js';
import { collectPages, waitIndexed } from './data-helpers.js';
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
const SUBNET_EVM_VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const HRP = 'fuji';
const fmt = (chain: string, bytes: Uint8Array) => utils.format(chain, HRP, bytes);
const bare = (bytes: Uint8Array) => utils.formatBech32(HRP, bytes);

describe('chain-data service over the primary network', () => {
  let net: Devnet;
  let url: string;
  let data: string;
  let ctx: Context.Context;
  let pApi: pvm.PVMApi;
  let xApi: avm.AVMApi;
  let sdk: Avalanche;
  let glacier: Glacier;
  const at = () => ({ serverURL: data });
  const recipient = utils.hexToBuffer('0x' + '21'.repeat(20));
  const delegatorOwner = utils.hexToBuffer('0x' + '22'.repeat(20));
  const EWOQ_X = fmt('X', EWOQ_ADDR);
  const EWOQ_P = fmt('P', EWOQ_ADDR);

  const indexed = () => waitIndexed(url, data);
  const collect = collectPages;

  before(async () => {
    net = await startDevnet({
      args: ['--network', 'fuji', '--min-stake-duration', '60', ...(await storeArgs())],
    });
    url = net.url;
    data = net.facts.urls.data;
    assert.match(data, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(net.facts.urls.dataDocs, `${data}/docs`);
    // The metrics service's docs page, printed as the data service's is.
    const docs = await fetch(net.facts.urls.metricsDocs);
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get('content-type') ?? '', /text\/html/);
    ctx = await Context.getContextFromURI(url);
    pApi = new pvm.PVMApi(url);
    xApi = new avm.AVMApi(url);
    sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
    glacier = new Glacier({ BASE: data });
  });
  after(async () => {
    await net?.stop();
  });

  let assetId: string;
  it('indexes X-chain transfers and a new asset: UTXOs, asset transactions and balances match the node', async () => {
    for (const amount of [1_500_000_000n, 700_000_000n, 20_000_000n]) {
      const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
      const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
        TransferableOutput.fromNative(ctx.avaxAssetID, amount, [recipient]),
      ]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
      await waitAccepted(url, txID);
    }
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const create = new avmSerial.CreateAssetTx(
      avaxBase(
        ctx,
        [secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.createAssetTxFee, [EWOQ_ADDR])],
        [inputFrom(utxo)],
      ),
      new Stringpr('Flurry Token'),
      new Stringpr('FLRY'),
      new Byte(new Uint8Array([2])),
      [
        new avmSerial.InitialState(new Int(0), [
          new TransferOutput(new BigIntPr(1_000_000n), owners([EWOQ_ADDR])),
        ]),
      ],
    );
    assetId = await issue(url, await signWith(create, ['secp']));
    await waitAccepted(url, assetId);
    const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
    const send = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(assetId, 250n, [recipient]),
    ]);
    await addTxSignatures({ unsignedTx: send, privateKeys: [EWOQ_KEY] });
    const { txID: sendId } = await xApi.issueSignedTx(send.getSignedTx());
    await waitAccepted(url, sendId);
    await indexed();

    // UTXOs v2 through chainkit, one per page: exactly the node's UTXO set of the recipient.
    const nodeUtxos = await call(`${url}/ext/bc/X`, 'avm.getUTXOs', {
      addresses: [fmt('X', recipient)],
      encoding: 'hex',
    });
    const expectedIds = (nodeUtxos.utxos as string[]).map((h) =>
      avmSerial.getAVMManager().unpack(utils.hexToBuffer(h), Utxo),
    );
    const walk = await collect<any>(
      await sdk.data.primaryNetwork.utxos.listByAddressesV2(
        {
          blockchainId: 'x-chain',
          primaryNetworkAddressesBodyDto: { addresses: fmt('X', recipient) },
          pageSize: 1,
          sortBy: 'amount',
          sortOrder: 'desc',
        },
        at(),
      ),
      'utxos',
    );
    assert.equal(walk.items.length, expectedIds.length);
    assert.equal(walk.pages, expectedIds.length);
    assert.equal(new Set(walk.items.map((u) => u.utxoId)).size, walk.items.length, 'each UTXO once');
    const byTx = new Map(walk.items.map((u) => [`${u.creationTxHash}:${u.outputIndex}`, u]));
    for (const u of expectedIds)
      assert.ok(
        byTx.has(`${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`),
        'the node lists it too',
      );
    assert.deepEqual(
      walk.items.map((u) => u.asset.amount),
      ['1500000000', '700000000', '20000000', '250'],
      'sorted by amount, descending',
    );
    const flry = walk.items.find((u) => u.asset.assetId === assetId);
    assert.equal(flry.asset.symbol, 'FLRY');
    assert.equal(flry.asset.denomination, 2);
    assert.equal(flry.utxoType, 'transfer');
    const onlyFlry = await sdk.data.primaryNetwork.utxos.listByAddressesV2(
      {
        blockchainId: 'x-chain',
        primaryNetworkAddressesBodyDto: { addresses: fmt('X', recipient) },
        assetId,
      },
      at(),
    );
    assert.deepEqual(
      onlyFlry.result.utxos.map((u: any) => u.asset.assetId),
      [assetId],
    );
    // On the wire an X-chain UTXO also has the spec's UTXO list members (chainkit's X shape
    // drops them): the top-level assetId, the creating tx and its block.
    const raw = (await (
      await fetch(`${data}/v1/networks/fuji/blockchains/x-chain/utxos?assetId=${assetId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ addresses: fmt('X', recipient) }),
      })
    ).json()) as any;
    assert.equal(raw.utxos.length, 1);
    const [u] = raw.utxos;
    assert.equal(u.assetId, assetId);
    assert.equal(u.txHash, sendId);
    assert.equal(u.txHash, u.creationTxHash);
    assert.equal(u.blockTimestamp, u.timestamp);
    assert.equal(typeof u.blockTimestamp, 'number');
    assert.match(u.blockNumber, /^[1-9]\d*$/);
    assert.equal(typeof u.outputIndex, 'string', 'still the X shape');

    // Asset transactions of the new asset: its creation and the transfer, newest first.
    const txs = await collect<any>(
      await sdk.data.primaryNetwork.transactions.listAssetTransactions(
        { blockchainId: 'x-chain', assetId, pageSize: 1 },
        at(),
      ),
      'transactions',
    );
    assert.deepEqual(
      txs.items.map((t) => t.txHash),
      [sendId, assetId],
    );
    assert.deepEqual(
      txs.items.map((t) => t.txType),
      ['BaseTx', 'CreateAssetTx'],
    );
    const created = txs.items[1];
    assert.deepEqual(
      { ...created.assetCreated, createdAtTimestamp: undefined },
      {
        assetId,
        name: 'Flurry Token',
        symbol: 'FLRY',
        denomination: 2,
        type: 'secp256k1',
        cap: 'fixed',
        createdAtTimestamp: undefined,
      },
    );
    assert.deepEqual(created.amountCreated.find((a: any) => a.assetId === assetId)?.amount, '1000000');
    const transfer = txs.items[0];
    assert.ok(
      transfer.consumedUtxos.some((u: any) => u.asset.assetId === assetId && u.creationTxHash === assetId),
    );
    assert.ok(
      transfer.consumedUtxos.every((u: any) => u.consumingTxHash === sendId && u.credentials?.length === 1),
    );
    const signer = transfer.consumedUtxos[0].credentials[0];
    assert.match(signer.signature, /^0x[0-9a-f]{130}$/);
    assert.match(signer.publicKey, /^0x0[23][0-9a-f]{64}$/);
    const glacierTxs = await glacier.primaryNetworkTransactions.listAssetTransactions({
      blockchainId: 'x-chain' as any,
      network: 'fuji' as any,
      assetId,
      txTypes: ['CreateAssetTx' as any],
    });
    assert.deepEqual(
      glacierTxs.transactions.map((t: any) => t.txHash),
      [assetId],
    );

    // Balances equal the node's.
    const bal = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'x-chain', addresses: fmt('X', recipient) },
      at(),
    );
    const unlocked = (bal.balances as any).unlocked as any[];
    const nodeAvax = await call(`${url}/ext/bc/X`, 'avm.getBalance', {
      address: fmt('X', recipient),
      assetID: ctx.avaxAssetID,
    });
    assert.equal(unlocked.find((b) => b.assetId === ctx.avaxAssetID).amount, nodeAvax.balance);
    assert.equal(unlocked.find((b) => b.assetId === assetId).amount, '250');
    assert.equal(bal.chainInfo.chainName, 'x-chain');
  });

  let subnetId: string;
  /** A subnet with no validators and no conversion. */
  let bareSubnet: string;
  let chainId: string;
  let conversionTx: string;
  const feeState = () => pApi.getFeeState();
  const pUtxos = async () => (await pApi.getUTXOs({ addresses: [EWOQ_P] })).utxos;
  const createSubnet = async () =>
    signAndIssue(
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
  it('indexes a subnet, its Subnet-EVM chain and its L1 conversion', async () => {
    subnetId = await createSubnet();
    const genesis = {
      config: { chainId: 99999, feeConfig: { gasLimit: 15_000_000 } },
      alloc: {},
      gasLimit: '0xe4e1c0',
      difficulty: '0x0',
    };
    chainId = await signAndIssue(
      pApi,
      pvm.newCreateChainTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          chainName: 'flurry evm',
          subnetId,
          subnetAuth: [0],
          vmId: SUBNET_EVM_VM,
          fxIds: [],
          genesisData: genesis,
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    const l1Key = blsKey('data-l1-0');
    conversionTx = await signAndIssue(
      pApi,
      pvm.newConvertSubnetToL1Tx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          subnetId,
          chainId,
          address: utils.hexToBuffer('0x' + 'ab'.repeat(20)),
          subnetAuth: [0],
          validators: [
            L1Validator.fromNative(
              testNodeId(60),
              100n,
              1n * AVAX,
              new pvmSerial.ProofOfPossession(l1Key.publicKey, l1Key.pop),
              PChainOwner.fromNative([EWOQ_ADDR], 1),
              PChainOwner.fromNative([EWOQ_ADDR], 1),
            ),
          ],
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    await indexed();

    const listed = await collect<any>(
      await sdk.data.primaryNetwork.listSubnets({ pageSize: 1, sortOrder: 'asc' }, at()),
      'subnets',
    );
    // The node's own list is the oracle: every subnet it has (but the primary network's), once.
    const nodeSubnets: string[] = (await call(`${url}/ext/bc/P`, 'platform.getSubnets', {})).subnets
      .map((s: any) => s.id)
      .filter((id: string) => id !== ctx.pBlockchainID);
    assert.ok(nodeSubnets.includes(subnetId), 'the node has the new subnet');
    const mine = listed.items.find((s) => s.subnetId === subnetId);
    assert.ok(mine, 'the new subnet is listed');
    assert.equal(new Set(listed.items.map((s) => s.subnetId)).size, listed.items.length, 'each subnet once');
    assert.deepEqual(
      listed.items
        .map((s) => s.subnetId)
        .filter((id) => id !== ctx.pBlockchainID)
        .sort(),
      nodeSubnets.sort(),
    );
    assert.equal(mine.isL1, true);
    assert.equal(mine.l1ConversionTransactionHash, conversionTx);
    assert.deepEqual(mine.l1ValidatorManagerDetails, {
      blockchainId: chainId,
      contractAddress: '0x' + 'ab'.repeat(20),
    });
    assert.deepEqual(mine.ownerAddresses, [bare(EWOQ_ADDR)]);
    assert.deepEqual(mine.subnetOwnershipInfo, { locktime: 0, threshold: 1, addresses: [bare(EWOQ_ADDR)] });
    const chain = mine.blockchains[0];
    assert.equal(chain.blockchainId, chainId);
    assert.equal(chain.blockchainName, 'flurry evm');
    assert.equal(chain.vmId, SUBNET_EVM_VM);
    assert.equal(chain.evmChainId, 99999);
    assert.equal(chain.genesisData.config.chainId, 99999);
    assert.equal(chain.genesisData.gasLimit, '0xe4e1c0');
    const fromGlacier = await glacier.primaryNetwork.listSubnets({ network: 'fuji' as any });
    assert.ok(fromGlacier.subnets.some((s: any) => s.subnetId === subnetId && s.isL1));

    // One subnet by id, as the list shows it; a subnet with no chains; unknown and malformed ids.
    const one = await sdk.data.primaryNetwork.getSubnetById({ subnetId }, at());
    assert.deepEqual(JSON.parse(JSON.stringify(one)), JSON.parse(JSON.stringify(mine)));
    bareSubnet = await createSubnet();
    await indexed();
    const empty = await sdk.data.primaryNetwork.getSubnetById({ subnetId: bareSubnet }, at());
    assert.equal(empty.subnetId, bareSubnet);
    assert.deepEqual(empty.blockchains, []);
    assert.equal(empty.isL1, false);
    await assert.rejects(
      sdk.data.primaryNetwork.getSubnetById({ subnetId: chainId }, at()),
      (err: any) => err.constructor.name === 'NotFoundError' && err.statusCode === 404,
    );
    const malformed = await fetch(`${data}/v1/networks/fuji/subnets/not-a-subnet`);
    assert.equal(malformed.status, 400);

    // The Primary Network by its id (the reference documents' own example), created by the
    // P-chain's genesis, with the chains the node lists under it; each of them by id too.
    const primary = await sdk.data.primaryNetwork.getSubnetById({ subnetId: ctx.pBlockchainID }, at());
    assert.equal(primary.subnetId, ctx.pBlockchainID);
    assert.equal(primary.isL1, false);
    assert.equal(primary.createBlockIndex, '0');
    assert.ok(primary.createBlockTimestamp > 0 && primary.createBlockTimestamp <= mine.createBlockTimestamp);
    assert.deepEqual(primary.subnetOwnershipInfo, { locktime: 0, threshold: 0, addresses: [] });
    const nodePrimaryChains = (
      (await call(`${url}/ext/bc/P`, 'platform.getBlockchains', {})).blockchains as any[]
    ).filter((c) => c.subnetID === ctx.pBlockchainID);
    // The node lists them in id order; the record in genesis order (X, then C).
    const chainFacts = (list: string[][]) => list.sort((a, b) => a[0].localeCompare(b[0]));
    assert.deepEqual(
      chainFacts(primary.blockchains.map((b) => [b.blockchainId, b.blockchainName, b.vmId, b.subnetId])),
      chainFacts(nodePrimaryChains.map((c) => [c.id, c.name, c.vmID, c.subnetID])),
    );
    assert.deepEqual(
      primary.blockchains.map((b) => b.blockchainName),
      ['X-Chain', 'C-Chain'],
    );
    const cChain = primary.blockchains.find((b) => b.blockchainName === 'C-Chain')!;
    assert.equal(cChain.evmChainId, Number(await call(`${url}/ext/bc/C/rpc`, 'eth_chainId', [])));
    for (const chain of primary.blockchains) {
      const byId = await sdk.data.primaryNetwork.getBlockchainById(
        { blockchainId: chain.blockchainId },
        at(),
      );
      assert.deepEqual(JSON.parse(JSON.stringify(byId)), JSON.parse(JSON.stringify(chain)));
    }
  });

  it('lists blockchains and serves one blockchain and one X-chain asset as the node knows them', async () => {
    // A subnet with two Subnet-EVM chains and a new X-chain asset, made here so the test stands alone.
    const ownSubnet = await createSubnet();
    const evmChain = async (name: string, evmId: number) =>
      signAndIssue(
        pApi,
        pvm.newCreateChainTx(
          {
            feeState: await feeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await pUtxos(),
            chainName: name,
            subnetId: ownSubnet,
            subnetAuth: [0],
            vmId: SUBNET_EVM_VM,
            fxIds: [],
            genesisData: { config: { chainId: evmId }, alloc: {}, gasLimit: '0xe4e1c0', difficulty: '0x0' },
          },
          ctx,
        ),
        [EWOQ_KEY],
        EWOQ_KEY,
      );
    const first = await evmChain('chain list one', 88001);
    const second = await evmChain('chain list two', 88002);
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const create = new avmSerial.CreateAssetTx(
      avaxBase(
        ctx,
        [secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.createAssetTxFee, [EWOQ_ADDR])],
        [inputFrom(utxo)],
      ),
      new Stringpr('Listed Token'),
      new Stringpr('LST'),
      new Byte(new Uint8Array([4])),
      [
        new avmSerial.InitialState(new Int(0), [
          new TransferOutput(new BigIntPr(5_000n), owners([EWOQ_ADDR])),
        ]),
      ],
    );
    const listedAsset = await issue(url, await signWith(create, ['secp']));
    await waitAccepted(url, listedAsset);
    await indexed();

    // One blockchain per page, oldest first: each chain once, the node's chains of every subnet.
    const asc = await collect<any>(
      await sdk.data.primaryNetwork.listBlockchains({ pageSize: 1, sortOrder: 'asc' }, at()),
      'blockchains',
    );
    const ids = asc.items.map((b) => b.blockchainId);
    assert.equal(new Set(ids).size, ids.length, 'each blockchain once');
    assert.ok(asc.pages >= ids.length);
    const pos = (id: string) => ids.indexOf(id);
    assert.ok(pos(first) >= 0 && pos(first) < pos(second), 'creation order');
    const nodeChains = (await call(`${url}/ext/bc/P`, 'platform.getBlockchains', {})).blockchains as any[];
    for (const c of nodeChains.filter((n) => n.subnetID !== ctx.pBlockchainID)) {
      const b = asc.items.find((x) => x.blockchainId === c.id);
      assert.ok(b, `blockchain ${c.id} is listed`);
      assert.equal(b.blockchainName, c.name);
      assert.equal(b.subnetId, c.subnetID);
      assert.equal(b.vmId, c.vmID);
    }
    assert.equal(ids.length, nodeChains.filter((n) => n.subnetID !== ctx.pBlockchainID).length);
    const one = asc.items[pos(second)];
    assert.equal(one.evmChainId, 88002);
    assert.equal(one.subnetId, ownSubnet);
    assert.match(one.createBlockNumber, /^\d+$/);
    assert.ok(one.createBlockTimestamp > 0);
    const desc = await collect<any>(
      await sdk.data.primaryNetwork.listBlockchains({ pageSize: 2, sortOrder: 'desc' }, at()),
      'blockchains',
    );
    assert.deepEqual(
      desc.items.map((b) => b.blockchainId),
      [...ids].reverse(),
    );

    // One blockchain by id, as the list shows it; unknown and malformed ids; bad list input.
    const byId = await sdk.data.primaryNetwork.getBlockchainById({ blockchainId: second }, at());
    assert.deepEqual(JSON.parse(JSON.stringify(byId)), JSON.parse(JSON.stringify(one)));
    await assert.rejects(
      sdk.data.primaryNetwork.getBlockchainById({ blockchainId: ownSubnet }, at()),
      (err: any) => err.constructor.name === 'NotFoundError' && err.statusCode === 404,
    );
    for (const path of [
      'blockchains/not-a-chain',
      'blockchains?pageSize=0',
      'blockchains?pageSize=10001',
      'blockchains?pageToken=forged',
      'blockchains?sortOrder=up',
    ]) {
      const res = await fetch(`${data}/v1/networks/fuji/${path}`);
      assert.equal(res.status, 400, path);
      const body = (await res.json()) as any;
      assert.equal(body.statusCode, 400);
      assert.equal(typeof body.message, 'string');
      assert.equal(typeof body.error, 'string');
    }

    // Asset details equal the node's description, by alias and by X-chain id; AVAX from genesis.
    for (const [id, blockchainId] of [
      [listedAsset, 'x-chain'],
      [listedAsset, ctx.xBlockchainID],
      [ctx.avaxAssetID, 'x-chain'],
    ] as const) {
      const details = await sdk.data.primaryNetwork.getAssetDetails(
        { blockchainId: blockchainId as any, assetId: id },
        at(),
      );
      const node = await call(`${url}/ext/bc/X`, 'avm.getAssetDescription', { assetID: id });
      assert.equal(details.assetId, id);
      assert.equal(details.name, node.name);
      assert.equal(details.symbol, node.symbol);
      assert.equal(details.denomination, Number(node.denomination));
      assert.equal(details.type, 'secp256k1');
      assert.equal(details.cap, 'fixed');
      assert.ok(details.createdAtTimestamp > 0);
    }
    await assert.rejects(
      sdk.data.primaryNetwork.getAssetDetails({ blockchainId: 'x-chain', assetId: first }, at()),
      (err: any) => err.constructor.name === 'NotFoundError' && err.statusCode === 404,
    );
    for (const path of [
      `x-chain/assets/not-an-asset`,
      `p-chain/assets/${listedAsset}`,
      `bogus/assets/${listedAsset}`,
    ]) {
      const res = await fetch(`${data}/v1/networks/fuji/blockchains/${path}`);
      assert.equal(res.status, 400, path);
    }
  });

  const validatorNode = testNodeId(61);
  let validatorTx: string;
  let delegatorTx: string;
  it('serves an active validator with its delegator, then pays and lists the rewards', async () => {
    const now = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    const key = blsKey('data-validator');
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
          end: now + 3600n,
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
          end: now + 3540n,
          weight: 500n * AVAX,
          rewardAddresses: [delegatorOwner],
        },
        ctx,
      ),
    );
    await indexed();
    const active = await sdk.data.primaryNetwork.getValidatorDetails(
      { nodeId: validatorNode, validationStatus: 'active' },
      at(),
    );
    assert.equal(active.result.validators.length, 1);
    const v = active.result.validators[0] as any;
    assert.equal(v.validationStatus, 'active');
    assert.equal(v.txHash, validatorTx);
    assert.equal(v.amountStaked, String(2_000n * AVAX));
    assert.equal(v.delegatorCount, 1);
    assert.equal(v.amountDelegated, String(500n * AVAX));
    assert.equal(v.delegationFee, '10');
    assert.equal(v.blsCredentials.publicKey, '0x' + Buffer.from(key.publicKey).toString('hex'));
    const live = (await pApi.getCurrentValidators({ nodeIDs: [validatorNode] })).validators[0] as any;
    assert.equal(v.potentialRewards.validationRewardAmount, String(live.potentialReward));

    // Staked P-chain UTXOs show their staking window.
    const staked = await sdk.data.primaryNetwork.utxos.listByAddressesV2(
      { blockchainId: 'p-chain', primaryNetworkAddressesBodyDto: { addresses: EWOQ_P }, pageSize: 1024 },
      at(),
    );
    const stakeUtxo = (staked.result.utxos as any[]).find(
      (u) => u.txHash === validatorTx && u.utxoType === 'STAKE',
    );
    assert.ok(stakeUtxo, 'the stake output is listed');
    assert.equal(stakeUtxo.staked, true);
    assert.equal(stakeUtxo.utxoEndTimestamp, Number(now + 3600n));

    // Past the delegator's end, before the validator's: the validator is still active and, as
    // platform.getCurrentValidators says, no longer has a delegator.
    const chainNow = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: Number(now + 3570n - chainNow) });
    await indexed();
    const undelegated = (await sdk.data.primaryNetwork.getValidatorDetails({ nodeId: validatorNode }, at()))
      .result.validators[0] as any;
    const nodeNow = (await pApi.getCurrentValidators({ nodeIDs: [validatorNode] })).validators[0] as any;
    assert.equal(undelegated.validationStatus, 'active');
    assert.equal(undelegated.delegatorCount, Number(nodeNow.delegatorCount ?? 0));
    assert.equal(undelegated.amountDelegated, String(nodeNow.delegatorWeight ?? 0));
    assert.equal(undelegated.delegatorCount, 0, 'the ended delegation is not counted');
    assert.equal(undelegated.delegationCapacity, String(4n * 2_000n * AVAX));

    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 130 });
    await indexed();
    const completed = await sdk.data.primaryNetwork.getValidatorDetails({ nodeId: validatorNode }, at());
    const c = completed.result.validators[0] as any;
    assert.equal(c.validationStatus, 'completed');
    const nodeRewards = await pApi.getRewardUTXOs({ txID: validatorTx });
    const nodeAmounts = nodeRewards.utxos.map((u: any) => (u.output as any).amount() as bigint);
    assert.equal(
      BigInt(c.rewards.validationRewardAmount) + BigInt(c.rewards.delegationRewardAmount),
      nodeAmounts.reduce((s, a) => s + a, 0n),
    );
    assert.ok(c.rewards.rewardTxHash);

    // Historical rewards by node id (validator's) and by address (the delegator's owner).
    const byNode = await collect<any>(
      await sdk.data.primaryNetwork.rewards.listHistoricalRewards(
        { nodeIds: validatorNode, pageSize: 1, currency: 'usd' },
        at(),
      ),
      'historicalRewards',
    );
    const delegatorRewards = await pApi.getRewardUTXOs({ txID: delegatorTx });
    assert.equal(byNode.items.length, nodeRewards.utxos.length + delegatorRewards.utxos.length);
    assert.equal(new Set(byNode.items.map((r) => r.utxoId)).size, byNode.items.length);
    const delegated = await sdk.data.primaryNetwork.rewards.listHistoricalRewards(
      { addresses: fmt('P', delegatorOwner) },
      at(),
    );
    const paid = delegated.result.historicalRewards as any[];
    assert.equal(paid.length, 1);
    assert.equal(paid[0].rewardType, 'DELEGATOR');
    assert.equal(paid[0].txHash, delegatorTx);
    assert.equal(paid[0].nodeId, validatorNode);
    assert.equal(paid[0].amountStaked, String(500n * AVAX));
    assert.equal(BigInt(paid[0].reward.amount), (delegatorRewards.utxos[0].output as any).amount());
    const viaGlacier = await glacier.primaryNetworkRewards.listHistoricalPrimaryNetworkRewards({
      network: 'fuji' as any,
      nodeIds: validatorNode,
    });
    assert.equal(viaGlacier.historicalRewards.length, byNode.items.length);

    // The delegator owner's P-chain balance is exactly the reward, as the node says.
    const balances = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'p-chain', addresses: fmt('P', delegatorOwner) },
      at(),
    );
    const nodeBalance = await pApi.getBalance({ addresses: [fmt('P', delegatorOwner)] });
    assert.equal((balances.balances as any).unlockedUnstaked[0].amount, nodeBalance.unlocked.toString());
    const before = await glacier.primaryNetworkBalances.getBalancesByAddresses({
      blockchainId: 'p-chain' as any,
      network: 'fuji' as any,
      addresses: fmt('P', delegatorOwner),
      blockTimestamp: Number(now),
    });
    assert.deepEqual((before.balances as any).unlockedUnstaked, [], 'nothing before the reward was paid');
  });

  it('follows an export from the P-chain into X-chain atomic memory and its import', async () => {
    const exportTx = await signAndIssue(
      pApi,
      pvm.newExportTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          destinationChainId: ctx.xBlockchainID,
          outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 10n * AVAX, [EWOQ_ADDR])],
        },
        ctx,
      ),
    );
    await indexed();
    const pending = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'x-chain', addresses: EWOQ_X },
      at(),
    );
    assert.deepEqual(
      ((pending.balances as any).atomicMemoryUnlocked as any[]).map((a) => [
        a.amount,
        a.sharedWithChainId,
        a.utxoCount,
      ]),
      [[String(10n * AVAX), ctx.pBlockchainID, 1]],
    );
    const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X], sourceChain: 'P' });
    assert.equal(utxos.length, 1);
    const imp = avm.newImportTx(ctx, ctx.pBlockchainID, utxos, [EWOQ_ADDR], [EWOQ_ADDR]);
    await addTxSignatures({ unsignedTx: imp, privateKeys: [EWOQ_KEY] });
    const { txID: importTx } = await xApi.issueSignedTx(imp.getSignedTx());
    await waitAccepted(url, importTx);
    await indexed();
    const settled = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'x-chain', addresses: EWOQ_X },
      at(),
    );
    assert.deepEqual((settled.balances as any).atomicMemoryUnlocked, []);
    const list = await collect<any>(
      await sdk.data.primaryNetwork.utxos.listByAddressesV2(
        {
          blockchainId: 'x-chain',
          primaryNetworkAddressesBodyDto: { addresses: EWOQ_X },
          includeSpent: true,
          pageSize: 3,
        },
        at(),
      ),
      'utxos',
    );
    const imported = list.items.find((u) => u.creationTxHash === exportTx);
    assert.ok(imported, 'the exported output is listed on the X-chain');
    assert.equal(imported.createdOnChainId, ctx.pBlockchainID);
    assert.equal(imported.consumedOnChainId, ctx.xBlockchainID);
    assert.equal(imported.consumingTxHash, importTx);
    assert.equal(new Set(list.items.map((u) => u.utxoId)).size, list.items.length, 'each UTXO once');
    const importTxs = await sdk.data.primaryNetwork.transactions.listAssetTransactions(
      { blockchainId: 'x-chain', assetId: ctx.avaxAssetID, txTypes: ['ImportTx'] },
      at(),
    );
    const found = (importTxs.result.transactions as any[]).find((t) => t.txHash === importTx);
    assert.equal(found.sourceChain, ctx.pBlockchainID);
    assert.equal(found.consumedUtxos[0].utxoId, imported.utxoId);
  });

  it('balances count X-chain txs stamped after the newest P-chain block (devnet clock ahead of the wall clock)', async () => {
    // advanceTime moves the clock past the wall clock (its P-chain block carries the new time); a
    // second later the next X-chain block is stamped past both the wall clock and the newest
    // indexed P-chain block.
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 600 });
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = utils.hexToBuffer('0x' + '23'.repeat(20));
    const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 3n * AVAX, [fresh]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);
    await indexed();
    const received = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'x-chain', addresses: fmt('X', fresh) },
      at(),
    );
    assert.deepEqual(
      ((received.balances as any).unlocked as any[]).map((b) => [b.amount, b.utxoCount]),
      [[String(3n * AVAX), 1]],
    );
    const sender = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'x-chain', addresses: EWOQ_X },
      at(),
    );
    const nodeAvax = await call(`${url}/ext/bc/X`, 'avm.getBalance', {
      address: EWOQ_X,
      assetID: ctx.avaxAssetID,
    });
    assert.equal(
      ((sender.balances as any).unlocked as any[]).find((b) => b.assetId === ctx.avaxAssetID).amount,
      nodeAvax.balance,
      'the spent UTXOs no longer count',
    );
  });

  /** The devnet clock now (advanceTime answers it); a staking period must end after the clock. */
  const devnetNow = async () =>
    BigInt(
      Math.floor(
        Date.parse((await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 1 })).timestamp) / 1000,
      ),
    );

  it('lists the validators of every node as platform.getCurrentValidators and the single-validator route do', async () => {
    const primary = ctx.pBlockchainID;
    const now = await devnetNow();
    const shortNode = testNodeId(71);
    const longNode = testNodeId(72);
    const addValidator = async (
      nodeId: string,
      end: bigint,
      shares: number,
      seed: string,
      weight = 2_000n * AVAX,
    ) => {
      const key = blsKey(seed);
      return signAndIssue(
        pApi,
        pvm.newAddPermissionlessValidatorTx(
          {
            feeState: await feeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await pUtxos(),
            nodeId,
            subnetId: primary,
            start: now,
            end,
            weight,
            rewardAddresses: [EWOQ_ADDR],
            delegatorRewardsOwner: [EWOQ_ADDR],
            shares,
            publicKey: key.publicKey,
            signature: key.pop,
          },
          ctx,
        ),
      );
    };
    const shortTx = await addValidator(shortNode, now + 120n, 100_000, 'list-short');
    // A larger stake than the genesis validators': a delegation capacity of its own to order by.
    const longTx = await addValidator(longNode, now + 7200n, 20_000, 'list-long', 3_000n * AVAX);
    const chainNow = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: Number(now + 130n - chainNow) });
    await indexed();
    const list = (query: Record<string, unknown>) =>
      sdk.data.primaryNetwork.listValidators(query as any, at()).then((p) => collect<any>(p, 'validators'));

    // Every validation period; the active primary-network ones are the node's current validators.
    const all = await list({ pageSize: 100 });
    assert.equal(new Set(all.items.map((v) => v.txHash)).size, all.items.length);
    const current = (await pApi.getCurrentValidators({})).validators as any[];
    const active = all.items.filter((v) => v.validationStatus === 'active' && v.subnetId === primary);
    assert.deepEqual(active.map((v) => v.txHash).sort(), current.map((v) => v.txID).sort());
    for (const v of active) {
      const n = current.find((c) => c.txID === v.txHash);
      assert.equal(v.nodeId, n.nodeID);
      assert.equal(v.amountStaked, String(n.stakeAmount ?? n.weight));
      assert.equal(v.startTimestamp, Number(n.startTime));
      assert.equal(v.endTimestamp, Number(n.endTime));
      assert.equal(v.delegatorCount, Number(n.delegatorCount ?? 0));
    }
    assert.ok(active.some((v) => v.txHash === longTx));
    const filteredActive = await list({ subnetId: primary, validationStatus: 'active', pageSize: 100 });
    assert.deepEqual(
      filteredActive.items.map((v) => v.txHash),
      active.map((v) => v.txHash),
    );

    // Completed periods are exactly what GET /validators/{nodeId} answers for them.
    const completed = all.items.filter((v) => v.validationStatus === 'completed');
    assert.ok(completed.some((v) => v.txHash === shortTx));
    for (const v of completed) {
      const single = await sdk.data.primaryNetwork.getValidatorDetails(
        { nodeId: v.nodeId, validationStatus: 'completed', pageSize: 100 },
        at(),
      );
      assert.deepEqual(
        v,
        (single.result.validators as any[]).find((s) => s.txHash === v.txHash),
      );
    }

    // A walk one item a page meets every period once, in the same order.
    const walk = await list({ pageSize: 1 });
    assert.deepEqual(
      walk.items.map((v) => v.txHash),
      all.items.map((v) => v.txHash),
    );
    assert.equal(walk.pages, all.items.length);
    const desc = await list({ pageSize: 2, sortOrder: 'desc' });
    assert.deepEqual(
      desc.items.map((v) => v.txHash),
      all.items.map((v) => v.txHash).reverse(),
    );

    // The other orders, ties in index order, walked one a page both ways and the same as sorting
    // the whole list: time remaining (the end time), delegation fee, and an active validation's
    // live figures, delegation capacity and uptime (validations without the figure first).
    const rank = (v: any, by: string): bigint => {
      const x =
        by === 'timeRemaining'
          ? v.endTimestamp
          : by === 'delegationFee'
            ? v.delegationFee
            : by === 'delegationCapacity'
              ? v.delegationCapacity
              : v.uptimePerformance;
      if (x === undefined) return -1n;
      return by === 'uptimePerformance' || by === 'delegationFee'
        ? BigInt(Math.round(Number(x) * 1e6))
        : BigInt(x);
    };
    const index = new Map(all.items.map((v, i) => [v.txHash, i]));
    for (const sortBy of ['timeRemaining', 'delegationFee', 'delegationCapacity', 'uptimePerformance'])
      for (const sortOrder of ['asc', 'desc'] as const) {
        const sign = sortOrder === 'asc' ? 1 : -1;
        const want = [...all.items]
          .sort((a, b) => {
            const [ra, rb] = [rank(a, sortBy), rank(b, sortBy)];
            return sign * (ra === rb ? index.get(a.txHash)! - index.get(b.txHash)! : ra < rb ? -1 : 1);
          })
          .map((v) => v.txHash);
        const paged = await list({ pageSize: 1, sortBy, sortOrder });
        assert.deepEqual(
          paged.items.map((v) => v.txHash),
          want,
          `${sortBy} ${sortOrder}`,
        );
      }
    const byEnd = (await list({ pageSize: 100, sortBy: 'timeRemaining' })).items.map((v) => v.txHash);
    assert.ok(byEnd.indexOf(shortTx) < byEnd.indexOf(longTx));
    const byFee = (await list({ pageSize: 100, sortBy: 'delegationFee', sortOrder: 'desc' })).items;
    assert.ok(byFee.findIndex((v) => v.txHash === shortTx) < byFee.findIndex((v) => v.txHash === longTx));

    // Filters the store answers.
    const txs = async (query: Record<string, unknown>) => (await list(query)).items.map((v) => v.txHash);
    assert.deepEqual(await txs({ nodeIds: `${shortNode},${longNode}` }), [shortTx, longTx]);
    assert.deepEqual(await txs({ nodeIds: shortNode.slice(-12) }), [shortTx]);
    const done = await txs({ validationStatus: 'completed' });
    assert.ok(done.includes(shortTx) && !done.includes(longTx));
    const dear = await txs({ minFeePercentage: 5 });
    assert.ok(dear.includes(shortTx) && !dear.includes(longTx));
    const long = await txs({ minTimeRemaining: 3600 });
    assert.ok(long.includes(longTx) && !long.includes(shortTx));
    const ending = await txs({ maxTimeRemaining: 0 });
    assert.ok(ending.includes(shortTx) && !ending.includes(longTx));
    // Filters on the live figures: only active validations have them.
    const capacity = BigInt(all.items.find((v) => v.txHash === longTx).delegationCapacity);
    const bounds = { minDelegationCapacity: String(capacity), maxDelegationCapacity: String(capacity) };
    assert.deepEqual(await txs({ ...bounds, nodeIds: `${shortNode},${longNode}` }), [longTx]);
    assert.deepEqual(await txs({ minDelegationCapacity: String(capacity + 1n), nodeIds: longNode }), []);
    const activeTxs = all.items.filter((v) => v.validationStatus === 'active').map((v) => v.txHash);
    assert.deepEqual(await txs({ minUptimePerformance: 0, pageSize: 100 }), activeTxs);
    assert.deepEqual(
      await txs({ minUptimePerformance: 0, maxUptimePerformance: 100, pageSize: 1 }),
      activeTxs,
    );
    assert.deepEqual(
      await txs({ maxDelegationCapacity: String(capacity), sortBy: 'timeRemaining', pageSize: 1 }),
      byEnd.filter(
        (tx) => activeTxs.includes(tx) && rank(all.items[index.get(tx)!], 'delegationCapacity') <= capacity,
      ),
    );

    // Bad input: 400 in the documented shape.
    const first = (await (await fetch(`${data}/v1/networks/fuji/validators?pageSize=1`)).json()) as any;
    assert.ok(first.nextPageToken);
    for (const query of [
      'pageSize=0',
      'pageSize=101',
      'validationStatus=resting',
      'pageToken=forged',
      `validationStatus=active&pageSize=1&pageToken=${first.nextPageToken}`,
      `sortBy=timeRemaining&pageSize=1&pageToken=${first.nextPageToken}`,
      `sortBy=delegationCapacity&pageSize=1&pageToken=${first.nextPageToken}`,
      'minUptimePerformance=101',
      'minDelegationCapacity=1.5',
      'maxDelegationCapacity=720000000000000001',
      'subnetId=zzz',
    ]) {
      const r = await fetch(`${data}/v1/networks/fuji/validators?${query}`);
      assert.equal(r.status, 400, query);
      const body = (await r.json()) as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'], query);
      assert.equal(body.statusCode, 400);
    }
    await assert.rejects(
      sdk.data.primaryNetwork.listValidators({ pageToken: 'forged' }, at()),
      (err: any) => err.constructor.name === 'BadRequestError' && err.statusCode === 400,
    );
  });

  it('lists the delegators of every node with their rewards as the node reports them', async () => {
    const primary = ctx.pBlockchainID;
    const now = await devnetNow();
    const node = testNodeId(73);
    const owner = utils.hexToBuffer('0x' + '23'.repeat(20));
    const key = blsKey('list-delegated');
    await signAndIssue(
      pApi,
      pvm.newAddPermissionlessValidatorTx(
        {
          feeState: await feeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: await pUtxos(),
          nodeId: node,
          subnetId: primary,
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
    const delegate = async (end: bigint) =>
      signAndIssue(
        pApi,
        pvm.newAddPermissionlessDelegatorTx(
          {
            feeState: await feeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: await pUtxos(),
            nodeId: node,
            subnetId: primary,
            start: now,
            end,
            weight: 500n * AVAX,
            rewardAddresses: [owner],
          },
          ctx,
        ),
      );
    const shortTx = await delegate(now + 120n);
    const longTx = await delegate(now + 3600n);
    const chainNow = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: Number(now + 130n - chainNow) });
    await indexed();
    const list = (query: Record<string, unknown>) =>
      sdk.data.primaryNetwork.listDelegators(query as any, at()).then((p) => collect<any>(p, 'delegators'));

    const mine = await list({ nodeIds: node, pageSize: 100 });
    assert.deepEqual(
      mine.items.map((d) => d.txHash),
      [shortTx, longTx],
    );
    const [done, running] = mine.items;
    assert.equal(done.delegationStatus, 'completed');
    assert.equal(done.delegationFee, '10');
    assert.equal(done.amountDelegated, String(500n * AVAX));
    assert.deepEqual(done.rewardAddresses, [fmt('P', owner).slice(2)]);
    const paid = (await pApi.getRewardUTXOs({ txID: shortTx })).utxos.map((u: any) =>
      (u.output as any).amount(),
    );
    assert.equal(done.netReward, String(paid.reduce((s: bigint, a: bigint) => s + a, 0n)));
    const gross = BigInt(done.grossReward);
    assert.equal(gross - (gross * 100_000n) / 1_000_000n, BigInt(done.netReward));
    assert.equal(running.delegationStatus, 'active');
    const live = ((await pApi.getCurrentValidators({ nodeIDs: [node] })).validators[0] as any)
      .delegators as any[];
    const liveLong = live.find((d) => d.txID === longTx);
    assert.equal(running.estimatedGrossReward, String(liveLong.potentialReward));
    const estimated = BigInt(running.estimatedGrossReward);
    assert.equal(running.estimatedNetReward, String(estimated - (estimated * 100_000n) / 1_000_000n));

    // Filters, and a walk one item a page over every delegation.
    const byOwner = await list({ rewardAddresses: fmt('P', owner) });
    assert.deepEqual(
      byOwner.items.map((d) => d.txHash),
      [shortTx, longTx],
    );
    const active = await list({ nodeIds: node, delegationStatus: 'active' });
    assert.deepEqual(
      active.items.map((d) => d.txHash),
      [longTx],
    );
    const all = await list({ pageSize: 100 });
    const walk = await list({ pageSize: 1 });
    assert.deepEqual(
      walk.items.map((d) => d.txHash),
      all.items.map((d) => d.txHash),
    );
    assert.equal(new Set(walk.items.map((d) => d.txHash)).size, walk.items.length);
    const desc = await list({ pageSize: 1, sortOrder: 'desc' });
    assert.deepEqual(
      desc.items.map((d) => d.txHash),
      all.items.map((d) => d.txHash).reverse(),
    );

    const first = (await (await fetch(`${data}/v1/networks/fuji/delegators?pageSize=1`)).json()) as any;
    assert.ok(first.nextPageToken);
    for (const query of [
      'pageSize=0',
      'pageSize=101',
      'delegationStatus=removed',
      'pageToken=forged',
      `delegationStatus=active&pageSize=1&pageToken=${first.nextPageToken}`,
      'nodeIds=NodeID-zzz',
      'rewardAddresses=P-avax1xyz',
    ]) {
      const r = await fetch(`${data}/v1/networks/fuji/delegators?${query}`);
      assert.equal(r.status, 400, query);
      const body = (await r.json()) as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'], query);
    }
  });

  it('serves the staking metrics of the metrics service as platform.getCurrentValidators counts them', async () => {
    const metrics = net.facts.urls.metrics;
    // A day later (the validators that end meanwhile are rewarded), so the series spans days.
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 86_400 });
    await indexed();
    const current = (await call(`${url}/ext/bc/P`, 'platform.getCurrentValidators', {})).validators as any[];
    const expected = {
      validatorCount: current.length,
      validatorWeight: current.reduce((s, v) => s + Number(v.weight), 0),
      delegatorCount: current.reduce((s, v) => s + Number(v.delegatorCount ?? 0), 0),
      delegatorWeight: current.reduce((s, v) => s + Number(v.delegatorWeight ?? 0), 0),
    };
    const clock = Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000);
    const today = clock - (clock % 86_400);
    for (const [metric, value] of Object.entries(expected)) {
      // Every day from the first stake to today, newest first, one per page: today's is the node's.
      const days: { timestamp: number; value: number }[] = [];
      for await (const page of await sdk.metrics.networks.getStakingMetrics(
        { network: 'fuji', metric: metric as any, pageSize: 1 },
        { serverURL: metrics },
      ))
        days.push(...page.result.results);
      assert.equal(days[0].timestamp, today, metric);
      assert.equal(days[0].value, value, metric);
      assert.ok(days.length >= 2, 'the devnet clock has moved over a day since genesis');
      for (let i = 1; i < days.length; i++) assert.equal(days[i].timestamp, days[i - 1].timestamp - 86_400);
    }
    // Filters: a window of days, another subnet (the L1 counts its own validators, not the
    // primary stakers; a subnet without validators has none).
    const window = await sdk.metrics.networks.getStakingMetrics(
      { network: 'testnet', metric: 'validatorCount', startTimestamp: today, endTimestamp: today + 10 },
      { serverURL: metrics },
    );
    assert.deepEqual(window.result.results, [{ timestamp: today, value: expected.validatorCount }]);
    const l1 = await sdk.metrics.networks.getStakingMetrics(
      { network: 'fuji', metric: 'validatorCount', subnetId: subnetId as any },
      { serverURL: metrics },
    );
    const l1Current = (await call(`${url}/ext/bc/P`, 'platform.getCurrentValidators', { subnetID: subnetId }))
      .validators as unknown[];
    assert.equal(l1.result.results[0]?.timestamp, today);
    assert.equal(l1.result.results[0]?.value, l1Current.length);
    const none = await sdk.metrics.networks.getStakingMetrics(
      { network: 'fuji', metric: 'validatorCount', subnetId: bareSubnet as any },
      { serverURL: metrics },
    );
    assert.deepEqual(none.result.results, []);
    for (const [path, status] of [
      ['/v2/networks/mainnet/metrics/validatorCount', 404],
      ['/v2/networks/devnet/metrics/validatorCount', 400],
      ['/v2/networks/fuji/metrics/txCount', 400],
      ['/v2/networks/fuji/metrics/validatorCount?subnetId=abc', 400],
      ['/v2/networks/fuji/metrics/validatorCount?pageSize=0', 400],
      ['/v2/networks/fuji/metrics/validatorCount?pageToken=forged', 400],
      ['/v2/networks/fuji/metrics/validatorCount?startTimestamp=10&endTimestamp=5', 400],
    ] as const) {
      const res = await fetch(`${metrics}${path}`);
      assert.equal(res.status, status, path);
      const body = (await res.json()) as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
      assert.ok(Array.isArray(body.message));
    }
  });

  it('lists the addresses running validators during a time frame, as the node reports its validators', async () => {
    const metrics = net.facts.urls.metrics;
    const primary = ctx.pBlockchainID;
    await indexed();
    const clock = Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000);
    const walk = async (request: Record<string, unknown>) => {
      const items: { addresses: string[]; sortKey: string }[] = [];
      let pages = 0;
      for await (const page of await sdk.metrics.subnets.getValidators(
        { subnetId: primary, ...request } as any,
        { serverURL: metrics },
      )) {
        items.push(...page.result.addresses);
        pages++;
      }
      return { items, pages };
    };
    // Now: the node's current validators, each with the addresses its rewards go to, by start.
    const current = ((await call(`${url}/ext/bc/P`, 'platform.getCurrentValidators', {})).validators as any[])
      .filter((v) => v.validationRewardOwner)
      .map((v) => ({
        addresses: (v.validationRewardOwner.addresses as string[]).map((a) => a.replace(/^P-/, '')),
        sortKey: String(v.startTime),
        txID: v.txID as string,
      }))
      .sort((a, b) => Number(a.sortKey) - Number(b.sortKey) || (a.txID < b.txID ? -1 : 1))
      .map(({ txID: _, ...entry }) => entry);
    assert.ok(current.length >= 3);
    const now = await walk({ startTimestamp: clock, endTimestamp: clock, pageSize: 1 });
    assert.deepEqual(now.items, current);
    assert.equal(now.pages, current.length);
    assert.ok(current.some((e) => e.addresses.includes(bare(EWOQ_ADDR))));

    // The first test validator's whole period (it has ended and been paid since): it is listed
    // with its reward address; after its end it is not.
    const v = await sdk.data.primaryNetwork.getValidatorDetails({ nodeId: validatorNode }, at());
    const record = (v.result.validators as any[]).find((x) => x.txHash === validatorTx);
    assert.ok(record);
    const start = Number(record.startTimestamp);
    const end = Number(record.endTimestamp);
    const during = await walk({ startTimestamp: start, endTimestamp: end - 1 });
    assert.ok(
      during.items.some((e) => e.sortKey === String(start) && e.addresses.join() === bare(EWOQ_ADDR)),
    );
    const after = await walk({ startTimestamp: end });
    assert.ok(!after.items.some((e) => e.sortKey === String(start)));
    // Every validation ever, one page: sorted by start; the frame lists are all in it.
    const all = await walk({});
    assert.equal(all.pages, 1);
    const keys = all.items.map((e) => Number(e.sortKey));
    assert.deepEqual(
      keys,
      [...keys].sort((a, b) => a - b),
    );
    assert.ok(all.items.length >= current.length + 1);
    // A subnet without rewarded validators names no addresses.
    const l1 = await walk({ subnetId: subnetId });
    assert.deepEqual(l1.items, []);

    // Weighed `large` (25 small requests: 500 compute units), as the reference marks it.
    const r1 = await fetch(`${metrics}/v2/subnets/${primary}/validators:getAddresses`);
    const r2 = await fetch(`${metrics}/v2/subnets/${primary}/validators:getAddresses`);
    assert.equal(
      Number(r1.headers.get('ratelimit-remaining')) - Number(r2.headers.get('ratelimit-remaining')),
      500,
    );
    const first = (await (
      await fetch(`${metrics}/v2/subnets/${primary}/validators:getAddresses?pageSize=1`)
    ).json()) as any;
    assert.ok(first.nextPageToken);
    for (const [query, status] of [
      ['abc/validators:getAddresses', 400],
      [`${primary}/validators:getAddresses?pageSize=0`, 400],
      [`${primary}/validators:getAddresses?pageSize=5001`, 400],
      [`${primary}/validators:getAddresses?pageToken=forged`, 400],
      [`${primary}/validators:getAddresses?startTimestamp=5&pageToken=${first.nextPageToken}`, 400],
      [`${primary}/validators:getAddresses?startTimestamp=10&endTimestamp=5`, 400],
      [`${primary}/validators:getAddresses?network=devnet`, 400],
      // Past 2^53 - 1: no exact JSON number, and past PostgreSQL's bigint (a 500 there, not SQLite).
      [`${primary}/validators:getAddresses?endTimestamp=9223372036854775808`, 400],
      [`${primary}/validators:getAddresses?startTimestamp=1e23`, 400],
      [`${primary}/validators:getAddresses?network=mainnet`, 404],
    ] as const) {
      const res = await fetch(`${metrics}/v2/subnets/${query}`);
      const body = (await res.json()) as any;
      assert.equal(res.status, status, `${query}: ${JSON.stringify(body)}`);
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
      assert.ok(Array.isArray(body.message));
    }
    const doc = (await (await fetch(`${metrics}/openapi.json`)).json()) as any;
    assert.equal(
      doc.paths['/v2/subnets/{subnetId}/validators:getAddresses'].get.operationId,
      'getValidatorsByDateRange',
    );
  });

  it('answers bad input through the SDK error classes and raw HTTP in the documented shape', async () => {
    const r = await fetch(`${data}/v1/networks/fuji/blockchains/x-chain/utxos?pageSize=0`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ addresses: fmt('X', recipient) }),
    });
    assert.equal(r.status, 400);
    const body = (await r.json()) as any;
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
    await assert.rejects(
      sdk.data.primaryNetwork.getValidatorDetails({ nodeId: testNodeId(99) }, at()),
      (err: any) => err.constructor.name === 'NotFoundError' && err.statusCode === 404,
    );
    await assert.rejects(
      sdk.data.primaryNetwork.listSubnets({ pageToken: 'forged' }, at()),
      (err: any) => err.constructor.name === 'BadRequestError' && err.statusCode === 400,
    );
    const badAsset = await fetch(`${data}/v1/networks/fuji/blockchains/x-chain/utxos?assetId=zzz`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ addresses: fmt('X', recipient) }),
    });
    assert.equal(badAsset.status, 400, 'a malformed assetId filter is refused, not an empty page');
    const mainnet = await fetch(`${data}/v1/networks/mainnet/subnets`);
    assert.equal(mainnet.status, 404);
    // Integers past 2^53 - 1 are no exact JSON number, and past PostgreSQL's bigint: refused on
    // both stores (PostgreSQL answered 500 where SQLite compared them).
    for (const path of [
      `x-chain/assets/${ctx.avaxAssetID}/transactions?endTimestamp=9223372036854775808`,
      `x-chain/assets/${ctx.avaxAssetID}/transactions?startTimestamp=1e23`,
      `p-chain/balances?addresses=${bare(EWOQ_ADDR)}&blockTimestamp=9223372036854775808`,
    ]) {
      const res = await fetch(`${data}/v1/networks/fuji/blockchains/${path}`);
      const body = (await res.json()) as any;
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(body)}`);
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'], path);
      assert.match(body.message, /^querystring\.\w+ must be <= 9007199254740991$/, path);
    }
  });
});

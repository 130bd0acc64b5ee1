/**
 * Issue 6 (data gaps): genesis allocations and the C-chain's atomic txs in the chain-data
 * service. The prefunded key's genesis UTXOs and balances on X and P (and the genesis
 * validators) are served through @avalanche-sdk/chainkit exactly as the node reports them;
 * spending a genesis UTXO marks it consumed; an X → C export imported on C, and a C → X export
 * imported on X, show their UTXOs consumed; the genesis validators, once paid, are completed with
 * their rewards and their stake returned. On SQLite and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import {
  addTxSignatures,
  avm,
  Context,
  evm,
  pvm,
  TransferableOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { EWOQ_ADDR, EWOQ_KEY, signAndIssue } from './pchain-helpers.js';
import { waitAccepted } from './xchain-helpers.js';
import { lastIndex } from './data-helpers.js';

const AVAX = 1_000_000_000n;
const HRP = 'fuji';
const EWOQ_X = utils.format('X', HRP, EWOQ_ADDR);
const EWOQ_P = utils.format('P', HRP, EWOQ_ADDR);
const EWOQ_C = utils.format('C', HRP, EWOQ_ADDR);
const EWOQ_EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const pgSkip = postgresUnavailable();

const idOf = (u: Utxo) => `${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`;
const parse = (manager: any, hex: string) => manager.unpack(utils.hexToBuffer(hex), Utxo) as Utxo;

for (const store of ['sqlite', 'postgres'] as const) {
  describe(
    `chain-data: genesis allocations and C-chain atomic txs (${store})`,
    {
      skip: store === 'postgres' ? pgSkip : undefined,
    },
    () => {
      let net: Devnet;
      let cluster: PostgresCluster | undefined;
      let url: string;
      let data: string;
      let ctx: Context.Context;
      let xApi: avm.AVMApi;
      let pApi: pvm.PVMApi;
      let cApi: evm.EVMApi;
      let sdk: Avalanche;
      const at = () => ({ serverURL: data });

      before(async () => {
        const args = ['--network', 'fuji'];
        if (store === 'postgres') {
          cluster = await startPostgres();
          args.push('--database-url', await cluster.createDatabase('genesis'));
        }
        net = await startDevnet({ args });
        url = net.url;
        data = net.facts.urls.data;
        ctx = await Context.getContextFromURI(url);
        xApi = new avm.AVMApi(url);
        pApi = new pvm.PVMApi(url);
        cApi = new evm.EVMApi(url);
        sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
      });
      after(async () => {
        await net?.stop();
        await cluster?.stop();
      });

      /** Waits until the indexer holds everything X, P and C have accepted so far. */
      async function indexed(): Promise<void> {
        const last = (name: string) => lastIndex(`${url}/ext/index/${name}`);
        const want = { X: await last('X/block'), P: await last('P/block') };
        const cHead = Number(BigInt(await call(`${url}/ext/bc/C/rpc`, 'eth_blockNumber', [])));
        for (let i = 0; i < 400; i++) {
          const health = (await (await fetch(`${data}/v1/health-check`)).json()) as any;
          const cp = health.details.indexer.checkpoints;
          if (
            (cp['X/block'] ?? 0) > want.X &&
            (cp['P/block'] ?? 0) > want.P &&
            cp['X/genesis-block'] > 0 &&
            cp['P/genesis-block'] > 0 &&
            cp[`evm:${ctx.cBlockchainID}`] > cHead
          )
            return;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error('the indexer did not catch up');
      }

      /** Every UTXO of `address` on `chain`, walked to the end with page tokens. */
      async function listed(chain: 'x-chain' | 'p-chain' | 'c-chain', address: string, includeSpent = false) {
        const items: any[] = [];
        for await (const page of await sdk.data.primaryNetwork.utxos.listByAddressesV2(
          {
            blockchainId: chain,
            primaryNetworkAddressesBodyDto: { addresses: address },
            includeSpent,
            pageSize: 2,
          },
          at(),
        ))
          items.push(...(page.result.utxos as any[]));
        return items;
      }

      const balances = async (chain: 'x-chain' | 'p-chain' | 'c-chain', address: string) =>
        (
          await sdk.data.primaryNetwork.balances.listByAddresses(
            { blockchainId: chain, addresses: address },
            at(),
          )
        ).balances as any;

      /**
       * The atomic entries as the wire carries them (chainkit drops members the real X- and
       * C-chain shapes lack): the spec's atomic balance entry has `status` on every chain.
       */
      async function rawAtomic(chain: 'x-chain' | 'c-chain', address: string) {
        const res = await fetch(
          `${data}/v1/networks/fuji/blockchains/${chain}/balances?addresses=${address}`,
        );
        const body = (await res.json()) as any;
        return body.balances.atomicMemoryUnlocked.map((a: any) => [a.sharedWithChainId, a.status]);
      }

      /** The service's unlocked X-chain AVAX of the test key equals avm.getBalance; returns it. */
      async function xBalanceMatchesNode(): Promise<string> {
        const bal = await balances('x-chain', EWOQ_X);
        const node = await call(`${url}/ext/bc/X`, 'avm.getBalance', {
          address: EWOQ_X,
          assetID: ctx.avaxAssetID,
        });
        assert.equal(bal.unlocked.find((b: any) => b.assetId === ctx.avaxAssetID).amount, node.balance);
        return node.balance;
      }

      it('serves the prefunded key’s X-chain genesis UTXOs and balance as the node reports them', async () => {
        await indexed();
        const node = await call(`${url}/ext/bc/X`, 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'hex' });
        const expected = (node.utxos as string[]).map((h) => parse(utils.getManagerForVM('AVM'), h));
        assert.ok(expected.length > 0);
        const items = await listed('x-chain', EWOQ_X);
        assert.deepEqual(
          items.map((u) => `${u.creationTxHash}:${u.outputIndex}`).sort(),
          expected.map(idOf).sort(),
        );
        const genesis = items.find((u) => u.creationTxHash === ctx.avaxAssetID)!;
        assert.equal(genesis.utxoType, 'transfer');
        assert.equal(genesis.asset.symbol, 'AVAX');
        const { startTime } = await call(`${url}/ext/devnet`, 'devnet.getGenesis');
        assert.equal(genesis.timestamp, startTime);
        assert.equal(await xBalanceMatchesNode(), String(300_000_000n * AVAX));
      });

      it('serves the P-chain genesis UTXOs, balances and validators as the node reports them', async () => {
        const node = await call(`${url}/ext/bc/P`, 'platform.getUTXOs', {
          addresses: [EWOQ_P],
          encoding: 'hex',
        });
        const expected = (node.utxos as string[]).map((h) => parse(utils.getManagerForVM('PVM'), h));
        const items = await listed('p-chain', EWOQ_P);
        const unstaked = items.filter((u) => !u.staked);
        assert.deepEqual(
          unstaked.map((u) => `${u.txHash}:${u.outputIndex}`).sort(),
          expected.map(idOf).sort(),
        );
        assert.ok(unstaked.every((u) => u.blockNumber === '0' && u.txHash === ctx.pBlockchainID));

        const bal = await balances('p-chain', EWOQ_P);
        const nodeBalance = await call(`${url}/ext/bc/P`, 'platform.getBalance', { addresses: [EWOQ_P] });
        assert.equal(bal.unlockedUnstaked[0].amount, nodeBalance.unlocked);
        // The genesis validators' stake is owned by the test key: staked, as getStake says.
        const stake = await call(`${url}/ext/bc/P`, 'platform.getStake', { addresses: [EWOQ_P] });
        assert.equal(bal.unlockedStaked[0].amount, stake.staked);
        const { validators } = await pApi.getCurrentValidators();
        assert.equal(items.filter((u) => u.staked && u.utxoType === 'STAKE').length, validators.length);

        const v = validators[0];
        const details = await sdk.data.primaryNetwork.getValidatorDetails({ nodeId: v.nodeID }, at());
        const served = details.result.validators[0] as any;
        assert.equal(served.validationStatus, 'active');
        assert.equal(served.txHash, v.txID);
        assert.equal(served.amountStaked, String(v.weight));
        assert.equal(served.potentialRewards.validationRewardAmount, String(v.potentialReward));
        // The spec's validator record names `rewards` on every record; on the wire an active one
        // carries its potential rewards there too (chainkit's active shape drops the member).
        const wire = (await (await fetch(`${data}/v1/networks/fuji/validators/${v.nodeID}`)).json()) as any;
        assert.deepEqual(wire.validators[0].rewards, wire.validators[0].potentialRewards);
        assert.equal(wire.validators[0].rewards.validationRewardAmount, String(v.potentialReward));
        assert.equal(wire.validators[0].delegatorCount, 0);
        assert.equal(wire.validators[0].amountDelegated, '0');
      });

      it('marks spent genesis UTXOs consumed on X and on P', async () => {
        const { utxos: xUtxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
        const xTx = avm.newBaseTx(ctx, [EWOQ_ADDR], xUtxos, [
          TransferableOutput.fromNative(ctx.avaxAssetID, 1n * AVAX, [new Uint8Array(20).fill(7)]),
        ]);
        await addTxSignatures({ unsignedTx: xTx, privateKeys: [EWOQ_KEY] });
        const { txID: xSpend } = await xApi.issueSignedTx(xTx.getSignedTx());
        await waitAccepted(url, xSpend);
        const { utxos: pUtxos } = await pApi.getUTXOs({ addresses: [EWOQ_P] });
        const pSpend = await signAndIssue(
          pApi,
          pvm.newBaseTx(
            {
              feeState: await pApi.getFeeState(),
              fromAddressesBytes: [EWOQ_ADDR],
              utxos: pUtxos,
              outputs: [
                TransferableOutput.fromNative(ctx.avaxAssetID, 1n * AVAX, [new Uint8Array(20).fill(8)]),
              ],
            },
            ctx,
          ),
        );
        await indexed();

        const x = (await listed('x-chain', EWOQ_X, true)).find((u) => u.creationTxHash === ctx.avaxAssetID);
        assert.equal(x.consumingTxHash, xSpend);
        assert.equal(x.credentials.length, 1);
        const p = (await listed('p-chain', EWOQ_P, true)).filter((u) => u.txHash === ctx.pBlockchainID);
        assert.ok(p.some((u) => u.consumingTxHash === pSpend));
        // What is left unspent is again exactly the node's set.
        const left = await listed('p-chain', EWOQ_P);
        const { utxos: nodeLeft } = await pApi.getUTXOs({ addresses: [EWOQ_P] });
        assert.deepEqual(
          left
            .filter((u) => !u.staked)
            .map((u) => `${u.txHash}:${u.outputIndex}`)
            .sort(),
          nodeLeft.map(idOf).sort(),
        );
        await xBalanceMatchesNode();
      });

      /** The C-chain's base fee in nAVAX, rounded up. */
      const baseFeeNano = async () => ((await cApi.getBaseFee()) + AVAX - 1n) / AVAX;
      const atomicAccepted = async (txID: string) => {
        for (let i = 0; i < 200; i++) {
          if ((await cApi.getAtomicTxStatus(txID)).status === 'Accepted') return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`atomic tx ${txID} was not accepted`);
      };

      it('shows an X → C export consumed once the C-chain imports it', async () => {
        const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
        const exp = avm.newExportTx(ctx, ctx.cBlockchainID, [EWOQ_ADDR], utxos, [
          TransferableOutput.fromNative(ctx.avaxAssetID, 5n * AVAX, [EWOQ_ADDR]),
        ]);
        await addTxSignatures({ unsignedTx: exp, privateKeys: [EWOQ_KEY] });
        const { txID: exportTx } = await xApi.issueSignedTx(exp.getSignedTx());
        await waitAccepted(url, exportTx);
        await indexed();
        const pending = await balances('c-chain', EWOQ_C);
        assert.deepEqual(
          pending.atomicMemoryUnlocked.map((a: any) => [a.amount, a.sharedWithChainId]),
          [[String(5n * AVAX), ctx.xBlockchainID]],
        );
        assert.deepEqual(await rawAtomic('c-chain', EWOQ_C), [[ctx.xBlockchainID, 'pendingImport']]);

        const atomic = await cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
        assert.equal(atomic.utxos.length, 1);
        const imp = evm.newImportTxFromBaseFee(
          ctx,
          utils.hexToBuffer(EWOQ_EVM),
          [EWOQ_ADDR],
          atomic.utxos,
          ctx.xBlockchainID,
          await baseFeeNano(),
        );
        await addTxSignatures({ unsignedTx: imp, privateKeys: [EWOQ_KEY] });
        const { txID: importTx } = await cApi.issueSignedTx(imp.getSignedTx());
        await atomicAccepted(importTx);
        await indexed();

        assert.deepEqual((await balances('c-chain', EWOQ_C)).atomicMemoryUnlocked, []);
        const spent = (await listed('c-chain', EWOQ_C, true)).find((u) => u.creationTxHash === exportTx);
        assert.equal(spent.createdOnChainId, ctx.xBlockchainID);
        assert.equal(spent.consumedOnChainId, ctx.cBlockchainID);
        assert.equal(spent.consumingTxHash, importTx);
        assert.equal(spent.credentials.length, 1);
        assert.match(spent.credentials[0].publicKey, /^0x0[23][0-9a-f]{64}$/);
        assert.deepEqual(await listed('c-chain', EWOQ_C), [], 'nothing left unspent');
      });

      it('lists a C → X export in X-chain atomic memory until the X-chain imports it', async () => {
        const exp = evm.newExportTxFromBaseFee(
          ctx,
          await baseFeeNano(),
          2n * AVAX,
          ctx.xBlockchainID,
          utils.hexToBuffer(EWOQ_EVM),
          [EWOQ_ADDR],
          BigInt(await call(`${url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest'])),
        );
        await addTxSignatures({ unsignedTx: exp, privateKeys: [EWOQ_KEY] });
        const { txID: exportTx } = await cApi.issueSignedTx(exp.getSignedTx());
        await atomicAccepted(exportTx);
        await indexed();
        const pending = await balances('x-chain', EWOQ_X);
        assert.deepEqual(
          pending.atomicMemoryUnlocked.map((a: any) => [a.amount, a.sharedWithChainId, a.utxoCount]),
          [[String(2n * AVAX), ctx.cBlockchainID, 1]],
        );
        assert.deepEqual(await rawAtomic('x-chain', EWOQ_X), [[ctx.cBlockchainID, 'pendingImport']]);

        const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X], sourceChain: 'C' });
        assert.equal(utxos.length, 1);
        const exported = (await listed('x-chain', EWOQ_X)).find((u) => u.creationTxHash === exportTx);
        assert.equal(exported.utxoId, utxos[0].ID());
        const imp = avm.newImportTx(ctx, ctx.cBlockchainID, utxos, [EWOQ_ADDR], [EWOQ_ADDR]);
        await addTxSignatures({ unsignedTx: imp, privateKeys: [EWOQ_KEY] });
        const { txID: importTx } = await xApi.issueSignedTx(imp.getSignedTx());
        await waitAccepted(url, importTx);
        await indexed();

        assert.deepEqual((await balances('x-chain', EWOQ_X)).atomicMemoryUnlocked, []);
        const spent = (await listed('x-chain', EWOQ_X, true)).find((u) => u.creationTxHash === exportTx);
        assert.equal(spent.createdOnChainId, ctx.cBlockchainID);
        assert.equal(spent.consumingTxHash, importTx);
        // The wire also carries the spec's UTXO list members for the spend (chainkit drops them).
        const raw = (await (
          await fetch(`${data}/v1/networks/fuji/blockchains/x-chain/utxos?includeSpent=true&pageSize=100`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ addresses: EWOQ_X }),
          })
        ).json()) as any;
        const wire = raw.utxos.find((u: any) => u.creationTxHash === exportTx);
        assert.equal(wire.txHash, exportTx);
        assert.equal(wire.consumingBlockTimestamp, wire.consumingTxTimestamp);
        assert.match(wire.consumingBlockNumber, /^[1-9]\d*$/);
      });

      it('pays the genesis validators: completed with their rewards, stake back as the node lists it', async () => {
        const genesisValidators = (await pApi.getCurrentValidators()).validators;
        const end = Math.max(...genesisValidators.map((v) => Number(v.endTime)));
        const now = Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000);
        await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: end - now + 60 });
        for (let i = 0; i < 400 && (await pApi.getCurrentValidators()).validators.length > 0; i++)
          await new Promise((r) => setTimeout(r, 25));
        await indexed();

        const v = genesisValidators[0];
        const details = await sdk.data.primaryNetwork.getValidatorDetails({ nodeId: v.nodeID }, at());
        const served = details.result.validators[0] as any;
        assert.equal(served.validationStatus, 'completed');
        const paid = await pApi.getRewardUTXOs({ txID: v.txID });
        assert.ok(paid.utxos.length > 0);
        assert.equal(
          BigInt(served.rewards.validationRewardAmount) + BigInt(served.rewards.delegationRewardAmount),
          paid.utxos.reduce((sum, u: any) => sum + (u.output.amount() as bigint), 0n),
        );
        const rewards = await sdk.data.primaryNetwork.rewards.listHistoricalRewards(
          { nodeIds: v.nodeID },
          at(),
        );
        assert.deepEqual(
          (rewards.result.historicalRewards as any[]).map((r) => [r.txHash, r.nodeId, r.amountStaked]),
          paid.utxos.map(() => [v.txID, v.nodeID, String(v.weight)]),
        );
        // Returned stake and rewards: the unspent set is the node's again, nothing staked.
        const items = await listed('p-chain', EWOQ_P);
        assert.ok(items.every((u) => !u.staked));
        const { utxos: nodeUtxos } = await pApi.getUTXOs({ addresses: [EWOQ_P] });
        assert.deepEqual(items.map((u) => `${u.txHash}:${u.outputIndex}`).sort(), nodeUtxos.map(idOf).sort());
      });
    },
  );
}

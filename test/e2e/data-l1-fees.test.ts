/**
 * L1 validator fees through chainkit (metrics.l1Validators.*): the continuous fee each L1
 * validation paid per day, replayed by the indexer from the P-chain's blocks, must be exactly
 * what the P-chain took from its balance — a conversion's validators, one registered later, a
 * balance top-up, a validator whose balance ran out, one disabled and one removed (the last two
 * refunded what was left) — split at UTC midnight as the clock moves over days.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { Context, pvm, utils } from '@avalabs/avalanchejs';
import { sql } from 'kysely';
import { createDatabase, type DataDatabase } from '../../src/data/store/database.js';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { collectPages, lastIndex, startRole, waitIndexed } from './data-helpers.js';
import {
  blsKey,
  convertedL1,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_P,
  l1Validator,
  pResult,
  registerPayload,
  signAndIssue,
  signedWarp,
  testNodeId,
  weightPayload,
} from './pchain-helpers.js';

const AVAX = 1_000_000_000n;
const DAY = 86_400;
const MANAGER = utils.hexToBuffer('0x' + 'fe'.repeat(20));

interface Point {
  timestamp: number;
  value: number;
}

describe('L1 validator fees through chainkit', () => {
  let net: Devnet;
  let api: pvm.PVMApi;
  let metricsUrl: string;
  const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
  /** chainkit on the data service's P-chain routes (the devnet answers as Fuji there). */
  const fuji = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
  const dataAt = () => ({ serverURL: net.facts.urls.data! });
  const keys = [blsKey('fee-0'), blsKey('fee-1'), blsKey('fee-2'), blsKey('fee-3')];
  /** Each validation's deposits and refunds, as the test made them. */
  const paidIn = new Map<string, bigint>();
  let subnetId: string;
  let validations: { id: string; nodeId: string }[] = [];
  let exhausted: string;
  let disabled: string;
  let removed: string;
  const txs: Record<'convert' | 'register' | 'increase' | 'remove' | 'disable', string> = {} as any;
  const refunds = { remove: 0n, disable: 0n };
  /** The refund's output index: after the tx's own outputs. */
  const refundIndex = { remove: 0, disable: 0 };

  /** The refund a disable or removal paid back: its output past the tx's own outputs. */
  async function refundOf(txId: string, ownOutputs: number): Promise<bigint> {
    const { utxos } = await api.getUTXOs({ addresses: [EWOQ_P] });
    const refund = utxos.find(
      (u) => u.utxoId.txID.toString() === txId && u.utxoId.outputIdx.value() === ownOutputs,
    );
    return refund ? (refund.output as any).amount() : 0n;
  }

  const series = async (call: Promise<{ results: Point[] }>) => (await call).results;
  const opts = () => ({ serverURL: metricsUrl });

  before(async () => {
    net = await startDevnet();
    metricsUrl = net.facts.urls.metrics!;
    api = new pvm.PVMApi(net.url);
    const ctx = await Context.getContextFromURI(net.url);
    const base = async () => ({
      feeState: await api.getFeeState(),
      fromAddressesBytes: [EWOQ_ADDR],
      utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
    });
    const now = async () => BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
    // Three validators: 1 AVAX, 1 AVAX and 5,000 nAVAX (1 nAVAX a second on local: 5,000 s).
    const balances = [AVAX, AVAX, 5_000n];
    const l1 = await convertedL1(api, ctx, {
      chainName: 'feechain',
      manager: MANAGER,
      validators: balances.map((b, i) => l1Validator(testNodeId(90 + i), 10n, b, keys[i]!)),
    });
    ({ subnetId, convertTx: txs.convert } = l1);
    const chainId = l1.chainId;
    const current = (await pResult(net.url, 'platform.getCurrentL1Validators', { subnetID: subnetId }))
      .validators as { validationID: string; nodeID: string; balance: string }[];
    for (const v of current) paidIn.set(v.validationID, BigInt(v.balance));
    const byNode = (n: number) => current.find((v) => v.nodeID === testNodeId(90 + n))!.validationID;

    // A fourth registers, signed by all three (the bitset names every validator).
    const registration = registerPayload(
      subnetId,
      testNodeId(93),
      keys[3]!,
      (await now()) + 300n,
      EWOQ_ADDR,
      5n,
    );
    const message = signedWarp(12345, chainId, MANAGER, registration, keys.slice(0, 3), new Uint8Array([7]));
    txs.register = await signAndIssue(
      api,
      pvm.newRegisterL1ValidatorTx(
        { ...(await base()), balance: AVAX, blsSignature: keys[3]!.pop, message },
        ctx,
      ),
    );
    removed = (
      await pResult(net.url, 'platform.getCurrentL1Validators', { subnetID: subnetId })
    ).validators.find((v: any) => v.nodeID === testNodeId(93)).validationID;
    paidIn.set(removed, AVAX);
    // It validates (and pays) for a minute before its removal.
    await pResult(net.url, 'platform.advanceTime', { seconds: 60 });

    // The first is topped up.
    const toppedUp = byNode(0);
    txs.increase = await signAndIssue(
      api,
      pvm.newIncreaseL1ValidatorBalanceTx({ ...(await base()), validationId: toppedUp, balance: AVAX }, ctx),
    );
    paidIn.set(toppedUp, paidIn.get(toppedUp)! + AVAX);

    // The fourth is removed by its manager: weight 0, signed by all four.
    const removal = signedWarp(
      12345,
      chainId,
      MANAGER,
      weightPayload(removed, 1n, 0n),
      keys,
      new Uint8Array([15]),
    );
    const removeTx = pvm.newSetL1ValidatorWeightTx({ ...(await base()), message: removal }, ctx);
    txs.remove = await signAndIssue(api, removeTx);
    refundIndex.remove = (removeTx.getTx() as any).baseTx.outputs.length;
    refunds.remove = await refundOf(txs.remove, refundIndex.remove);
    paidIn.set(removed, paidIn.get(removed)! - refunds.remove);

    // The third runs dry as the clock moves 6,000 s; then the second is disabled.
    await pResult(net.url, 'platform.advanceTime', { seconds: 6_000 });
    exhausted = byNode(2);
    disabled = byNode(1);
    const disableTx = pvm.newDisableL1ValidatorTx(
      { ...(await base()), validationId: disabled, disableAuth: [0] },
      ctx,
    );
    txs.disable = await signAndIssue(api, disableTx, [EWOQ_KEY], EWOQ_KEY);
    refundIndex.disable = (disableTx.getTx() as any).baseTx.outputs.length;
    refunds.disable = await refundOf(txs.disable, refundIndex.disable);
    paidIn.set(disabled, paidIn.get(disabled)! - refunds.disable);

    // Two days pass, in steps, so fees fall on several days.
    await pResult(net.url, 'platform.advanceTime', { seconds: DAY });
    await pResult(net.url, 'platform.advanceTime', { seconds: DAY });
    await waitIndexed(net.url, net.facts.urls.data!);
    validations = [...paidIn.keys()].map((id) => ({
      id,
      nodeId: [...current, { validationID: removed, nodeID: testNodeId(93) }].find(
        (v) => v.validationID === id,
      )!.nodeID,
    }));
  });
  let cluster: PostgresCluster | undefined;
  after(async () => {
    await net?.stop();
    await cluster?.stop();
  });

  it('charges each validation exactly what left its balance, day by day', async () => {
    const total = (points: Point[]) => points.reduce((s, p) => s + BigInt(p.value), 0n);
    for (const { id } of validations) {
      const daily = await series(
        sdk.metrics.l1Validators.getMetricsByValidationId(
          { l1ValidationId: id, metric: 'validationFeesDaily' },
          opts(),
        ),
      );
      // A removed validation is gone from the P-chain: nothing is left of its balance.
      const balance = id === removed ? 0n : (await api.getL1Validator(id)).balance;
      // What went in (deposits less refunds) is what was paid plus what is left.
      assert.equal(total(daily), paidIn.get(id)! - balance, `validation ${id}`);
      assert.ok(
        daily.every((p) => p.timestamp % DAY === 0),
        'days start at UTC midnight',
      );
      for (let i = 1; i < daily.length; i++) assert.equal(daily[i - 1]!.timestamp - daily[i]!.timestamp, DAY);
    }
    const exhaustedDaily = await series(
      sdk.metrics.l1Validators.getMetricsByValidationId(
        { l1ValidationId: exhausted, metric: 'validationFeesDaily' },
        opts(),
      ),
    );
    assert.equal(total(exhaustedDaily), 5_000n, 'the validator that ran dry paid its whole balance');
    assert.equal((await api.getL1Validator(disabled)).balance, 0n);
  });

  it('sums validations per day, per node and per L1, with cumulative values and paying counts', async () => {
    const all = await series(
      sdk.metrics.l1Validators.listMetrics({ metric: 'totalValidatorFeesDaily' }, opts()),
    );
    assert.ok(all.length >= 3, `fees on ${all.length} days`);
    // Newest first, one entry a day.
    for (let i = 1; i < all.length; i++) assert.equal(all[i - 1]!.timestamp - all[i]!.timestamp, DAY);
    const perValidation = new Map<number, bigint>();
    const payers = new Map<number, number>();
    for (const { id, nodeId } of validations) {
      const daily = await series(
        sdk.metrics.l1Validators.getMetricsByValidationId(
          { l1ValidationId: id, metric: 'validationFeesDaily' },
          opts(),
        ),
      );
      const byNode = await series(
        sdk.metrics.l1Validators.getMetricsByNodeId({ nodeId, metric: 'perNodeDailyFeesPaid' }, opts()),
      );
      assert.deepEqual(byNode, daily, 'one validation per node');
      for (const p of daily) {
        perValidation.set(p.timestamp, (perValidation.get(p.timestamp) ?? 0n) + BigInt(p.value));
        if (p.value > 0) payers.set(p.timestamp, (payers.get(p.timestamp) ?? 0) + 1);
      }
    }
    for (const p of all)
      assert.equal(BigInt(p.value), perValidation.get(p.timestamp) ?? 0n, `day ${p.timestamp}`);
    const subnet = await series(
      sdk.metrics.l1Validators.getMetricsBySubnetId({ subnetId, metric: 'perSubnetDailyFeesPaid' }, opts()),
    );
    assert.deepEqual(subnet, all, 'the one L1 pays every fee');

    const cumulative = await series(
      sdk.metrics.l1Validators.listMetrics({ metric: 'totalCumulativeFeesDaily' }, opts()),
    );
    let running = 0;
    for (const p of [...all].reverse()) {
      running += p.value;
      assert.equal(cumulative.find((c) => c.timestamp === p.timestamp)!.value, running);
    }
    const paying = await series(
      sdk.metrics.l1Validators.listMetrics({ metric: 'totalPayingValidatorsDaily' }, opts()),
    );
    for (const p of paying) assert.equal(p.value, payers.get(p.timestamp) ?? 0, `payers on ${p.timestamp}`);
    assert.equal(paying[paying.length - 1]!.value, 4, 'all four paid on the first day');
    assert.equal(paying[0]!.value, 1, 'only the topped-up validator pays at the end');

    // A range keeps its days; a cumulative value still counts the days before it.
    const [newest, previous] = all;
    const ranged = await series(
      sdk.metrics.l1Validators.listMetrics(
        {
          metric: 'totalCumulativeFeesDaily',
          startTimestamp: previous!.timestamp,
          endTimestamp: previous!.timestamp,
        },
        opts(),
      ),
    );
    assert.deepEqual(ranged, [cumulative.find((c) => c.timestamp === previous!.timestamp)]);
    assert.equal(cumulative[0]!.timestamp, newest!.timestamp);

    // The supply figures count the same fees, in AVAX.
    const supply = (await (await fetch(`${net.facts.urls.data}/v1/avax/supply`)).json()) as any;
    const fees = BigInt(cumulative[0]!.value);
    assert.equal(Number(supply.l1ValidatorFees), Number(fees) / 1e9);
    assert.ok(fees > 0n);
    // The P-chain burned its txs' fees and the validator fees, not the balances deposited (over
    // 3 AVAX here, most of it refunded or still held).
    const txFees = Number(supply.totalPBurned) - Number(supply.l1ValidatorFees);
    assert.ok(txFees > 0 && txFees < 0.1, `P-chain tx fees ${txFees} AVAX`);
  });

  it('lists the validators each L1 transaction registered or changed, and the balance it locked', async () => {
    const dataSdk = new Avalanche({
      network: 'fuji',
      enableTelemetry: false,
      retryConfig: { strategy: 'none' },
    });
    const tx = async (txHash: string) =>
      (await dataSdk.data.primaryNetwork.transactions.get(
        { blockchainId: 'p-chain', txHash },
        { serverURL: net.facts.urls.data! },
      )) as any;
    const burned = (t: any) => t.amountL1ValidatorBalanceBurned.map((a: any) => BigInt(a.amount));
    const pick = (t: any) =>
      t.l1ValidatorDetails.map((d: any) => [d.nodeId, d.weight, d.remainingBalance, d.balanceChange]);

    const convert = await tx(txs.convert);
    assert.deepEqual(pick(convert), [
      [testNodeId(90), 10, 1e9, 1e9],
      [testNodeId(91), 10, 1e9, 1e9],
      [testNodeId(92), 10, 5_000, 5_000],
    ]);
    assert.deepEqual(
      convert.l1ValidatorDetails.map((d: any) => d.validationId).sort(),
      validations
        .filter((v) => v.id !== removed)
        .map((v) => v.id)
        .sort(),
    );
    const first = convert.l1ValidatorDetails[0];
    assert.equal(
      first.validationIdHex,
      '0x' + Buffer.from(utils.base58check.decode(first.validationId)).toString('hex'),
    );
    // chainkit's schema keeps blsCredentials empty (z.object({})): the key is read from the JSON.
    const raw = async (txHash: string) =>
      (await (
        await fetch(`${net.facts.urls.data}/v1/networks/fuji/blockchains/p-chain/transactions/${txHash}`)
      ).json()) as any;
    assert.equal(
      (await raw(txs.convert)).l1ValidatorDetails[0].blsCredentials.publicKey,
      utils.bufferToHex(keys[0]!.publicKey),
    );
    assert.deepEqual(burned(convert), [2n * AVAX + 5_000n]);

    const register = await tx(txs.register);
    assert.deepEqual(pick(register), [[testNodeId(93), 5, 1e9, 1e9]]);
    assert.equal(register.l1ValidatorDetails[0].validationId, removed);
    assert.equal(
      (await raw(txs.register)).l1ValidatorDetails[0].blsCredentials.publicKey,
      utils.bufferToHex(keys[3]!.publicKey),
    );

    const increase = await tx(txs.increase);
    const [topped] = increase.l1ValidatorDetails;
    assert.equal(topped.balanceChange, 1e9);
    assert.ok(topped.remainingBalance > 1e9 && topped.remainingBalance < 2e9, `${topped.remainingBalance}`);
    assert.deepEqual(burned(increase), [AVAX]);

    // A removal and a disable give the rest back: a negative change, nothing locked.
    const remove = await tx(txs.remove);
    assert.deepEqual(pick(remove), [[testNodeId(93), 0, 0, -Number(refunds.remove)]]);
    assert.ok(refunds.remove > 0n);
    assert.deepEqual(burned(remove), []);
    const disable = await tx(txs.disable);
    assert.deepEqual(pick(disable), [[testNodeId(91), 10, 0, -Number(refunds.disable)]]);
    assert.deepEqual(burned(disable), []);
  });

  it("lists a removal's and a disable's refund as that tx's output, as the P-chain holds it", async () => {
    const at = dataAt();
    for (const name of ['remove', 'disable'] as const) {
      // The P-chain pays the rest of the balance back as the output after the tx's own outputs.
      const got = (await fuji.data.primaryNetwork.transactions.get(
        { blockchainId: 'p-chain', txHash: txs[name] },
        at,
      )) as any;
      const refund = got.emittedUtxos.find((u: any) => u.outputIndex === refundIndex[name]);
      assert.ok(refund, `${name}: the refund is among the emitted UTXOs`);
      assert.equal(refund.amount, String(refunds[name]));
      assert.deepEqual(refund.addresses, [EWOQ_P.slice(2)]);
      assert.equal(refund.utxoType, 'TRANSFER');
    }
    // So the owner's balance is the node's (a later tx may spend a refund, as any output).
    const node = await pResult(net.url, 'platform.getBalance', { addresses: [EWOQ_P] });
    const balances = (await fuji.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'p-chain', addresses: EWOQ_P },
      at,
    )) as any;
    assert.equal(balances.balances.unlockedUnstaked[0].amount, node.unlocked);
  });

  it('lists the P-chain transactions of one L1 validation (l1ValidationId), newest first', async () => {
    const at = dataAt();
    const of = async (l1ValidationId: string, extra: Record<string, unknown> = {}) =>
      (
        await collectPages<any>(
          await fuji.data.primaryNetwork.transactions.listLatest(
            { blockchainId: 'p-chain', l1ValidationId, pageSize: 1, ...extra },
            at,
          ),
          'transactions',
        )
      ).items.map((t) => t.txHash);
    const byNode = (n: number) => validations.find((v) => v.nodeId === testNodeId(90 + n))!.id;
    // Registered, then removed; converted, then topped up; converted, then disabled.
    assert.deepEqual(await of(removed), [txs.remove, txs.register]);
    assert.deepEqual(await of(byNode(0)), [txs.increase, txs.convert]);
    assert.deepEqual(await of(byNode(1)), [txs.disable, txs.convert]);
    assert.deepEqual(await of(byNode(0), { sortOrder: 'asc' }), [txs.convert, txs.increase]);
    assert.deepEqual(await of(byNode(1), { txTypes: ['DisableL1ValidatorTx'] }), [txs.disable]);
    // A validation id no transaction names lists nothing; one that is not an id is a 400.
    assert.deepEqual(await of(subnetId), []);
    const bad = await fetch(
      `${net.facts.urls.data}/v1/networks/fuji/blockchains/p-chain/transactions?l1ValidationId=not-an-id`,
    );
    assert.equal(bad.status, 400);
  });

  it("gives each P-chain block the L1 validators active after it and the fee counter's value", async () => {
    const at = { serverURL: net.facts.urls.data! };
    const fuji = new Avalanche({
      network: 'fuji',
      enableTelemetry: false,
      retryConfig: { strategy: 'none' },
    });
    const blocks = (
      await collectPages<any>(
        await fuji.data.primaryNetwork.blocks.listLatest({ blockchainId: 'p-chain', pageSize: 7 }, at),
        'blocks',
      )
    ).items.reverse();
    assert.equal(blocks[0].blockNumber, '0');
    const holding = (txHash: string) => blocks.find((b) => b.transactions.includes(txHash))!;
    // Conversion: 3; registration: 4; removal: 3; the third ran dry and the second was
    // disabled: only the topped-up first is left.
    assert.equal(holding(txs.convert).activeL1Validators, 3);
    assert.equal(holding(txs.register).activeL1Validators, 4);
    assert.equal(holding(txs.increase).activeL1Validators, 4);
    assert.equal(holding(txs.remove).activeL1Validators, 3);
    assert.equal(holding(txs.disable).activeL1Validators, 1);
    assert.equal(blocks.at(-1).activeL1Validators, 1);
    for (let i = 1; i < blocks.length; i++)
      assert.ok(blocks[i].l1ValidatorsAccruedFees >= blocks[i - 1].l1ValidatorsAccruedFees, 'never falls');
    assert.equal(blocks[0].l1ValidatorsAccruedFees, 0);
    // The topped-up validator was active throughout: what left its balance is exactly what the
    // counter moved between its conversion and the last block.
    const toppedUp = validations.find((v) => v.nodeId === testNodeId(90))!.id;
    const paid = paidIn.get(toppedUp)! - (await api.getL1Validator(toppedUp)).balance;
    const moved = blocks.at(-1).l1ValidatorsAccruedFees - holding(txs.convert).l1ValidatorsAccruedFees;
    assert.equal(BigInt(moved), paid);
    // The same through the single-block route; X-chain blocks have no L1 state.
    const last = await fuji.data.primaryNetwork.blocks.get(
      { blockchainId: 'p-chain', blockId: blocks.at(-1).blockNumber },
      at,
    );
    assert.equal(last.l1ValidatorsAccruedFees, blocks.at(-1).l1ValidatorsAccruedFees);
    const x = await fuji.data.primaryNetwork.blocks.get({ blockchainId: 'x-chain', blockId: '0' }, at);
    assert.equal(x.activeL1Validators, undefined);
    assert.equal(x.l1ValidatorsAccruedFees, undefined);
  });

  it('answers bad input with 400 and an unknown validation with no days', async () => {
    const get = async (path: string) => {
      const res = await fetch(metricsUrl + path);
      return { status: res.status, body: (await res.json()) as any };
    };
    for (const path of [
      '/v2/validators/metrics/validationFeesDaily',
      '/v2/validation/notanid/metrics/validationFeesDaily',
      '/v2/validator/NodeID-xyz/metrics/perNodeDailyFeesPaid',
      `/v2/subnet/${subnetId}/metrics/totalValidatorFeesDaily`,
      '/v2/validators/metrics/totalValidatorFeesDaily?startTimestamp=-1',
      '/v2/validators/metrics/totalValidatorFeesDaily?startTimestamp=20&endTimestamp=10',
    ]) {
      const { status, body } = await get(path);
      assert.equal(status, 400, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.statusCode, 400, path);
      assert.equal(body.error, 'Bad Request', path);
    }
    const unknown = await get(`/v2/validation/${subnetId}/metrics/validationFeesDaily`);
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body, { results: [] });
  });

  it(
    'replays the same fees into PostgreSQL, one block a batch, across a SIGKILL',
    { skip: postgresUnavailable() },
    async () => {
      cluster = await startPostgres();
      const store = {
        dataDir: tempDir('flurry-l1fees-'),
        databaseUrl: await cluster.createDatabase('l1fees'),
      };
      const args = [
        'indexer',
        '--node-url',
        net.url,
        '--data-dir',
        store.dataDir,
        '--indexer-batch-size',
        '1',
      ];
      args.push('--database-url', store.databaseUrl);
      const pg = await createDatabase(store);
      const sqlite = await createDatabase({ dataDir: net.dataDir });
      const pBlocks = async (database: DataDatabase) =>
        Number(
          (
            await database.db
              .selectFrom('checkpoints')
              .select('next_index')
              .where('source', '=', 'P/block')
              .executeTakeFirst()
          )?.next_index ?? 0,
        );
      const dump = async (database: DataDatabase) => {
        const out: Record<string, unknown[]> = {};
        for (const [table, order, columns = '*'] of [
          ['l1_fee_state', 'chain_id'],
          ['l1_validator_balances', 'validation_id'],
          ['l1_validator_fees', 'validation_id, day'],
          ['blocks', 'chain_id, height', 'chain_id, height, active_l1_validators, l1_accrued_fees'],
        ]) {
          const { rows } = await sql
            .raw(`SELECT ${columns} FROM ${table} ORDER BY ${order}`)
            .execute(database.db);
          out[table] = rows.map((r: any) =>
            Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])),
          );
        }
        return out;
      };
      try {
        const lastP = await lastIndex(`${net.url}/ext/index/P/block`);
        let role = await startRole(args);
        // Killed once a few blocks are in: the conversion and registration are behind it.
        for (let i = 0; i < 4000 && (await pBlocks(pg)) < 4; i++) await new Promise((r) => setTimeout(r, 2));
        role.child.kill('SIGKILL');
        await role.exited;
        assert.ok((await pBlocks(pg)) <= lastP, 'killed before the end');
        role = await startRole(args);
        for (let i = 0; i < 3000 && (await pBlocks(pg)) <= lastP; i++)
          await new Promise((r) => setTimeout(r, 20));
        role.child.kill('SIGTERM');
        await role.exited;
        assert.equal(await pBlocks(pg), lastP + 1);
        const want = await dump(sqlite);
        assert.equal(want.l1_validator_fees!.length > 4, true, 'fees on several days');
        assert.deepEqual(await dump(pg), want);
      } finally {
        await pg.close();
        await sqlite.close();
      }
    },
  );
});

/**
 * Applies the rows of a range of EVM blocks and advances the chain's checkpoint in ONE
 * transaction, metric buckets included: a crash leaves the store before or after the whole
 * range, and resuming from the checkpoint neither loses nor double-counts anything.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DataSchema } from '../../store/schema.js';
import { CheckpointConflictError, readCheckpoint, writeUtxoRows } from '../../store/batch.js';
import { SPANS, bucketStart, type Span } from '../../metrics/buckets.js';
import type { AtomicRows } from './atomic-txs.js';
import { writeTransactionAddresses } from '../../store/transaction-addresses.js';
import { addToTotal, TOTAL } from '../../store/supply-totals.js';
import type { DecodedBlock } from './decode-block.js';
import { writeIcmRows } from './write-icm.js';
import { lockSourceWrites, lockUtxoWrites } from '../../store/cross-chain-lock.js';

export interface ContractInfo {
  address: string;
  ercType?: string;
  name?: string | null;
  symbol?: string | null;
  decimals?: number | null;
}

export interface EvmBatch {
  chain: number;
  blocks: DecodedBlock[];
  /** Classification and metadata of contracts first seen in this range. */
  contracts: ContractInfo[];
  /** C-chain: the primary-network UTXO rows and spends of the range's atomic txs. */
  atomic?: AtomicRows;
  /** The chain's blockchain id: its ICM messages' end on this chain (none written without it). */
  blockchainId?: string;
}

const CHUNK = 400;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Token ids sort as text once padded to the width of 2^256. */
export function tokenKey(tokenId: bigint): string {
  return tokenId.toString().padStart(78, '0');
}

/** The C-chain's atomic txs: their transaction rows, UTXOs and spends, and address rows. */
async function writeAtomicRows(trx: Transaction<DataSchema>, atomic: AtomicRows): Promise<void> {
  for (const part of chunks(atomic.transactions)) await trx.insertInto('transactions').values(part).execute();
  await writeUtxoRows(trx, atomic.utxos, atomic.spends);
  if (atomic.transactions.length > 0)
    await addToTotal(trx, TOTAL.burned(atomic.transactions[0]!.chain_id), atomic.burned);
  await writeTransactionAddresses(trx, {
    transactions: atomic.transactions,
    utxos: atomic.utxos,
    touched: [...atomic.utxos.map((u) => u.utxo_id), ...atomic.spends.map((s) => s.utxo_id)],
    extra: atomic.addresses,
  });
}

export function evmSource(blockchainId: string): string {
  return `evm:${blockchainId}`;
}

export async function writeEvmBatch(
  db: Kysely<DataSchema>,
  source: string,
  fromBlock: number,
  toBlock: number,
  batch: EvmBatch,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockSourceWrites(trx, source);
    // A range with atomic txs writes UTXOs and spends the X and P indexers also write.
    const atomic = batch.atomic;
    if (atomic && (atomic.utxos.length > 0 || atomic.spends.length > 0)) await lockUtxoWrites(trx);
    const current = await readCheckpoint(trx, source);
    if (current !== fromBlock) throw new CheckpointConflictError(source, fromBlock, current);
    const { blocks } = batch;

    // Running transaction count: the store's newest block of the chain carries the total so far.
    const before = await trx
      .selectFrom('evm_blocks')
      .select('cumulative_txs')
      .where('chain', '=', batch.chain)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    let total = Number(before?.cumulative_txs ?? 0);
    for (const b of blocks) b.block.cumulative_txs = total += Number(b.block.tx_count);
    for (const part of chunks(blocks.map((b) => b.block)))
      await trx.insertInto('evm_blocks').values(part).execute();
    for (const part of chunks(
      blocks.flatMap((b) => b.nativeTxs),
      300,
    ))
      await trx.insertInto('evm_native_txs').values(part).execute();
    for (const part of chunks(blocks.flatMap((b) => b.tokenTransfers)))
      await trx.insertInto('evm_token_transfers').values(part).execute();
    for (const part of chunks(blocks.flatMap((b) => b.internalTxs)))
      await trx.insertInto('evm_internal_txs').values(part).execute();

    if (batch.atomic) await writeAtomicRows(trx, batch.atomic);
    if (batch.blockchainId)
      await writeIcmRows(
        trx,
        batch.blockchainId,
        batch.chain,
        blocks.flatMap((b) => b.icm),
      );
    await writeContracts(trx, batch);
    await writeNfts(trx, batch);
    await writeMetrics(trx, batch);

    const now = Date.now();
    await trx
      .insertInto('checkpoints')
      .values({ source, next_index: toBlock, updated_at_ms: now })
      .onConflict((oc) => oc.column('source').doUpdateSet({ next_index: toBlock, updated_at_ms: now }))
      .execute();
  });
}

async function writeContracts(trx: Transaction<DataSchema>, batch: EvmBatch): Promise<void> {
  const { chain } = batch;
  const info = new Map(batch.contracts.map((c) => [c.address, c]));
  const deployments = batch.blocks.flatMap((b) => b.deployments);
  const deployed = new Set(deployments.map((d) => d.address));
  for (const d of deployments) {
    const c = info.get(d.address);
    const deployment = {
      tx_hash: d.txHash,
      block_number: d.blockNumber,
      deployer: d.deployer,
      deployer_contract: d.deployerContract,
    };
    await trx
      .insertInto('evm_contracts')
      .values({
        chain,
        address: d.address,
        erc_type: c?.ercType ?? 'UNKNOWN',
        name: c?.name ?? null,
        symbol: c?.symbol ?? null,
        decimals: c?.decimals ?? null,
        ...deployment,
      })
      .onConflict((oc) => oc.columns(['chain', 'address']).doUpdateSet(deployment))
      .execute();
  }
  for (const c of batch.contracts) {
    if (deployed.has(c.address)) continue;
    const meta = {
      erc_type: c.ercType ?? 'UNKNOWN',
      name: c.name ?? null,
      symbol: c.symbol ?? null,
      decimals: c.decimals ?? null,
    };
    await trx
      .insertInto('evm_contracts')
      .values({
        chain,
        address: c.address,
        ...meta,
        tx_hash: null,
        block_number: null,
        deployer: null,
        deployer_contract: null,
      })
      .onConflict((oc) => oc.columns(['chain', 'address']).doUpdateSet(meta))
      .execute();
  }
  const rows = deployments.flatMap((d) => {
    const seq = d.txIndex * 100_000 + d.traceIndex;
    const base = { chain, block_number: d.blockNumber, seq, address: d.address };
    const out = [{ ...base, deployer: d.deployer }];
    if (d.deployerContract && d.deployerContract !== d.deployer)
      out.push({ ...base, deployer: d.deployerContract });
    return out;
  });
  for (const part of chunks(rows)) await trx.insertInto('evm_deployments').values(part).execute();
}

async function writeNfts(trx: Transaction<DataSchema>, batch: EvmBatch): Promise<void> {
  const { chain } = batch;
  // The last transfer of a token in the range decides its owner.
  const latest = new Map<
    string,
    { contract: string; tokenId: bigint; ercType: string; owner: string | null }
  >();
  for (const b of batch.blocks)
    for (const n of b.nfts)
      latest.set(`${n.contract}:${n.tokenId}`, {
        contract: n.contract,
        tokenId: n.tokenId,
        ercType: n.ercType,
        owner: n.owner ?? null,
      });
  for (const n of latest.values()) {
    const insert = trx.insertInto('evm_nft_tokens').values({
      chain,
      contract: n.contract,
      token_key: tokenKey(n.tokenId),
      token_id: n.tokenId.toString(),
      erc_type: n.ercType,
      owner: n.owner,
      token_uri: null,
      index_status: 'UNINDEXED',
      metadata: '{}',
      metadata_updated_at: null,
      next_fetch_at: 0,
      attempts: 0,
    });
    // A burn makes the token's metadata go away: have the fetcher look again now.
    const burnt = n.owner === ZERO_ADDRESS;
    if (n.owner !== null)
      await insert
        .onConflict((oc) =>
          oc
            .columns(['chain', 'contract', 'token_key'])
            .doUpdateSet(burnt ? { owner: n.owner, next_fetch_at: 0 } : { owner: n.owner }),
        )
        .execute();
    else
      await insert.onConflict((oc) => oc.columns(['chain', 'contract', 'token_key']).doNothing()).execute();
  }
}

interface BucketDelta {
  span: Span;
  start: number;
  txCount: number;
  gasUsed: number;
  fees: bigint;
  gasPriceSum: bigint;
  maxGasPrice: bigint;
  maxTps: number;
  maxGps: number;
  contracts: number;
  members: Record<'a' | 's' | 'd', Set<string>>;
  /** Addresses and deployers whose first appearance on the chain falls in this bucket. */
  firstAddresses: number;
  firstDeployers: number;
}

/**
 * Who deployed a contract, as the reference metrics count deployers: the `from` of the CREATE or
 * CREATE2 frame, so the transaction's sender for a top-level creation and the creating contract
 * for one made inside a call (a factory).
 */
function deployerOf(d: DecodedBlock['deployments'][number]): string {
  return d.deployerContract ?? d.deployer;
}

/**
 * The parties of a block's ERC-20, ERC-721 and ERC-1155 transfer events: the reference counts an
 * address active when it is in the `from` or `to` of a transaction or of a transfer event, and a
 * sender when it is in the `from` of either. The zero address of a mint or burn is in those
 * fields and is counted as the reference's definition reads. Each transfer is stored once per
 * party; both rows carry both parties.
 */
function transferParties(transfers: DecodedBlock['tokenTransfers']): {
  addresses: Set<string>;
  senders: Set<string>;
} {
  const addresses = new Set<string>();
  const senders = new Set<string>();
  for (const t of transfers) {
    addresses.add(t.from_addr);
    addresses.add(t.to_addr);
    senders.add(t.from_addr);
  }
  return { addresses, senders };
}

async function writeMetrics(trx: Transaction<DataSchema>, batch: EvmBatch): Promise<void> {
  const { chain } = batch;
  const buckets = new Map<string, BucketDelta>();
  const bucketsOf = (ts: number): BucketDelta[] =>
    SPANS.map((span) => {
      const start = bucketStart(span, ts);
      const key = `${span}:${start}`;
      let b = buckets.get(key);
      if (!b) {
        b = {
          span,
          start,
          txCount: 0,
          gasUsed: 0,
          fees: 0n,
          gasPriceSum: 0n,
          maxGasPrice: 0n,
          maxTps: 0,
          maxGps: 0,
          contracts: 0,
          members: { a: new Set(), s: new Set(), d: new Set() },
          firstAddresses: 0,
          firstDeployers: 0,
        };
        buckets.set(key, b);
      }
      return b;
    });

  const seconds = new Map<number, { txs: number; gas: number }>();
  // Each address's and deployer's first timestamp in this range, for the all-time sets.
  const firstSeen = { a: new Map<string, number>(), d: new Map<string, number>() };
  const see = (kind: 'a' | 'd', address: string, ts: number) => {
    if (!firstSeen[kind].has(address)) firstSeen[kind].set(address, ts);
  };
  for (const { block, txFacts, deployments, tokenTransfers } of batch.blocks) {
    // The genesis block holds no transactions, and its time is a genesis parameter (`0x0` in
    // most Subnet-EVM genesis files and the public C-chains'), not when the chain began: a
    // bucket it opened would start every series in 1970, decades of empty periods long.
    if (Number(block.number) === 0) continue;
    const ts = Number(block.timestamp);
    const targets = bucketsOf(ts);
    const deployers = deployments.map(deployerOf);
    const transfers = transferParties(tokenTransfers);
    for (const d of deployers) see('d', d, ts);
    for (const t of txFacts) {
      see('a', t.from, ts);
      if (t.to) see('a', t.to, ts);
    }
    for (const a of transfers.addresses) see('a', a, ts);
    if (txFacts.length > 0) {
      const s = seconds.get(ts) ?? { txs: 0, gas: 0 };
      s.txs += txFacts.length;
      s.gas += Number(block.gas_used);
      seconds.set(ts, s);
    }
    for (const b of targets) {
      b.contracts += deployments.length;
      for (const d of deployers) b.members.d.add(d);
      for (const a of transfers.addresses) b.members.a.add(a);
      for (const a of transfers.senders) b.members.s.add(a);
      for (const t of txFacts) {
        b.txCount += 1;
        b.gasUsed += Number(t.gasUsed);
        b.fees += t.gasUsed * t.gasPrice;
        b.gasPriceSum += t.gasPrice;
        if (t.gasPrice > b.maxGasPrice) b.maxGasPrice = t.gasPrice;
        b.members.a.add(t.from);
        if (t.to) b.members.a.add(t.to);
        b.members.s.add(t.from);
      }
    }
  }
  if (buckets.size === 0) return;

  // Per-second totals across batches (a second can span two ranges), then the bucket maxima.
  const secs = [...seconds.keys()];
  const existingSecs = new Map<number, { txs: number; gas: number }>();
  for (const part of chunks(secs))
    for (const r of await trx
      .selectFrom('evm_metric_seconds')
      .select(['sec', 'tx_count', 'gas_used'])
      .where('chain', '=', chain)
      .where('sec', 'in', part)
      .execute())
      existingSecs.set(Number(r.sec), { txs: Number(r.tx_count), gas: Number(r.gas_used) });
  for (const [sec, s] of seconds) {
    const prev = existingSecs.get(sec);
    const total = { txs: s.txs + (prev?.txs ?? 0), gas: s.gas + (prev?.gas ?? 0) };
    await trx
      .insertInto('evm_metric_seconds')
      .values({ chain, sec, tx_count: total.txs, gas_used: total.gas })
      .onConflict((oc) =>
        oc.columns(['chain', 'sec']).doUpdateSet({ tx_count: total.txs, gas_used: total.gas }),
      )
      .execute();
    for (const b of bucketsOf(sec)) {
      b.maxTps = Math.max(b.maxTps, total.txs);
      b.maxGps = Math.max(b.maxGps, total.gas);
    }
  }

  await countFirstAppearances(trx, chain, firstSeen, bucketsOf);
  const cumulative = await runningTotals(trx, chain);

  // Ascending per span: each bucket's cumulative values carry the previous one's forward.
  const ordered = [...buckets.values()].sort((x, y) => x.start - y.start);
  for (const b of ordered) {
    const counts = { a: 0, s: 0, d: 0 };
    for (const kind of ['a', 's', 'd'] as const) {
      const members = [...b.members[kind]];
      for (const part of chunks(members)) {
        const known = new Set(
          (
            await trx
              .selectFrom('evm_metric_members')
              .select('address')
              .where('chain', '=', chain)
              .where('span', '=', b.span)
              .where('bucket_start', '=', b.start)
              .where('kind', '=', kind)
              .where('address', 'in', part)
              .execute()
          ).map((r) => r.address),
        );
        const fresh = part.filter((a) => !known.has(a));
        counts[kind] += fresh.length;
        if (fresh.length > 0)
          await trx
            .insertInto('evm_metric_members')
            .values(fresh.map((address) => ({ chain, span: b.span, bucket_start: b.start, kind, address })))
            .execute();
      }
    }
    const prev = await trx
      .selectFrom('evm_metric_buckets')
      .selectAll()
      .where('chain', '=', chain)
      .where('span', '=', b.span)
      .where('bucket_start', '=', b.start)
      .executeTakeFirst();
    const prevMaxGasPrice = BigInt(prev?.max_gas_price ?? '0');
    const row = {
      tx_count: Number(prev?.tx_count ?? 0) + b.txCount,
      gas_used: Number(prev?.gas_used ?? 0) + b.gasUsed,
      fees_paid: (BigInt(prev?.fees_paid ?? '0') + b.fees).toString(),
      gas_price_sum: (BigInt(prev?.gas_price_sum ?? '0') + b.gasPriceSum).toString(),
      max_gas_price: (b.maxGasPrice > prevMaxGasPrice ? b.maxGasPrice : prevMaxGasPrice).toString(),
      max_tps: Math.max(Number(prev?.max_tps ?? 0), b.maxTps),
      max_gps: Math.max(Number(prev?.max_gps ?? 0), b.maxGps),
      active_addresses: Number(prev?.active_addresses ?? 0) + counts.a,
      active_senders: Number(prev?.active_senders ?? 0) + counts.s,
      contracts: Number(prev?.contracts ?? 0) + b.contracts,
      deployers: Number(prev?.deployers ?? 0) + counts.d,
      ...cumulative.add(b),
    };
    await trx
      .insertInto('evm_metric_buckets')
      .values({ chain, span: b.span, bucket_start: b.start, ...row })
      .onConflict((oc) => oc.columns(['chain', 'span', 'bucket_start']).doUpdateSet(row))
      .execute();
  }
}

/**
 * Records the addresses and deployers of the range that the chain never had before (members of
 * span `all`) and counts each in the buckets of its first timestamp.
 */
async function countFirstAppearances(
  trx: Transaction<DataSchema>,
  chain: number,
  firstSeen: Record<'a' | 'd', Map<string, number>>,
  bucketsOf: (ts: number) => BucketDelta[],
): Promise<void> {
  for (const kind of ['a', 'd'] as const)
    for (const part of chunks([...firstSeen[kind].keys()])) {
      const known = new Set(
        (
          await trx
            .selectFrom('evm_metric_members')
            .select('address')
            .where('chain', '=', chain)
            .where('span', '=', 'all')
            .where('bucket_start', '=', 0)
            .where('kind', '=', kind)
            .where('address', 'in', part)
            .execute()
        ).map((r) => r.address),
      );
      const fresh = part.filter((a) => !known.has(a));
      if (fresh.length === 0) continue;
      await trx
        .insertInto('evm_metric_members')
        .values(fresh.map((address) => ({ chain, span: 'all', bucket_start: 0, kind, address })))
        .execute();
      for (const address of fresh)
        for (const b of bucketsOf(firstSeen[kind].get(address)!))
          if (kind === 'a') b.firstAddresses++;
          else b.firstDeployers++;
    }
}

/**
 * Running totals per span, from the newest bucket already stored. Block timestamps never go
 * back, so a range only adds to the newest bucket or opens later ones: fed the range's buckets
 * in ascending order, `add` returns each one's cumulative columns.
 */
async function runningTotals(trx: Transaction<DataSchema>, chain: number) {
  const totals = new Map<string, { tx: number; contracts: number; addresses: number; deployers: number }>();
  for (const span of SPANS) {
    const last = await trx
      .selectFrom('evm_metric_buckets')
      .select(['cumulative_tx_count', 'cumulative_contracts', 'cumulative_addresses', 'cumulative_deployers'])
      .where('chain', '=', chain)
      .where('span', '=', span)
      .orderBy('bucket_start', 'desc')
      .limit(1)
      .executeTakeFirst();
    totals.set(span, {
      tx: Number(last?.cumulative_tx_count ?? 0),
      contracts: Number(last?.cumulative_contracts ?? 0),
      addresses: Number(last?.cumulative_addresses ?? 0),
      deployers: Number(last?.cumulative_deployers ?? 0),
    });
  }
  return {
    add(b: BucketDelta) {
      const t = totals.get(b.span)!;
      t.tx += b.txCount;
      t.contracts += b.contracts;
      t.addresses += b.firstAddresses;
      t.deployers += b.firstDeployers;
      return {
        cumulative_tx_count: t.tx,
        cumulative_contracts: t.contracts,
        cumulative_addresses: t.addresses,
        cumulative_deployers: t.deployers,
      };
    },
  };
}

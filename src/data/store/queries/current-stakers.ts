/**
 * Primary-network stakers whose period has not been closed by a reward or removal transaction:
 * the pending-rewards list (keyset on `seq`, index `stakers_current`) and the network's totals.
 */
import type { Kysely } from 'kysely';
import { amountText } from '../amounts.js';
import { cutPage } from '../keyset-page.js';
import type { DataSchema } from '../schema.js';
import type { StakerRow } from './stakers.js';
import type { SortOrder } from './utxos.js';

/** Stakers of `subnetId` not yet rewarded or removed whose period has not ended at `now`. */
function openStakers(db: Kysely<DataSchema>, subnetId: string, now: number) {
  return db
    .selectFrom('stakers')
    .selectAll()
    .where('reward_tx', 'is', null)
    .where('removed_tx', 'is', null)
    .where('subnet_id', '=', subnetId)
    .where('end_ts', '>', now);
}

/**
 * One page of the stakers whose reward is still to come (active or pending at `now`), validators
 * and delegators together in P-chain order, filtered by node ids and/or reward addresses.
 */
export async function listOpenStakers(
  db: Kysely<DataSchema>,
  q: {
    subnetId: string;
    now: number;
    nodeIds: string[];
    /** Reward addresses as the rows hold them (bech32 without a chain prefix). */
    addresses: string[];
    sortOrder: SortOrder;
    afterSeq?: number;
    limit: number;
  },
): Promise<{ rows: StakerRow[]; next?: number }> {
  let sel = openStakers(db, q.subnetId, q.now);
  if (q.afterSeq !== undefined) sel = sel.where('seq', q.sortOrder === 'asc' ? '>' : '<', q.afterSeq);
  if (q.nodeIds.length > 0 || q.addresses.length > 0)
    sel = sel.where((eb) =>
      eb.or([
        ...(q.nodeIds.length > 0 ? [eb('node_id', 'in', q.nodeIds)] : []),
        ...q.addresses.map((a) => eb('reward_addresses', 'like', `%${JSON.stringify(a)}%`)),
      ]),
    );
  const rows = await sel
    .orderBy('seq', q.sortOrder)
    .limit(q.limit + 1)
    .execute();
  return cutPage(rows, q.limit, (last) => Number(last.seq));
}

export interface StakeTotals {
  validators: { count: number; amount: bigint; nodeAmounts: Map<string, bigint> };
  delegators: { count: number; amount: bigint };
}

/** Counts and stake of the validations and delegations of `subnetId` active at `now`. */
export async function activeStakeTotals(
  db: Kysely<DataSchema>,
  subnetId: string,
  now: number,
): Promise<StakeTotals> {
  const rows = await openStakers(db, subnetId, now).where('start_ts', '<=', now).execute();
  const totals: StakeTotals = {
    validators: { count: 0, amount: 0n, nodeAmounts: new Map() },
    delegators: { count: 0, amount: 0n },
  };
  for (const r of rows) {
    const amount = BigInt(amountText(r.amount_staked));
    if (r.kind === 'validator') {
      totals.validators.count++;
      totals.validators.amount += amount;
      totals.validators.nodeAmounts.set(r.node_id, amount);
    } else {
      totals.delegators.count++;
      totals.delegators.amount += amount;
    }
  }
  return totals;
}

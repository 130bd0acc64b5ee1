/**
 * The weight history of an L1's ACP-77 validations, for the staking metrics: each validation's
 * weight from one P-chain transaction to the next, read from the validators each L1 transaction
 * registered or changed as they stood after it (`l1_validator_tx_details`, written by the
 * indexer's L1 fee replay with the transactions themselves).
 *
 * A validation starts at its ConvertSubnetToL1Tx or RegisterL1ValidatorTx, changes weight at each
 * SetL1ValidatorWeightTx and ends at the one that sets its weight to 0. A validation that is
 * inactive (its balance ran out, or a DisableL1ValidatorTx) still counts, with its weight: the
 * P-chain keeps it in the L1's validator set (its weight under the empty node id, so Warp quorums
 * count it in the total) and lists it in `getCurrentValidators` until its weight is set to 0.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';

/** One validation at one weight: from `start` (inclusive) to `end` (exclusive, Infinity if open). */
export interface WeightSpan {
  weight: bigint;
  start: number;
  end: number;
}

export async function readL1ValidationSpans(db: Kysely<DataSchema>, subnetId: string): Promise<WeightSpan[]> {
  const changes = await db
    .selectFrom('l1_validator_tx_details as d')
    .innerJoin('transactions as t', 't.tx_hash', 'd.tx_hash')
    .select(['d.validation_id', 'd.weight', 't.timestamp'])
    .where('d.subnet_id', '=', subnetId)
    // In P-chain order: by transaction (its seq orders a chain's transactions), then within it.
    .orderBy('t.seq')
    .orderBy('d.position')
    .execute();
  const open = new Map<string, WeightSpan>();
  const spans: WeightSpan[] = [];
  for (const c of changes) {
    const at = Number(c.timestamp);
    const weight = BigInt(c.weight);
    const current = open.get(c.validation_id);
    // A top-up or disable leaves the weight as it was: the span goes on.
    if (current?.weight === weight) continue;
    if (current) current.end = at;
    open.delete(c.validation_id);
    if (weight === 0n) continue;
    const span = { weight, start: at, end: Infinity };
    spans.push(span);
    open.set(c.validation_id, span);
  }
  return spans;
}

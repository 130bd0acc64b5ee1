/**
 * The validator list's orders and filters on the figures an active validation has only once it is
 * formatted (`delegationCapacity`, from its current delegations; `uptimePerformance`, the node's
 * live uptime): the store cannot select or order on them, so the list walks the store's order in
 * chunks and keeps the validations that pass, or, to order by one, reads every validation the
 * store's filters keep and sorts them. A devnet has a handful of validators; the real service
 * answers these parameters, so a client that sends them gets an answer rather than a 400.
 */
import type { SortOrder } from '../../store/queries/utxos.js';
import type { StakerRow, ValidatorCursor } from '../../store/queries/stakers.js';

export type LiveValidatorOrder = 'delegationCapacity' | 'uptimePerformance';

/** Bounds on the live figures; a validation without the figure (not active) never matches. */
export interface LiveValidatorFilter {
  minDelegationCapacity?: bigint;
  maxDelegationCapacity?: bigint;
  minUptimePerformance?: number;
  maxUptimePerformance?: number;
}

/** Where the next page of a list in a live order starts: the last item's figure and seq. */
export interface LiveValidatorCursor {
  live: string;
  seq: number;
}

export const isLiveOrder = (by: string | undefined): by is LiveValidatorOrder =>
  by === 'delegationCapacity' || by === 'uptimePerformance';

export const hasLiveFilter = (f: LiveValidatorFilter): boolean =>
  f.minDelegationCapacity !== undefined ||
  f.maxDelegationCapacity !== undefined ||
  f.minUptimePerformance !== undefined ||
  f.maxUptimePerformance !== undefined;

type Formatted = Record<string, unknown>;

/** A validation's figure, as a bigint (nAVAX, or uptime in millionths of a percent); undefined when it has none. */
function figure(v: Formatted, by: LiveValidatorOrder): bigint | undefined {
  if (by === 'delegationCapacity')
    return typeof v.delegationCapacity === 'string' ? BigInt(v.delegationCapacity) : undefined;
  return typeof v.uptimePerformance === 'number' ? BigInt(Math.round(v.uptimePerformance * 1e6)) : undefined;
}

export function passesLiveFilter(v: Formatted, f: LiveValidatorFilter): boolean {
  const capacity = figure(v, 'delegationCapacity');
  if (
    f.minDelegationCapacity !== undefined &&
    !(capacity !== undefined && capacity >= f.minDelegationCapacity)
  )
    return false;
  if (
    f.maxDelegationCapacity !== undefined &&
    !(capacity !== undefined && capacity <= f.maxDelegationCapacity)
  )
    return false;
  const uptime = typeof v.uptimePerformance === 'number' ? v.uptimePerformance : undefined;
  if (f.minUptimePerformance !== undefined && !(uptime !== undefined && uptime >= f.minUptimePerformance))
    return false;
  if (f.maxUptimePerformance !== undefined && !(uptime !== undefined && uptime <= f.maxUptimePerformance))
    return false;
  return true;
}

/** One chunk of the store's list: the rows and their formatted validations, index for index. */
export type FetchChunk<C> = (after: C | undefined) => Promise<{
  rows: StakerRow[];
  formatted: Formatted[];
  next?: C;
}>;

/** A page of the store's order (`blockIndex`, `timeRemaining`, `delegationFee`) with the live filters applied. */
export async function filteredPage(
  fetchChunk: FetchChunk<ValidatorCursor>,
  cursorOf: (row: StakerRow) => ValidatorCursor,
  filter: LiveValidatorFilter,
  after: ValidatorCursor | undefined,
  limit: number,
): Promise<{ validators: Formatted[]; next?: ValidatorCursor }> {
  const kept: { v: Formatted; cursor: ValidatorCursor }[] = [];
  let from = after;
  for (;;) {
    const { rows, formatted, next } = await fetchChunk(from);
    for (let i = 0; i < rows.length && kept.length <= limit; i++)
      if (passesLiveFilter(formatted[i]!, filter))
        kept.push({ v: formatted[i]!, cursor: cursorOf(rows[i]!) });
    if (kept.length > limit || next === undefined) break;
    from = next;
  }
  const page = kept.slice(0, limit);
  return {
    validators: page.map((k) => k.v),
    ...(kept.length > limit ? { next: page[page.length - 1]!.cursor } : {}),
  };
}

/**
 * A page ordered by a live figure, then index order; validations without the figure (pending,
 * completed, removed) first, as the delegation-fee order puts validators without a fee first.
 */
export async function liveOrderPage(
  fetchChunk: FetchChunk<ValidatorCursor>,
  by: LiveValidatorOrder,
  sortOrder: SortOrder,
  filter: LiveValidatorFilter,
  after: LiveValidatorCursor | undefined,
  limit: number,
): Promise<{ validators: Formatted[]; next?: LiveValidatorCursor }> {
  const all: { v: Formatted; key: bigint; seq: number }[] = [];
  let from: ValidatorCursor | undefined;
  for (;;) {
    const { rows, formatted, next } = await fetchChunk(from);
    rows.forEach((row, i) => {
      const v = formatted[i]!;
      if (passesLiveFilter(v, filter)) all.push({ v, key: figure(v, by) ?? -1n, seq: Number(row.seq) });
    });
    if (next === undefined) break;
    from = next;
  }
  const sign = sortOrder === 'asc' ? 1 : -1;
  const cmp = (a: { key: bigint; seq: number }, b: { key: bigint; seq: number }) =>
    sign * (a.key === b.key ? a.seq - b.seq : a.key < b.key ? -1 : 1);
  all.sort(cmp);
  const start = after ? all.filter((x) => cmp(x, { key: BigInt(after.live), seq: after.seq }) > 0) : all;
  const page = start.slice(0, limit);
  const last = page[page.length - 1];
  return {
    validators: page.map((x) => x.v),
    ...(start.length > limit && last ? { next: { live: last.key.toString(), seq: last.seq } } : {}),
  };
}

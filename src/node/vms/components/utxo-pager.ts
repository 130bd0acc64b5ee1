/**
 * Paging of `getUTXOs` as the reference node pages it (avax.GetPaginatedUTXOs for a chain's own
 * UTXOs, shared memory's Indexed for atomic ones): addresses in byte order, then input ids in
 * byte order, resuming strictly after `{address, utxo}`. A UTXO several of the addresses own is
 * listed once. The end index the answer carries is the last address searched (even one that
 * owns nothing) and the last input id reached, so a page that finds nothing still names where
 * the search stopped.
 */

export interface UtxoCursor {
  readonly address: Uint8Array;
  readonly inputId: Uint8Array;
}

export interface PagedUtxo {
  readonly inputId: Uint8Array;
  readonly bytes: Uint8Array;
  /** The address it was listed under. */
  readonly address: Uint8Array;
}

export interface UtxoPage {
  readonly utxos: PagedUtxo[];
  /** Where the search stopped: `startIndex` for the next call. */
  readonly end: UtxoCursor;
}

/** Up to `limit` rows of `address`, input ids strictly above `from`, in input id order. */
export type AddressRows = (
  address: Buffer,
  from: Buffer,
  limit: number,
) => { inputId: Uint8Array; bytes: Uint8Array }[];

export interface PageOptions {
  /**
   * Which input id ends the page when it is not full: the last one searched, duplicates
   * included (a chain's own UTXOs), or the last one listed (shared memory).
   */
  readonly endAt: 'searched' | 'listed';
}

const EMPTY_ADDRESS = new Uint8Array(20);
const EMPTY_ID = new Uint8Array(32);

export function pageUtxos(
  addresses: readonly Uint8Array[],
  limit: number,
  after: UtxoCursor | undefined,
  rowsOf: AddressRows,
  options: PageOptions,
): UtxoPage {
  const sorted = [
    ...new Map(addresses.map((a) => [Buffer.from(a).toString('hex'), Buffer.from(a)])).values(),
  ].sort(Buffer.compare);
  const utxos: PagedUtxo[] = [];
  const seen = new Set<string>();
  let endAddress = after ? after.address : EMPTY_ADDRESS;
  let endId = after ? after.inputId : EMPTY_ID;
  const end = (): UtxoPage => ({ utxos, end: { address: endAddress, inputId: endId } });
  for (const address of sorted) {
    let cursor = Buffer.alloc(0);
    if (after) {
      const cmp = Buffer.compare(address, Buffer.from(after.address));
      if (cmp < 0) continue;
      if (cmp === 0) cursor = Buffer.from(after.inputId);
    }
    endAddress = new Uint8Array(address);
    // Asked again while rows come back, because rows already listed under another address are
    // skipped and a page should still fill up when more UTXOs exist.
    for (;;) {
      const rows = rowsOf(address, cursor, limit - utxos.length);
      if (rows.length === 0) break;
      for (const row of rows) {
        cursor = Buffer.from(row.inputId);
        if (options.endAt === 'searched') endId = row.inputId;
        const key = cursor.toString('hex');
        if (seen.has(key)) continue;
        seen.add(key);
        utxos.push({ inputId: row.inputId, bytes: row.bytes, address: endAddress });
        endId = row.inputId;
        if (utxos.length >= limit) return end();
      }
    }
  }
  return end();
}

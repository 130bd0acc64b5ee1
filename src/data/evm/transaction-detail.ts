/**
 * One EVM transaction as the real service's GetTransactionResponse shows it, from the party
 * tables (looked up by transaction hash) and the block row. A party table holds each item once
 * per party, so items are folded back to one per log position or trace frame.
 */
import type { Kysely, SelectQueryBuilder, Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import { contractsByAddress, nftsByKey } from './read-model.js';
import { erc1155Token, erc20Token, erc721Token, internalTxItem, nativeTxItem, rich } from './items.js';

export function parseTxHash(value: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value))
    throw new InvalidParameterError(`invalid txHash "${value}": expected 0x and 64 hex digits`);
  return value.toLowerCase();
}

/** One item per key, in key order. */
function unique<T>(rows: T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((r) => [key(r), r])).values()];
}

/** A transaction's rows in a party table (the `<table>_by_tx` index). */
function rowsOfTx<T extends 'evm_native_txs' | 'evm_token_transfers' | 'evm_internal_txs'>(
  db: Kysely<DataSchema>,
  table: T,
  chain: number,
  hash: string,
): SelectQueryBuilder<DataSchema, T, Selectable<DataSchema[T]>> {
  // One table stands for the three: they share the columns the filter names.
  return db
    .selectFrom(table as 'evm_native_txs')
    .selectAll()
    .where('chain', '=', chain)
    .where('tx_hash', '=', hash) as never;
}

export async function transactionDetail(db: Kysely<DataSchema>, chain: number, txHash: string) {
  const hash = parseTxHash(txHash);
  const native = await rowsOfTx(db, 'evm_native_txs', chain, hash).limit(1).executeTakeFirst();
  if (!native) throw new NotFoundError(`transaction ${txHash} is not indexed on chain ${chain}`);

  const block = await db
    .selectFrom('evm_blocks')
    .select('base_fee')
    .where('chain', '=', chain)
    .where('number', '=', native.block_number)
    .executeTakeFirst();
  const transfers = unique(
    await rowsOfTx(db, 'evm_token_transfers', chain, hash)
      .orderBy('log_index')
      .orderBy('sub_index')
      .execute(),
    (r) => `${r.log_index}:${r.sub_index}`,
  );
  const internals = unique(
    await rowsOfTx(db, 'evm_internal_txs', chain, hash).orderBy('trace_index').execute(),
    (r) => String(r.trace_index),
  );
  return {
    native: { ...nativeTxItem(native), baseFeePerGas: block?.base_fee ?? '0' },
    ...(await detailParts(db, chain, transfers, internals)),
  };
}

/**
 * The transfer and internal-transaction lists of a TransactionDetails from party-table rows of
 * one transaction (already one per log position or frame, in log and trace order).
 */
export async function detailParts(
  db: Kysely<DataSchema>,
  chain: number,
  transfers: Selectable<DataSchema['evm_token_transfers']>[],
  internals: Selectable<DataSchema['evm_internal_txs']>[],
) {
  const contracts = await contractsByAddress(
    db,
    chain,
    transfers.map((r) => r.token),
  );
  const nfts = await nftsByKey(
    db,
    chain,
    transfers.filter((r) => r.kind !== 'erc20').map((r) => ({ contract: r.token, tokenId: r.token_id })),
  );
  const parties = (r: { from_addr: string; to_addr: string; log_index: number }) => ({
    from: rich(r.from_addr),
    to: rich(r.to_addr),
    logIndex: Number(r.log_index),
  });
  const ofKind = (kind: string) => transfers.filter((r) => r.kind === kind);

  return {
    erc20Transfers: ofKind('erc20').map((r) => ({
      ...parties(r),
      value: r.value,
      erc20Token: erc20Token(r.token, contracts.get(r.token)),
    })),
    erc721Transfers: ofKind('erc721').map((r) => ({
      ...parties(r),
      erc721Token: erc721Token(
        r.token,
        r.token_id,
        contracts.get(r.token),
        nfts.get(`${r.token}:${r.token_id}`),
      ),
    })),
    erc1155Transfers: ofKind('erc1155').map((r) => ({
      ...parties(r),
      value: r.value,
      erc1155Token: erc1155Token(r.token, r.token_id, nfts.get(`${r.token}:${r.token_id}`)),
    })),
    internalTransactions: internals.map(internalTxItem),
  };
}

/**
 * `transactions` of an address (the real service's listTransactions): every transaction the
 * address took part in, as sender or recipient, in a token transfer or in an internal
 * transaction, each as its native transaction with only the transfers and frames that name the
 * address. Keyset on (block, position in block); a page reads the address's rows of the three
 * party tables from the cursor on, so it is not as cheap as the single-kind lists.
 */
export async function addressTransactions(
  db: Kysely<DataSchema>,
  args: {
    chain: number;
    address: string;
    startBlock?: number;
    endBlock?: number;
    order: 'asc' | 'desc';
    after?: [number, number];
    limit: number;
  },
) {
  const { chain, address, order, after } = args;
  const where = <Q extends SelectQueryBuilder<any, any, any>>(q: Q, prefix: string): Q => {
    let out = q.where(`${prefix}.chain`, '=', chain).where(`${prefix}.address`, '=', address);
    if (args.startBlock !== undefined) out = out.where(`${prefix}.block_number`, '>=', args.startBlock);
    if (args.endBlock !== undefined) out = out.where(`${prefix}.block_number`, '<', args.endBlock);
    // Only the cursor's block and beyond can hold the page: the exact cut is made below.
    if (after) out = out.where(`${prefix}.block_number`, order === 'desc' ? '<=' : '>=', after[0]);
    return out as Q;
  };
  const native = where(
    db.selectFrom('evm_native_txs as n').select(['n.block_number', 'n.tx_index', 'n.tx_hash']),
    'n',
  );
  const internal = where(
    db.selectFrom('evm_internal_txs as i').select(['i.block_number', 'i.tx_index', 'i.tx_hash']),
    'i',
  );
  // Token transfers carry no position in the block: the transaction's native row has it.
  const token = where(
    db
      .selectFrom('evm_token_transfers as t')
      .innerJoin('evm_native_txs as tn', (j) =>
        j.onRef('tn.chain', '=', 't.chain').onRef('tn.tx_hash', '=', 't.tx_hash'),
      )
      .select(['t.block_number', 'tn.tx_index', 't.tx_hash']),
    't',
  );
  let q = db.selectFrom(native.union(internal).union(token).as('u')).selectAll();
  if (after)
    q = q.where((eb) =>
      eb(eb.refTuple('block_number', 'tx_index'), order === 'desc' ? '<' : '>', eb.tuple(after[0], after[1])),
    );
  const keys = await q
    .orderBy('block_number', order)
    .orderBy('tx_index', order)
    .limit(args.limit + 1)
    .execute();
  const page = keys.slice(0, args.limit);
  const hashes = page.map((k) => k.tx_hash);
  const byTx = async <T extends 'evm_native_txs' | 'evm_token_transfers' | 'evm_internal_txs'>(
    table: T,
    ofAddress: boolean,
  ): Promise<Selectable<DataSchema[T]>[]> => {
    if (hashes.length === 0) return [];
    let r = db
      .selectFrom(table as 'evm_native_txs')
      .selectAll()
      .where('chain', '=', chain)
      .where('tx_hash', 'in', hashes);
    if (ofAddress) r = r.where('address', '=', address);
    return (await r.execute()) as never;
  };
  const natives = new Map((await byTx('evm_native_txs', false)).map((r) => [r.tx_hash, r]));
  const transfers = (await byTx('evm_token_transfers', true)).sort(
    (a, b) => Number(a.log_index) - Number(b.log_index) || Number(a.sub_index) - Number(b.sub_index),
  );
  const internals = (await byTx('evm_internal_txs', true)).sort(
    (a, b) => Number(a.trace_index) - Number(b.trace_index),
  );
  const items = [];
  for (const k of page) {
    const n = natives.get(k.tx_hash);
    if (!n) continue;
    items.push({
      nativeTransaction: nativeTxItem(n),
      ...(await detailParts(
        db,
        chain,
        transfers.filter((r) => r.tx_hash === k.tx_hash),
        internals.filter((r) => r.tx_hash === k.tx_hash),
      )),
    });
  }
  const last = page[page.length - 1];
  return {
    items,
    next:
      keys.length > args.limit
        ? ([Number(last.block_number), Number(last.tx_index)] as [number, number])
        : undefined,
  };
}

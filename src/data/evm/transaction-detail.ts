/**
 * One EVM transaction as the real service's GetTransactionResponse shows it, from the party
 * tables (looked up by transaction hash) and the block row. A party table holds each item once
 * per party, so items are folded back to one per log position or trace frame.
 */
import type { Kysely, SelectQueryBuilder, Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import {
  contractsByAddress,
  erc1155Token,
  erc20Token,
  erc721Token,
  internalTxItem,
  nativeTxItem,
  nftsByKey,
  rich,
} from './read-model.js';

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
    native: { ...nativeTxItem(native), baseFeePerGas: block?.base_fee ?? '0' },
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

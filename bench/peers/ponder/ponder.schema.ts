/**
 * The tables Flurry's EVM indexer fills for the same chain: blocks, transactions with their receipt
 * status, native transfers (top-level and internal, from call traces), token transfers (ERC-20,
 * ERC-721, ERC-1155) and contract deployments. Token transfers are one row per transfer with
 * indexes on both parties (Flurry writes one row per party), so either side can be listed.
 */
import { index, onchainTable } from 'ponder';

export const block = onchainTable('block', (t) => ({
  number: t.bigint().primaryKey(),
  hash: t.hex().notNull(),
  timestamp: t.bigint().notNull(),
  gasUsed: t.bigint().notNull(),
  baseFeePerGas: t.bigint(),
  miner: t.hex().notNull(),
}));

export const transaction = onchainTable(
  'transaction',
  (t) => ({
    hash: t.hex().primaryKey(),
    blockNumber: t.bigint().notNull(),
    index: t.integer().notNull(),
    from: t.hex().notNull(),
    to: t.hex(),
    value: t.bigint().notNull(),
    gasUsed: t.bigint(),
    status: t.text(),
  }),
  (table) => ({ fromIdx: index().on(table.from), toIdx: index().on(table.to) }),
);

export const nativeTransfer = onchainTable(
  'native_transfer',
  (t) => ({
    id: t.text().primaryKey(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    value: t.bigint().notNull(),
    internal: t.boolean().notNull(),
  }),
  (table) => ({ fromIdx: index().on(table.from), toIdx: index().on(table.to) }),
);

export const tokenTransfer = onchainTable(
  'token_transfer',
  (t) => ({
    id: t.text().primaryKey(),
    kind: t.text().notNull(),
    token: t.hex().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    value: t.bigint().notNull(),
    tokenId: t.bigint(),
  }),
  (table) => ({ fromIdx: index().on(table.from), toIdx: index().on(table.to) }),
);

export const deployment = onchainTable('deployment', (t) => ({
  address: t.hex().primaryKey(),
  deployer: t.hex().notNull(),
  txHash: t.hex().notNull(),
  blockNumber: t.bigint().notNull(),
}));

/**
 * The bench's Ponder app. Everything about the chain comes from the environment the bench sets:
 * PONDER_RPC_URL (the replay node Flurry reads too), PONDER_CHAIN_ID, PONDER_END_BLOCK (the last
 * block of the measured range), PONDER_SENDERS (the accounts that send transactions, comma
 * separated: Ponder's transaction and transfer sources need addresses, Flurry's indexer takes every
 * transaction) and DATABASE_URL (PostgreSQL) or PONDER_PGLITE_DIR (embedded PGlite).
 */
import { createConfig } from 'ponder';
import { parseAbi } from 'viem';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const range = { startBlock: 0, endBlock: Number(env('PONDER_END_BLOCK')) };

export default createConfig({
  database: process.env.DATABASE_URL
    ? { kind: 'postgres', connectionString: process.env.DATABASE_URL }
    : { kind: 'pglite', directory: env('PONDER_PGLITE_DIR') },
  chains: { bench: { id: Number(env('PONDER_CHAIN_ID')), rpc: env('PONDER_RPC_URL') } },
  blocks: { Blocks: { chain: 'bench', interval: 1, ...range } },
  accounts: {
    Senders: {
      chain: 'bench',
      address: env('PONDER_SENDERS').split(',') as `0x${string}`[],
      includeTransactionReceipts: true,
      ...range,
      // Transfers come from call traces, and geth-family nodes (coreth, Flurry) refuse to trace
      // the genesis block, which holds no transactions anyway.
      startBlock: 1,
    },
  },
  // No address: every contract's events, as Flurry decodes them. ERC-20 and ERC-721 share the
  // Transfer topic; each log decodes only with the ABI whose indexed arguments match its topics.
  contracts: {
    Erc20: {
      chain: 'bench',
      abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
      ...range,
    },
    Erc721: {
      chain: 'bench',
      abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']),
      ...range,
    },
    Erc1155: {
      chain: 'bench',
      abi: parseAbi([
        'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
        'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
      ]),
      ...range,
    },
  },
});

/**
 * The EVM read model: keyset queries over the party tables, answered as the real service's
 * response objects (shaped in `items.ts`; token balances summed in `token-balances.ts`). Every
 * list is newest first (or token order) with a cursor holding the last row's key, so page N costs
 * the same as page 1.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { cutPage } from '../store/keyset-page.js';
import type { EvmChainTable, EvmContractTable, EvmNftTokenTable } from '../store/schema-evm.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import { checksumAddress, isHexAddress } from './abi.js';
import {
  erc1155Token,
  erc20Token,
  erc721Token,
  internalTxItem,
  nativeTxItem,
  nftTokenItem,
  contractItem,
  rich,
} from './items.js';
import {
  tokenBalances,
  type BalanceArgs,
  type ChainBalanceReader,
  type TokenBalance,
} from './token-balances.js';

export type ChainRow = Selectable<EvmChainTable>;

/** `{chainId}`: an EVM chain id or a blockchain id of an indexed chain. */
export async function resolveEvmChain(db: Kysely<DataSchema>, value: string): Promise<ChainRow> {
  let q = db.selectFrom('evm_chains').selectAll();
  if (/^\d{1,15}$/.test(value)) q = q.where('evm_chain_id', '=', Number(value));
  else if (/^[1-9A-HJ-NP-Za-km-z]{20,60}$/.test(value)) q = q.where('blockchain_id', '=', value);
  else throw new InvalidParameterError(`chainId must be an EVM chain id or a blockchain id, got "${value}"`);
  const row = await q.executeTakeFirst();
  if (!row) throw new NotFoundError(`chain ${value} is not indexed by this service`);
  return row;
}

export function parseEvmAddress(value: string, what = 'address'): string {
  if (!isHexAddress(value))
    throw new InvalidParameterError(`invalid ${what} "${value}": expected 0x and 40 hex digits`);
  return value.toLowerCase();
}

export interface BlockRange {
  /** Inclusive. */
  startBlock?: number;
  /** Exclusive. */
  endBlock?: number;
}

export function rangeCheck(range: BlockRange): void {
  if (range.startBlock !== undefined && range.endBlock !== undefined && range.endBlock < range.startBlock)
    throw new InvalidParameterError('endBlock must not be lower than startBlock');
}

type Cursor = [number, number] | [number, number, number];

interface ListArgs extends BlockRange {
  chain: number;
  address: string;
  after?: Cursor;
  limit: number;
}

interface Page<T> {
  items: T[];
  next?: Cursor;
}

export async function contractsByAddress(
  db: Kysely<DataSchema>,
  chain: number,
  addresses: string[],
): Promise<Map<string, Selectable<EvmContractTable>>> {
  const unique = [...new Set(addresses)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('evm_contracts')
    .selectAll()
    .where('chain', '=', chain)
    .where('address', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r.address, r]));
}

export async function nftsByKey(
  db: Kysely<DataSchema>,
  chain: number,
  keys: { contract: string; tokenId: string }[],
): Promise<Map<string, Selectable<EvmNftTokenTable>>> {
  const out = new Map<string, Selectable<EvmNftTokenTable>>();
  const byContract = new Map<string, string[]>();
  for (const k of keys) byContract.set(k.contract, [...(byContract.get(k.contract) ?? []), k.tokenId]);
  for (const [contract, ids] of byContract) {
    const rows = await db
      .selectFrom('evm_nft_tokens')
      .selectAll()
      .where('chain', '=', chain)
      .where('contract', '=', contract)
      .where('token_id', 'in', [...new Set(ids)])
      .execute();
    for (const r of rows) out.set(`${r.contract}:${r.token_id}`, r);
  }
  return out;
}

export function createEvmReadModel(db: Kysely<DataSchema>) {
  function partyQuery<T extends 'evm_native_txs' | 'evm_token_transfers' | 'evm_internal_txs'>(
    table: T,
    args: ListArgs,
  ) {
    let q = db
      .selectFrom(table as 'evm_native_txs')
      .selectAll()
      .where('chain', '=', args.chain)
      .where('address', '=', args.address);
    if (args.startBlock !== undefined) q = q.where('block_number', '>=', args.startBlock);
    if (args.endBlock !== undefined) q = q.where('block_number', '<', args.endBlock);
    return q;
  }

  /** The stored tokens of a page of token balances. */
  const nftsOf = (chain: number, items: TokenBalance[]) =>
    nftsByKey(
      db,
      chain,
      items.map((b) => ({ contract: b.token, tokenId: b.tokenId })),
    );

  /** Erc20Transfer, Erc721Transfer or Erc1155Transfer of token party rows, by their kind. */
  async function transferItems(chain: number, rows: Selectable<DataSchema['evm_token_transfers']>[]) {
    const contracts = await contractsByAddress(
      db,
      chain,
      rows.map((r) => r.token),
    );
    const nfts = await nftsByKey(
      db,
      chain,
      rows.filter((r) => r.kind !== 'erc20').map((r) => ({ contract: r.token, tokenId: r.token_id })),
    );
    return rows.map((r) => {
      const c = contracts.get(r.token);
      const base = {
        blockNumber: String(r.block_number),
        blockTimestamp: Number(r.block_ts),
        blockHash: r.block_hash,
        txHash: r.tx_hash,
        from: rich(r.from_addr),
        to: rich(r.to_addr),
        logIndex: Number(r.log_index),
      };
      if (r.kind === 'erc20') return { ...base, value: r.value, erc20Token: erc20Token(r.token, c) };
      const nft = nfts.get(`${r.token}:${r.token_id}`);
      if (r.kind === 'erc1155')
        return { ...base, value: r.value, erc1155Token: erc1155Token(r.token, r.token_id, nft) };
      return { ...base, erc721Token: erc721Token(r.token, r.token_id, c, nft) };
    });
  }

  const tokenRows = () => db.selectFrom('evm_token_transfers').selectAll();

  /**
   * A page of token transfer rows, newest first. The keyset is (block, log index), or with
   * `inBatch` also the position in a TransferBatch, one log holding several transfers (a two-part
   * cursor would skip the rest of a batch cut by a page).
   */
  async function transferPage(
    q: ReturnType<typeof tokenRows>,
    chain: number,
    after: Cursor | undefined,
    limit: number,
    inBatch: boolean,
  ): Promise<Page<Record<string, unknown>>> {
    if (after && inBatch)
      q = q.where((eb) =>
        eb(
          eb.refTuple('block_number', 'log_index', 'sub_index'),
          '<',
          eb.tuple(after[0], after[1], after[2] ?? 0),
        ),
      );
    else if (after)
      q = q.where((eb) => eb(eb.refTuple('block_number', 'log_index'), '<', eb.tuple(after[0], after[1])));
    const rows = await q
      .orderBy('block_number', 'desc')
      .orderBy('log_index', 'desc')
      .orderBy('sub_index', 'desc')
      .limit(limit + 1)
      .execute();
    const { rows: page, next } = cutPage(rows, limit, (last): Cursor =>
      inBatch
        ? [Number(last.block_number), Number(last.log_index), Number(last.sub_index)]
        : [Number(last.block_number), Number(last.log_index)],
    );
    return { items: await transferItems(chain, page), next };
  }

  return {
    async listNative(args: ListArgs): Promise<Page<Record<string, unknown>>> {
      let q = partyQuery('evm_native_txs', args);
      if (args.after)
        q = q.where((eb) =>
          eb(eb.refTuple('block_number', 'tx_index'), '<', eb.tuple(args.after![0], args.after![1])),
        );
      const rows = await q
        .orderBy('block_number', 'desc')
        .orderBy('tx_index', 'desc')
        .limit(args.limit + 1)
        .execute();
      const { rows: page, next } = cutPage(rows, args.limit, (last): Cursor => [
        Number(last.block_number),
        Number(last.tx_index),
      ]);
      return { items: page.map((r) => nativeTxItem(r)), next };
    },

    /** An address's ERC-20, ERC-721 or ERC-1155 transfers (see transferPage for the keyset). */
    async listTokenTransfers(
      kind: 'erc20' | 'erc721' | 'erc1155',
      args: ListArgs,
    ): Promise<Page<Record<string, unknown>>> {
      let q = tokenRows()
        .where('chain', '=', args.chain)
        .where('address', '=', args.address)
        .where('kind', '=', kind);
      if (args.startBlock !== undefined) q = q.where('block_number', '>=', args.startBlock);
      if (args.endBlock !== undefined) q = q.where('block_number', '<', args.endBlock);
      return transferPage(q, args.chain, args.after, args.limit, kind === 'erc1155');
    },

    /**
     * A token contract's transfers of every standard, newest first: one row per transfer (its
     * sender's), keyset on (block, log index, position in a batch).
     */
    async tokenTransfers(args: BlockRange & { chain: number; token: string; after?: Cursor; limit: number }) {
      let q = tokenRows()
        .where('chain', '=', args.chain)
        .where('token', '=', args.token)
        .whereRef('address', '=', 'from_addr');
      if (args.startBlock !== undefined) q = q.where('block_number', '>=', args.startBlock);
      if (args.endBlock !== undefined) q = q.where('block_number', '<', args.endBlock);
      return transferPage(q, args.chain, args.after, args.limit, true);
    },

    async listInternals(args: ListArgs): Promise<Page<Record<string, unknown>>> {
      let q = partyQuery('evm_internal_txs', args) as any;
      if (args.after)
        q = q.where((eb: any) =>
          eb(
            eb.refTuple('block_number', 'tx_index', 'trace_index'),
            '<',
            eb.tuple(args.after![0], args.after![1], args.after![2] ?? 0),
          ),
        );
      const rows = (await q
        .orderBy('block_number', 'desc')
        .orderBy('tx_index', 'desc')
        .orderBy('trace_index', 'desc')
        .limit(args.limit + 1)
        .execute()) as Selectable<DataSchema['evm_internal_txs']>[];
      const { rows: page, next } = cutPage(rows, args.limit, (last): Cursor => [
        Number(last.block_number),
        Number(last.tx_index),
        Number(last.trace_index),
      ]);
      return {
        items: page.map((r) => ({
          blockNumber: String(r.block_number),
          blockTimestamp: Number(r.block_ts),
          blockHash: r.block_hash,
          txHash: r.tx_hash,
          ...internalTxItem(r),
        })),
        next,
      };
    },

    /** ERC-1155 balances at a block (see tokenBalances) with their tokens' metadata. */
    async erc1155Balances(args: BalanceArgs) {
      const page = await tokenBalances(db, 'erc1155', args);
      const nfts = await nftsOf(args.chain, page.items);
      return {
        next: page.next,
        items: page.items.map((b) => ({
          ...erc1155Token(b.token, b.tokenId, nfts.get(`${b.token}:${b.tokenId}`)),
          chainId: String(args.chain),
          balance: b.balance.toString(),
        })),
      };
    },

    /**
     * ERC-721 tokens the address holds (see tokenBalances: each transfer moves a count of 1, so a
     * token it received and did not send on is held), with the collection and token metadata.
     */
    async erc721Balances(args: BalanceArgs) {
      const page = await tokenBalances(db, 'erc721', args);
      const contracts = await contractsByAddress(
        db,
        args.chain,
        page.items.map((b) => b.token),
      );
      const nfts = await nftsOf(args.chain, page.items);
      return {
        next: page.next,
        items: page.items.map((b) => ({
          ...erc721Token(b.token, b.tokenId, contracts.get(b.token), nfts.get(`${b.token}:${b.tokenId}`)),
          chainId: String(args.chain),
        })),
      };
    },

    /**
     * ERC-721 tokens held and ERC-1155 balances together (the collectibles list), in (contract,
     * token id) order: each as the ERC-721 or ERC-1155 balance list shows it.
     */
    async collectibleBalances(args: Omit<BalanceArgs, 'after'> & { after?: string[] }) {
      const page = await tokenBalances(db, ['erc721', 'erc1155'], args);
      const contracts = await contractsByAddress(
        db,
        args.chain,
        page.items.filter((b) => b.kind === 'erc721').map((b) => b.token),
      );
      const nfts = await nftsOf(args.chain, page.items);
      return {
        next: page.next,
        items: page.items.map((b) => {
          const nft = nfts.get(`${b.token}:${b.tokenId}`);
          return b.kind === 'erc721'
            ? { ...erc721Token(b.token, b.tokenId, contracts.get(b.token), nft), chainId: String(args.chain) }
            : {
                ...erc1155Token(b.token, b.tokenId, nft),
                chainId: String(args.chain),
                balance: b.balance.toString(),
              };
        }),
      };
    },

    /**
     * ERC-20 balances at a block (see tokenBalances) with the contracts' name, symbol, decimals:
     * the tokens the address has Transfers of, each at what the chain's `balanceOf` says when
     * `chainBalances` is given. Balances that do not follow the Transfer events are common:
     * WAVAX (WETH9) mints on `deposit()` with a Deposit event, rebasing and fee-on-transfer tokens
     * move balances without one.
     */
    async erc20Balances(args: BalanceArgs & { chainBalances?: ChainBalanceReader }) {
      const page = await tokenBalances(db, 'erc20', args);
      const contracts = await contractsByAddress(
        db,
        args.chain,
        page.items.map((b) => b.token),
      );
      return {
        next: page.next,
        items: page.items.map((b) => ({
          ...erc20Token(b.token, contracts.get(b.token)),
          chainId: String(args.chain),
          balance: b.balance.toString(),
          // No reputation source on a devnet: the real service's "unknown" is null.
          tokenReputation: null,
        })),
      };
    },

    async deployments(args: { chain: number; deployer: string; after?: [number, number]; limit: number }) {
      let q = db
        .selectFrom('evm_deployments')
        .selectAll()
        .where('chain', '=', args.chain)
        .where('deployer', '=', args.deployer);
      if (args.after)
        q = q.where((eb) =>
          eb(eb.refTuple('block_number', 'seq'), '<', eb.tuple(args.after![0], args.after![1])),
        );
      const rows = await q
        .orderBy('block_number', 'desc')
        .orderBy('seq', 'desc')
        .limit(args.limit + 1)
        .execute();
      const { rows: page, next } = cutPage(rows, args.limit, (last): [number, number] => [
        Number(last.block_number),
        Number(last.seq),
      ]);
      const contracts = await contractsByAddress(
        db,
        args.chain,
        page.map((r) => r.address),
      );
      return { items: page.map((r) => contractItem(r.address, contracts.get(r.address))), next };
    },

    async collectionTokens(args: { chain: number; contract: string; after?: string; limit: number }) {
      let q = db
        .selectFrom('evm_nft_tokens')
        .selectAll()
        .where('chain', '=', args.chain)
        .where('contract', '=', args.contract);
      if (args.after) q = q.where('token_key', '>', args.after);
      const rows = await q
        .orderBy('token_key', 'asc')
        .limit(args.limit + 1)
        .execute();
      const { rows: page, next } = cutPage(rows, args.limit, (last) => last.token_key);
      const c = (await contractsByAddress(db, args.chain, [args.contract])).get(args.contract);
      return { items: page.map((r) => nftTokenItem(r, c)), next };
    },

    /** A contract the indexer saw deployed or emitting token events, or a 404. */
    async contract(args: { chain: number; address: string }) {
      const c = (await contractsByAddress(db, args.chain, [args.address])).get(args.address);
      if (!c)
        throw new NotFoundError(
          `${checksumAddress(args.address)} is not a contract indexed on chain ${args.chain}`,
        );
      return contractItem(args.address, c);
    },

    /** One token of a collection (`tokenId` decimal), or a 404 when the indexer never saw it. */
    async collectionToken(args: { chain: number; contract: string; tokenId: string }) {
      if (!/^\d{1,78}$/.test(args.tokenId) || BigInt(args.tokenId) >= 2n ** 256n)
        throw new InvalidParameterError(`invalid tokenId "${args.tokenId}": expected a decimal uint256`);
      const row = await db
        .selectFrom('evm_nft_tokens')
        .selectAll()
        .where('chain', '=', args.chain)
        .where('contract', '=', args.contract)
        .where('token_key', '=', BigInt(args.tokenId).toString().padStart(78, '0'))
        .executeTakeFirst();
      if (!row)
        throw new NotFoundError(
          `token ${args.tokenId} of ${checksumAddress(args.contract)} is not indexed on chain ${args.chain}`,
        );
      const c = (await contractsByAddress(db, args.chain, [args.contract])).get(args.contract);
      return nftTokenItem(row, c);
    },

    async chains(): Promise<ChainRow[]> {
      return db.selectFrom('evm_chains').selectAll().orderBy('evm_chain_id').execute();
    },

    /**
     * The indexed chains on which the address sent or received a transaction or an ERC token
     * transfer: per chain one primary-key probe of each party table, in EVM chain id order.
     */
    async addressChains(address: string): Promise<ChainRow[]> {
      const out: ChainRow[] = [];
      for (const chain of await this.chains()) {
        const id = Number(chain.evm_chain_id);
        for (const table of ['evm_native_txs', 'evm_token_transfers'] as const) {
          const row = await db
            .selectFrom(table as 'evm_native_txs')
            .select('chain')
            .where('chain', '=', id)
            .where('address', '=', address)
            .limit(1)
            .executeTakeFirst();
          if (row) {
            out.push(chain);
            break;
          }
        }
      }
      return out;
    },

    /** Newest indexed block of a chain (undefined before the first). */
    async head(chain: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('evm_blocks')
        .select('number')
        .where('chain', '=', chain)
        .orderBy('number', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? Number(row.number) : undefined;
    },
  };
}

export type EvmReadModel = ReturnType<typeof createEvmReadModel>;

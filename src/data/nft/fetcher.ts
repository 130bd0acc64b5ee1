/**
 * The NFT metadata fetcher: a background loop, separate from the indexer, that visits tokens
 * whose `next_fetch_at` has come, reads `tokenURI(id)` (ERC-721) or `uri(id)` (ERC-1155) with
 * eth_call, resolves it with the metadata resolver and records the outcome's `indexStatus`.
 * Indexed tokens are refetched after `refetchMs`; failures are retried with a growing delay.
 * A slow or hostile metadata host only ever occupies one of its `concurrency` slots.
 */
import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Logger } from '../../shared/logger.js';
import type { DataSchema } from '../store/schema.js';
import { SELECTOR, callWithUint, decodeStringReturn } from '../evm/abi.js';
import { EvmRpcClient, RpcCallError } from '../indexer/evm/rpc-client.js';
import { substituteTokenId, type MetadataResolver, type ResolvedMetadata } from './metadata-resolver.js';

type TokenUpdate = UpdateQueryBuilder<DataSchema, 'evm_nft_tokens', 'evm_nft_tokens', UpdateResult>;

export interface NftFetcherOptions {
  db: Kysely<DataSchema>;
  resolver: MetadataResolver;
  /** Tokens resolved at once. */
  concurrency?: number;
  /** Poll interval when nothing is due. */
  idleMs?: number;
  /** When an indexed token is fetched again (metadata can change). */
  refetchMs?: number;
  /** First retry delay of a failed token; doubles per attempt up to refetchMs. */
  retryMs?: number;
  now?: () => number;
  logger?: Logger;
}

export interface RunningNftFetcher {
  stop(): Promise<void>;
  /** Resolves once no token is due (tests use it to wait for the fetcher). */
  idle(): Promise<void>;
}

export function startNftFetcher(options: NftFetcherOptions): RunningNftFetcher {
  const { db, resolver } = options;
  const concurrency = options.concurrency ?? 4;
  const idleMs = options.idleMs ?? 250;
  const refetchMs = options.refetchMs ?? 24 * 3600_000;
  const retryMs = options.retryMs ?? 60_000;
  const now = options.now ?? Date.now;
  const clients = new Map<number, EvmRpcClient>();
  const inFlight = new Set<string>();
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  async function rpcFor(chain: number): Promise<EvmRpcClient | undefined> {
    let c = clients.get(chain);
    if (c) return c;
    const row = await db
      .selectFrom('evm_chains')
      .select('rpc_url')
      .where('evm_chain_id', '=', chain)
      .executeTakeFirst();
    if (!row) return undefined;
    c = new EvmRpcClient(row.rpc_url, { timeoutMs: 10_000 });
    clients.set(chain, c);
    return c;
  }

  /** The token's URI from the contract; a revert means the token does not exist (any more). */
  async function readUri(
    rpc: EvmRpcClient,
    contract: string,
    tokenId: bigint,
    ercType: string,
  ): Promise<{ uri?: string; missing?: boolean }> {
    const data = callWithUint(ercType === 'ERC-1155' ? SELECTOR.uri : SELECTOR.tokenURI, tokenId);
    try {
      const ret = await rpc.call<string>('eth_call', [{ to: contract, data }, 'latest']);
      const text = decodeStringReturn(ret);
      if (text === undefined) return { uri: '' };
      return { uri: ercType === 'ERC-1155' ? substituteTokenId(text, tokenId) : text };
    } catch (err) {
      if (err instanceof RpcCallError) return { missing: true };
      throw err;
    }
  }

  async function visit(row: {
    chain: number;
    contract: string;
    token_key: string;
    token_id: string;
    erc_type: string;
    attempts: number;
    next_fetch_at: number;
  }) {
    const rpc = await rpcFor(Number(row.chain));
    if (!rpc) return;
    // The token is claimed for the visit by moving its due time to a lease, as long as nobody
    // moved it since it was read; the outcome is written only while the lease still stands.
    // Meanwhile the indexer may record a burn (due again at 0) or an API process a reindex
    // request (due now): each moves the due time, so the visit's outcome, read before them, is
    // dropped and the token is visited again at once instead of in `refetchMs`. Another fetcher
    // on the same store cannot claim the token while the lease stands.
    const lease = now() + retryMs;
    const token = (q: TokenUpdate) =>
      q
        .where('chain', '=', row.chain)
        .where('contract', '=', row.contract)
        .where('token_key', '=', row.token_key);
    const claimed = await token(db.updateTable('evm_nft_tokens').set({ next_fetch_at: lease }))
      .where('next_fetch_at', '=', row.next_fetch_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows ?? 0) === 0) return;
    const whileLeased = (q: TokenUpdate) => token(q).where('next_fetch_at', '=', lease);
    const tokenId = BigInt(row.token_id);
    let uri: string | undefined;
    let outcome: ResolvedMetadata;
    try {
      const read = await readUri(rpc, row.contract, tokenId, row.erc_type);
      uri = read.uri;
      outcome = read.missing ? { indexStatus: 'MISSING_TOKEN', metadata: {} } : await resolver.resolve(uri);
    } catch (err) {
      // The node itself is unreachable: try again soon without counting it against the token.
      options.logger?.debug({ err }, 'NFT fetcher: node unavailable');
      await whileLeased(db.updateTable('evm_nft_tokens').set({ next_fetch_at: now() + retryMs })).execute();
      return;
    }
    const t = now();
    const attempts = outcome.indexStatus === 'INDEXED' ? 0 : Number(row.attempts) + 1;
    const delay =
      outcome.indexStatus === 'INDEXED' ? refetchMs : Math.min(refetchMs, retryMs * 2 ** (attempts - 1));
    await whileLeased(
      db.updateTable('evm_nft_tokens').set({
        token_uri: uri ?? null,
        index_status: outcome.indexStatus,
        metadata: JSON.stringify(outcome.metadata),
        metadata_updated_at: Math.floor(t / 1000),
        next_fetch_at: t + delay,
        attempts,
      }),
    ).execute();
  }

  const loop = (async () => {
    while (!stopped) {
      const free = concurrency - inFlight.size;
      let due: Awaited<ReturnType<typeof selectDue>> = [];
      if (free > 0) due = await selectDue(free + inFlight.size).catch(() => []);
      const fresh = due
        .filter((r) => !inFlight.has(`${r.chain}:${r.contract}:${r.token_key}`))
        .slice(0, free);
      if (fresh.length === 0 && inFlight.size === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
      for (const r of fresh) {
        const key = `${r.chain}:${r.contract}:${r.token_key}`;
        inFlight.add(key);
        visit(r)
          .catch((err) => options.logger?.warn({ err }, 'NFT fetcher: visit failed'))
          .finally(() => inFlight.delete(key));
      }
      await new Promise((r) => setTimeout(r, fresh.length > 0 ? 10 : idleMs));
    }
  })();

  function selectDue(limit: number) {
    return db
      .selectFrom('evm_nft_tokens')
      .select(['chain', 'contract', 'token_key', 'token_id', 'erc_type', 'attempts', 'next_fetch_at'])
      .where('next_fetch_at', '<=', now())
      .orderBy('next_fetch_at')
      .limit(limit)
      .execute();
  }

  return {
    async stop() {
      stopped = true;
      await loop;
      const deadline = Date.now() + 5_000;
      while (inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    idle() {
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

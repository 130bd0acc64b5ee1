/**
 * The EVM chains the metrics service has metrics of (the indexer's `evm_chains`): a route's
 * `{chainId}` resolved to one of them or to one of the reference's aggregates, and a chain as the
 * metrics API's Chain.
 */
import type { Kysely } from 'kysely';
import { PRIMARY_NETWORK_ID } from '../../shared/networks.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import type { DataSchema } from '../store/schema.js';

/** The reference's chainId values that name a set of chains rather than one. */
export const AGGREGATES = new Set(['total', 'mainnet', 'testnet']);

/**
 * The chains a v2 series or rolling window covers: one EVM chain, or the reference's aggregates
 * `total` (every indexed chain), `mainnet` and `testnet` (the indexed chains of that kind of
 * network; a local devnet's count as `testnet`, as `/v2/chains` reports them).
 */
export async function chainsOf(db: Kysely<DataSchema>, value: string): Promise<number[]> {
  if (!AGGREGATES.has(value)) return [(await chainOf(db, value)).chain];
  let q = db.selectFrom('evm_chains').select('evm_chain_id');
  if (value !== 'total') q = q.where('is_testnet', '=', value === 'testnet' ? 1 : 0);
  return (await q.execute()).map((r) => Number(r.evm_chain_id));
}

export async function chainOf(
  db: Kysely<DataSchema>,
  value: string,
): Promise<{ chain: number; blockchainId: string }> {
  if (AGGREGATES.has(value))
    throw new InvalidParameterError(
      `chainId "${value}" (aggregate over chains) is not served here: name one EVM chain id`,
    );
  let q = db.selectFrom('evm_chains').select(['evm_chain_id', 'blockchain_id']);
  if (/^\d{1,15}$/.test(value)) q = q.where('evm_chain_id', '=', Number(value));
  else if (/^[1-9A-HJ-NP-Za-km-z]{20,60}$/.test(value)) q = q.where('blockchain_id', '=', value);
  else throw new InvalidParameterError(`chainId must be an EVM chain id, got "${value}"`);
  const row = await q.executeTakeFirst();
  if (!row) throw new NotFoundError(`chain ${value} is not indexed by this service`);
  return { chain: Number(row.evm_chain_id), blockchainId: row.blockchain_id };
}

/** A chain as the metrics API's Chain: a local devnet counts as a test network. */
export const chainItem = (r: {
  evm_chain_id: number;
  blockchain_id: string;
  subnet_id: string;
  name: string;
  is_testnet: number;
}) => ({
  evmChainId: Number(r.evm_chain_id),
  // The reference's aliases are snake_case (`c_chain`); an L1's is made from its name.
  chainName:
    r.subnet_id === PRIMARY_NETWORK_ID
      ? 'c_chain'
      : r.name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_|_$/g, ''),
  blockchainId: r.blockchain_id,
  subnetId: r.subnet_id,
  network: Number(r.is_testnet) === 1 ? ('testnet' as const) : ('mainnet' as const),
});

export const chainRows = (db: Kysely<DataSchema>) =>
  db
    .selectFrom('evm_chains')
    .select(['evm_chain_id', 'blockchain_id', 'subnet_id', 'name', 'is_testnet'])
    .orderBy('evm_chain_id');

/**
 * Token balances of an address summed from its indexed transfers (or read from the chain where
 * it answers), in keyset order.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';

export interface BalanceArgs {
  chain: number;
  address: string;
  blockNumber?: number;
  /** Only these token contracts (lower-case). */
  contracts?: string[];
  after?: [string, string];
  limit: number;
}

/**
 * The chain's own balances of the address in some token contracts at the listing's block
 * (`balanceOf`); a token it cannot read (no such method, a revert) is left out of the map.
 */
export type ChainBalanceReader = (tokens: string[]) => Promise<Map<string, bigint>>;

export interface TokenBalance {
  /** `erc20`, `erc721` or `erc1155`. */
  kind: string;
  token: string;
  /** Decimal token id; empty for ERC-20. */
  tokenId: string;
  /** Sort key: the token id padded to 78 digits. */
  key: string;
  balance: bigint;
}

/** Sort key of a token balance: contract, token id, then standard (a contract emitting both). */
const balanceKey = (b: { token: string; key: string; kind: string }) => [b.token, b.key, b.kind];

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

/**
 * Token balances at a block, summed from the indexed transfers, in (contract, token id) order;
 * zero balances are left out. One page needs every transfer of the address of those kinds: the
 * amounts are decimal text beyond 2^53, which neither store can sum the same way. With several
 * kinds (the collectibles list) the cursor also holds the kind, else [contract, token key].
 */
export async function tokenBalances(
  db: Kysely<DataSchema>,
  kinds: 'erc20' | 'erc721' | 'erc1155' | ('erc721' | 'erc1155')[],
  args: Omit<BalanceArgs, 'after'> & { after?: string[]; chainBalances?: ChainBalanceReader },
): Promise<{ items: TokenBalance[]; next?: string[] }> {
  const several = Array.isArray(kinds);
  let q = db
    .selectFrom('evm_token_transfers')
    .select(['kind', 'token', 'token_id', 'from_addr', 'to_addr', 'value'])
    .where('chain', '=', args.chain)
    .where('address', '=', args.address)
    .where('kind', 'in', several ? kinds : [kinds]);
  if (args.blockNumber !== undefined) q = q.where('block_number', '<=', args.blockNumber);
  if (args.contracts) q = q.where('token', 'in', args.contracts);
  const balances = new Map<string, TokenBalance>();
  for (const r of await q.execute()) {
    const id = `${r.kind}:${r.token}:${r.token_id}`;
    const b = balances.get(id) ?? {
      kind: r.kind,
      token: r.token,
      tokenId: r.token_id,
      key: r.token_id.padStart(78, '0'),
      balance: 0n,
    };
    const v = BigInt(r.value);
    if (r.to_addr === args.address) b.balance += v;
    if (r.from_addr === args.address) b.balance -= v;
    balances.set(id, b);
  }
  const after = args.after;
  const candidates = [...balances.values()]
    .filter((b) => !after || compareKeys(balanceKey(b).slice(0, after.length), after) > 0)
    .sort((a, b) => compareKeys(balanceKey(a), balanceKey(b)));
  let ordered = candidates.filter((b) => b.balance > 0n);
  if (args.chainBalances) {
    // The chain's balanceOf where it answers, the summed events where not (see erc20Balances);
    // read in page-sized chunks until the page and one more are known to be non-zero.
    ordered = [];
    const chunk = Math.min(40, args.limit + 1);
    for (let i = 0; i < candidates.length && ordered.length <= args.limit; i += chunk) {
      const part = candidates.slice(i, i + chunk);
      const read = await args.chainBalances(part.map((b) => b.token));
      for (const b of part) {
        b.balance = read.get(b.token) ?? b.balance;
        if (b.balance > 0n) ordered.push(b);
      }
    }
  }
  const page = ordered.slice(0, args.limit);
  const last = page[page.length - 1];
  return {
    items: page,
    next: ordered.length > args.limit ? balanceKey(last).slice(0, several ? 3 : 2) : undefined,
  };
}

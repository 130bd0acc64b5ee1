/**
 * Addresses by BTC.b bridged (`GET /v2/chains/43114/btcb/bridged:getAddresses`, chainkit
 * metrics.chains.listBTCbBridgersAboveThreshold): the addresses whose net amount bridged into
 * the Avalanche C-chain as BTC.b is at least a threshold, from the token transfers the EVM
 * indexer keeps.
 *
 * The bridge mints BTC.b to the addresses it credits (a Transfer from the zero address) and
 * burns what they unwrap back to Bitcoin (a Transfer to the zero address): an address's net
 * bridged amount is what was minted to it less what it burned, in the token's smallest unit
 * (satoshis: BTC.b has 8 decimals), which the threshold and `sortKey` are in too. Only the
 * mainnet C-chain (EVM chain id 43114) has BTC.b; where that chain is not indexed, or the token
 * never moved, no address qualifies. Largest amount first, then address.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { checksumAddress } from '../evm/abi.js';

/** The mainnet C-chain, the one chain with BTC.b. */
export const BTCB_CHAIN_ID = 43114;
/** BTC.b on the mainnet C-chain. */
export const BTCB_TOKEN = '0x152b9d0fdc40c096757f570a51e494bd4b943e50';
const ZERO = '0x0000000000000000000000000000000000000000';

/** The last entry of a page: its net amount (decimal) and address (lower-case hex). */
export type BtcbCursor = [amount: string, address: string];

export async function readBtcbBridgers(
  db: Kysely<DataSchema>,
  q: { threshold: bigint; after?: BtcbCursor; limit: number },
): Promise<{ addresses: { address: string; sortKey: string }[]; next?: BtcbCursor }> {
  // One row per transfer: the sender's (the zero address's for a mint).
  const rows = await db
    .selectFrom('evm_token_transfers')
    .select(['from_addr', 'to_addr', 'value'])
    .where('chain', '=', BTCB_CHAIN_ID)
    .where('token', '=', BTCB_TOKEN)
    .where('kind', '=', 'erc20')
    .where((eb) => eb('address', '=', eb.ref('from_addr')))
    .where((eb) => eb.or([eb('from_addr', '=', ZERO), eb('to_addr', '=', ZERO)]))
    .execute();
  const net = new Map<string, bigint>();
  for (const r of rows) {
    if (r.from_addr === ZERO && r.to_addr !== ZERO)
      net.set(r.to_addr, (net.get(r.to_addr) ?? 0n) + BigInt(r.value));
    else if (r.to_addr === ZERO && r.from_addr !== ZERO)
      net.set(r.from_addr, (net.get(r.from_addr) ?? 0n) - BigInt(r.value));
  }
  const after = q.after && { amount: BigInt(q.after[0]), address: q.after[1] };
  const ranked = [...net]
    .filter(([, amount]) => amount >= q.threshold)
    .sort(([a, x], [b, y]) => (x === y ? (a < b ? -1 : a > b ? 1 : 0) : x > y ? -1 : 1))
    .filter(
      ([address, amount]) =>
        !after || amount < after.amount || (amount === after.amount && address > after.address),
    );
  const page = ranked.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    addresses: page.map(([address, amount]) => ({
      address: checksumAddress(address),
      sortKey: amount.toString(),
    })),
    next: ranked.length > q.limit ? [last[1].toString(), last[0]] : undefined,
  };
}

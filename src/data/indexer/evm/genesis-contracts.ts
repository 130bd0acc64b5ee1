/**
 * Contracts a chain starts with. The indexer learns contracts from the CREATE frames it traces,
 * but a genesis `alloc` entry with `code` (Multicall3 on the C-chain, an L1's validator manager,
 * Teleporter messenger or token predeploys) was never deployed by a transaction, so without this
 * the chain-data service would call it "not a contract". The genesis comes from the node's public
 * interface: `platform.getTx` of the blockchain id serves the chain's CreateChainTx (genesis chains
 * included), whose `genesisData` is the chain's genesis JSON. Each allocated address with code is
 * recorded like a deployed contract (standard and metadata read by eth_call) but without
 * deployment details, since there was no deployment.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../../store/schema.js';
import type { NodeClient } from '../../internal/node-client.js';
import { NodeRpcError } from '../../internal/node-client.js';
import { UpstreamInvalidError } from '../../internal/errors.js';
import type { EvmRpcClient } from './rpc-client.js';
import { readContractInfo } from './token-info.js';

/** Addresses read with eth_call at once (six calls each), so a large genesis stays paced. */
const READ_CHUNK = 50;

/**
 * The lowercase 0x addresses a genesis JSON allocates code to, in allocation order. Keys may
 * come with or without `0x` and in any case, as genesis files write them; anything that is not
 * an EVM genesis (or an entry without code) yields nothing.
 */
export function genesisCodeAddresses(genesis: Uint8Array): string[] {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(genesis).toString('utf8'));
  } catch {
    return [];
  }
  const alloc = (json as { alloc?: unknown } | null)?.alloc;
  if (!alloc || typeof alloc !== 'object' || Array.isArray(alloc)) return [];
  const out = new Set<string>();
  for (const [key, entry] of Object.entries(alloc as Record<string, unknown>)) {
    const address = (key.startsWith('0x') || key.startsWith('0X') ? key.slice(2) : key).toLowerCase();
    if (!/^[0-9a-f]{40}$/.test(address)) continue;
    const code = (entry as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') continue;
    const hex = code.replace(/^0x/i, '');
    if (hex.length === 0 || !/^[0-9a-fA-F]*$/.test(hex)) continue;
    out.add('0x' + address);
  }
  return [...out];
}

/**
 * `genesisData` as `platform.getTx` json writes it: a Go `[]byte`, so base64 on the reference
 * node; 0x-hex is taken too, as some tools write bytes so.
 */
function genesisBytes(data: unknown): Uint8Array | undefined {
  if (typeof data !== 'string' || data === '') return undefined;
  if (/^0x([0-9a-fA-F]{2})*$/.test(data)) return Buffer.from(data.slice(2), 'hex');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return undefined;
  return Buffer.from(data, 'base64');
}

/**
 * The chain's genesis bytes from its CreateChainTx; undefined where the node does not serve it
 * (an error answer, or no P-chain endpoint at all). A node that cannot be reached throws, so the
 * caller can try again later.
 */
export async function readChainGenesis(
  node: NodeClient,
  blockchainId: string,
): Promise<Uint8Array | undefined> {
  let reply: { tx?: { unsignedTx?: { genesisData?: unknown } } };
  try {
    reply = await node.call('/ext/bc/P', 'platform.getTx', { txID: blockchainId, encoding: 'json' });
  } catch (err) {
    if (err instanceof NodeRpcError || err instanceof UpstreamInvalidError) return undefined;
    throw err;
  }
  return genesisBytes(reply?.tx?.unsignedTx?.genesisData);
}

/**
 * Records the contracts of a chain's genesis that the store does not hold yet; returns how many
 * were written. Rows already there (an earlier start, or the indexer having seen the address)
 * are left as they are, so a restart or a repeated discovery neither duplicates nor undoes them.
 */
export async function recordGenesisContracts(
  db: Kysely<DataSchema>,
  node: NodeClient,
  rpc: EvmRpcClient,
  chain: { blockchainId: string; evmChainId: number },
): Promise<number> {
  const genesis = await readChainGenesis(node, chain.blockchainId);
  if (!genesis) return 0;
  const allocated = genesisCodeAddresses(genesis);
  if (allocated.length === 0) return 0;
  let written = 0;
  for (let i = 0; i < allocated.length; i += READ_CHUNK) {
    const part = allocated.slice(i, i + READ_CHUNK);
    const stored = await db
      .selectFrom('evm_contracts')
      .select('address')
      .where('chain', '=', chain.evmChainId)
      .where('address', 'in', part)
      .execute();
    const known = new Set(stored.map((r) => r.address));
    const fresh = part.filter((a) => !known.has(a));
    if (fresh.length === 0) continue;
    // Read at the head, as the indexer reads the contracts it finds while backfilling.
    const infos = await readContractInfo(rpc, new Map(fresh.map((a) => [a, undefined])), 'latest');
    for (const c of infos) {
      const result = await db
        .insertInto('evm_contracts')
        .values({
          chain: chain.evmChainId,
          address: c.address,
          erc_type: c.ercType ?? 'UNKNOWN',
          name: c.name ?? null,
          symbol: c.symbol ?? null,
          decimals: c.decimals ?? null,
          tx_hash: null,
          block_number: null,
          deployer: null,
          deployer_contract: null,
        })
        .onConflict((oc) => oc.columns(['chain', 'address']).doNothing())
        .executeTakeFirst();
      written += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
  }
  return written;
}

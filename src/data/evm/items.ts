/**
 * The real service's response objects (transactions, tokens, NFTs, contracts) shaped from stored
 * rows of the EVM party tables.
 */
import type { Selectable } from 'kysely';
import type {
  EvmContractTable,
  EvmInternalTxTable,
  EvmNativeTxTable,
  EvmNftTokenTable,
} from '../store/schema-evm.js';
import { KNOWN_METHODS, checksumAddress } from './abi.js';

export const rich = (address: string) => ({ address: address ? checksumAddress(address) : '' });

/** NftTokenMetadata of the real service from a stored token (UNINDEXED until fetched). */
export function nftMetadata(row: Selectable<EvmNftTokenTable> | undefined, kind: 'ERC-721' | 'ERC-1155') {
  if (!row) return { indexStatus: 'UNINDEXED' };
  const stored = JSON.parse(row.metadata || '{}') as Record<string, unknown>;
  const out: Record<string, unknown> = { indexStatus: row.index_status };
  if (row.metadata_updated_at !== null) out.metadataLastUpdatedTimestamp = Number(row.metadata_updated_at);
  for (const key of [
    'name',
    'symbol',
    'imageUri',
    'description',
    'animationUri',
    'externalUrl',
    'background',
  ])
    if (typeof stored[key] === 'string') out[key] = stored[key];
  if (kind === 'ERC-721' && typeof stored.attributes === 'string') out.attributes = stored.attributes;
  if (kind === 'ERC-1155') {
    if (typeof stored.properties === 'string') out.properties = stored.properties;
    if (typeof stored.decimals === 'number') out.decimals = stored.decimals;
  }
  return out;
}

/**
 * `methodHash` and `methodName` as the reference documents them: the hash is set only for a
 * contract call (an empty string otherwise); the name is `Native Transfer` for a plain transfer,
 * `Contract Created` for a creation, and the signature of a well-known selector for a call.
 */
function methodNaming(r: Pick<Selectable<EvmNativeTxTable>, 'call_type' | 'method_hash'>) {
  if (r.call_type === 'NATIVE_TRANSFER') return { methodHash: '', methodName: 'Native Transfer' };
  if (r.call_type === 'CONTRACT_CREATION') return { methodHash: '', methodName: 'Contract Created' };
  const name = KNOWN_METHODS[r.method_hash];
  return name ? { methodHash: r.method_hash, methodName: name } : { methodHash: r.method_hash };
}

/** NativeTransaction of the real service from a stored row. */
export function nativeTxItem(r: Selectable<EvmNativeTxTable>) {
  const method: Record<string, unknown> = { callType: r.call_type, ...methodNaming(r) };
  return {
    blockNumber: String(r.block_number),
    blockTimestamp: Number(r.block_ts),
    blockHash: r.block_hash,
    chainId: String(r.chain),
    blockIndex: Number(r.tx_index),
    txHash: r.tx_hash,
    txStatus: String(r.status),
    txType: Number(r.tx_type),
    gasLimit: r.gas_limit,
    gasUsed: r.gas_used,
    gasPrice: r.gas_price,
    nonce: r.nonce,
    from: rich(r.from_addr),
    to: rich(r.to_addr),
    method,
    value: r.value,
  };
}

/** Erc20Token of the real service (metadata from the contract's own methods). */
export function erc20Token(token: string, c: Selectable<EvmContractTable> | undefined) {
  return {
    address: checksumAddress(token),
    name: c?.name ?? '',
    symbol: c?.symbol ?? '',
    decimals: c?.decimals ?? 0,
    ercType: 'ERC-20',
  };
}

export function erc721Token(
  token: string,
  tokenId: string,
  c: Selectable<EvmContractTable> | undefined,
  nft: Selectable<EvmNftTokenTable> | undefined,
) {
  return {
    address: checksumAddress(token),
    name: c?.name ?? '',
    symbol: c?.symbol ?? '',
    ercType: 'ERC-721',
    tokenId,
    tokenUri: nft?.token_uri ?? '',
    metadata: nftMetadata(nft, 'ERC-721'),
    ...(nft?.owner ? { ownerAddress: checksumAddress(nft.owner) } : {}),
  };
}

export function erc1155Token(token: string, tokenId: string, nft: Selectable<EvmNftTokenTable> | undefined) {
  return {
    address: checksumAddress(token),
    ercType: 'ERC-1155',
    tokenId,
    tokenUri: nft?.token_uri ?? '',
    metadata: nftMetadata(nft, 'ERC-1155'),
  };
}

/** An Erc721Token or Erc1155Token (by the stored standard) of a collection listing. */
export function nftTokenItem(r: Selectable<EvmNftTokenTable>, c: Selectable<EvmContractTable> | undefined) {
  const kind = r.erc_type === 'ERC-1155' ? 'ERC-1155' : 'ERC-721';
  const base = {
    address: checksumAddress(r.contract),
    ercType: kind,
    tokenId: r.token_id,
    tokenUri: r.token_uri ?? '',
    metadata: nftMetadata(r, kind),
  };
  if (kind === 'ERC-1155') return base;
  return {
    ...base,
    name: c?.name ?? '',
    symbol: c?.symbol ?? '',
    ...(r.owner ? { ownerAddress: checksumAddress(r.owner) } : {}),
  };
}

/** A contract as the real service's Erc20/Erc721/Erc1155/UnknownContract shows it. */
export function contractItem(address: string, c: Selectable<EvmContractTable> | undefined) {
  const ercType = c?.erc_type ?? 'UNKNOWN';
  const out: Record<string, unknown> = { address: checksumAddress(address), ercType };
  if (c?.tx_hash && c.deployer)
    out.deploymentDetails = {
      txHash: c.tx_hash,
      deployerAddress: checksumAddress(c.deployer),
      ...(c.deployer_contract ? { deployerContractAddress: checksumAddress(c.deployer_contract) } : {}),
    };
  if (c?.name) out.name = c.name;
  if (ercType !== 'UNKNOWN' && c?.symbol) out.symbol = c.symbol;
  if (ercType === 'ERC-20') out.decimals = c?.decimals ?? 0;
  return out;
}

/** The fields of an internal transaction that do not name its block. */
export function internalTxItem(r: Selectable<EvmInternalTxTable>) {
  return {
    from: rich(r.from_addr),
    to: rich(r.to_addr),
    internalTxType: r.call_type,
    value: r.value,
    isReverted: Number(r.is_reverted) === 1,
    gasUsed: r.gas_used,
    gasLimit: r.gas_limit,
  };
}

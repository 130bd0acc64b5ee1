/**
 * Classifies contracts (ERC-20 / ERC-721 / ERC-1155 / UNKNOWN) and reads name, symbol and
 * decimals with eth_call. A method that is missing, reverts or returns garbage simply leaves its
 * field empty: token metadata never stops the indexer.
 */
import {
  INTERFACE_ERC1155,
  INTERFACE_ERC721,
  SELECTOR,
  callSupportsInterface,
  decodeBoolReturn,
  decodeStringReturn,
  decodeUintReturn,
} from '../../evm/abi.js';
import type { EvmRpcClient } from './rpc-client.js';
import type { ContractInfo } from './write-batch.js';

type Hint = 'ERC-20' | 'ERC-721' | 'ERC-1155' | undefined;

const CALLS = [
  ['is721', callSupportsInterface(INTERFACE_ERC721)],
  ['is1155', callSupportsInterface(INTERFACE_ERC1155)],
  ['name', SELECTOR.name],
  ['symbol', SELECTOR.symbol],
  ['decimals', SELECTOR.decimals],
  ['totalSupply', SELECTOR.totalSupply],
] as const;

/** Reads every contract's standard and metadata in one batch of eth_calls. */
export async function readContractInfo(
  rpc: EvmRpcClient,
  contracts: Map<string, Hint>,
  blockTag: string,
): Promise<ContractInfo[]> {
  const addresses = [...contracts.keys()];
  if (addresses.length === 0) return [];
  const outcomes = await rpc.batch<string>(
    addresses.flatMap((to) =>
      CALLS.map(([, data]) => ({ method: 'eth_call', params: [{ to, data }, blockTag] })),
    ),
  );
  return addresses.map((address, i) => {
    const got: Record<string, string | undefined> = {};
    CALLS.forEach(([key], j) => {
      const o = outcomes[i * CALLS.length + j];
      got[key] = o.ok && typeof o.value === 'string' ? o.value : undefined;
    });
    const decimals = decodeUintReturn(got.decimals, 255n);
    const hasSupply = got.totalSupply !== undefined && got.totalSupply.length >= 66;
    let ercType: string;
    if (decodeBoolReturn(got.is721)) ercType = 'ERC-721';
    else if (decodeBoolReturn(got.is1155)) ercType = 'ERC-1155';
    else if (contracts.get(address)) ercType = contracts.get(address)!;
    else if (decimals !== undefined && hasSupply) ercType = 'ERC-20';
    else ercType = 'UNKNOWN';
    return {
      address,
      ercType,
      name: decodeStringReturn(got.name) ?? null,
      symbol: decodeStringReturn(got.symbol) ?? null,
      decimals: ercType === 'ERC-20' ? (decimals ?? null) : null,
    };
  });
}

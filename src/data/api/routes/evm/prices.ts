/** The native token's price on an EVM chain, from the operator's configured price source. */
import { PRIMARY_NETWORK_ID } from '../../../../shared/networks.js';
import type { ChainRow } from '../../../evm/read-model.js';
import type { Currency } from '../../api-keys.js';
import type { EvmRouteDeps } from './deps.js';

/** Money in `currency`, or undefined when the chain's token has no configured price. */
export function nativeTokenPrice(
  chain: ChainRow,
  currency: Currency,
  prices: EvmRouteDeps['prices'],
): { currencyCode: Currency; value: number } | undefined {
  // The operator's prices are those of AVAX, the C-chain's token; an L1's own token has none.
  const value = chain.subnet_id === PRIMARY_NETWORK_ID ? prices[currency] : undefined;
  return value === undefined ? undefined : { currencyCode: currency, value };
}

/** What the EVM routes need beyond the shared RouteDeps: the store and the price source. */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../../../store/schema.js';
import type { Currency } from '../../api-keys.js';
import type { EvmReadModel } from '../../../evm/read-model.js';

export interface EvmRouteDeps {
  db: Kysely<DataSchema>;
  read: EvmReadModel;
  /** Price of each chain's native token per currency (the operator's configured price source). */
  prices: Partial<Record<Currency, number>>;
}

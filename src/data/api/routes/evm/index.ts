/**
 * The EVM routes as plugins for the REST app's `extraRoutes`: transfers, one transaction, blocks,
 * balances, deployments, NFT collections, the chain list and ICM messages, over the EVM read model.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { createEvmReadModel } from '../../../evm/read-model.js';
import type { DataSchema } from '../../../store/schema.js';
import type { Currency } from '../../api-keys.js';
import type { RouteDeps } from '../deps.js';
import { balanceRoutes } from './balances.js';
import { blockRoutes } from './blocks.js';
import { chainRoutes } from './chains.js';
import { contractRoutes } from './contracts.js';
import { icmRoutes } from './icm.js';
import { nftRoutes } from './nfts.js';
import { transactionRoutes } from './transaction.js';
import { transferRoutes } from './transfers.js';

export function createEvmRoutes(options: {
  db: Kysely<DataSchema>;
  prices: Partial<Record<Currency, number>>;
}): FastifyPluginAsync<RouteDeps>[] {
  const deps = { db: options.db, read: createEvmReadModel(options.db), prices: options.prices };
  return [
    transferRoutes(deps),
    transactionRoutes(deps) as FastifyPluginAsync<RouteDeps>,
    blockRoutes(deps),
    balanceRoutes(deps),
    contractRoutes(deps),
    nftRoutes(deps),
    chainRoutes(deps) as FastifyPluginAsync<RouteDeps>,
    icmRoutes(deps),
  ];
}

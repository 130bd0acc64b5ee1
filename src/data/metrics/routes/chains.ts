/**
 * `GET /v2/chains` and `GET /v2/chains/{chainId}`: the EVM chains the indexer has metrics of, as
 * the metrics API's Chain.
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidPageTokenError } from '../../internal/errors.js';
import { chainItem, chainOf, chainRows } from '../indexed-chains.js';
import { ChainsQuery, ChainsResponse, ERRORS, MetricsChain, V1Params } from '../schemas.js';
import type { MetricsRouteDeps } from './deps.js';

export default async function chainsRoutes(app: FastifyInstance, { db }: MetricsRouteDeps) {
  app.get(
    '/v2/chains',
    {
      schema: {
        tags: ['EVM Chains'],
        operationId: 'listChains',
        summary: 'Get a list of supported blockchains',
        querystring: ChainsQuery,
        response: { 200: ChainsResponse, ...ERRORS },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ChainsQuery>;
      // Every chain fits one page: a token can only come from elsewhere.
      if (q.pageToken !== undefined) throw new InvalidPageTokenError('invalid pageToken');
      const want = q.network === undefined ? undefined : q.network === 'mainnet' ? 'mainnet' : 'testnet';
      const chains = (await chainRows(db).execute()).map(chainItem);
      return { chains: chains.filter((c) => want === undefined || c.network === want) };
    },
  );

  app.get(
    '/v2/chains/:chainId',
    {
      schema: {
        tags: ['EVM Chains'],
        operationId: 'getChain',
        summary: 'Get chain information for supported blockchain',
        params: V1Params,
        response: { 200: MetricsChain, ...ERRORS },
      },
    },
    async (request) => {
      const { chain } = await chainOf(db, (request.params as Static<typeof V1Params>).chainId);
      return chainItem(await chainRows(db).where('evm_chain_id', '=', chain).executeTakeFirstOrThrow());
    },
  );
}

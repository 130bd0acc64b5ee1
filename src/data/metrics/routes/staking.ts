/** `GET /v2/networks/{network}/metrics/{metric}`: staking metrics from the indexed stakers and L1 validations. */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../internal/errors.js';
import { parseCb58Id, resolveNetwork } from '../../networks.js';
import { ERRORS, StakingParams, StakingQuery, V2Response } from '../schemas.js';
import { readStakingSeries, STAKING_METRICS, type StakingMetric } from '../staking.js';
import type { MetricsRouteDeps } from './deps.js';
import { checkTimeRange } from './time-range.js';

export default async function stakingRoute(
  app: FastifyInstance,
  { db, now, network, signedPage }: MetricsRouteDeps,
) {
  app.get(
    '/v2/networks/:network/metrics/:metric',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getStakingMetrics',
        summary: 'Get staking metrics for a given subnet',
        params: StakingParams,
        querystring: StakingQuery,
        response: { 200: V2Response, ...ERRORS },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof StakingParams>;
      const q = request.query as Static<typeof StakingQuery>;
      if (!['mainnet', 'fuji', 'testnet'].includes(p.network))
        throw new InvalidParameterError('network must be one of mainnet, fuji, testnet');
      // A local devnet answers as a test network, as the chain-data service does; `testnet` is
      // fuji there, and a 404 names the network as the request did.
      if (network) resolveNetwork(network, p.network);
      if (!(STAKING_METRICS as readonly string[]).includes(p.metric))
        throw new InvalidParameterError(`metric must be one of ${STAKING_METRICS.join(', ')}`);
      const subnetId = parseCb58Id(q.subnetId, 'subnetId');
      checkTimeRange(q);
      const scope = ['staking', p.metric, subnetId, q.startTimestamp ?? null, q.endTimestamp ?? null];
      return signedPage(scope, q.pageToken, (before?: number) =>
        readStakingSeries(db, {
          subnetId,
          metric: p.metric as StakingMetric,
          from: q.startTimestamp,
          to: q.endTimestamp,
          before,
          limit: q.pageSize,
          nowSeconds: Math.floor(now() / 1000),
        }),
      );
    },
  );
}

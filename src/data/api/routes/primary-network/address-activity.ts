/**
 * `GET /v1/networks/{network}/addresses:listChainIds`: the primary-network chains each address has
 * outputs on; `GET` and `POST …/blockchains/{blockchainId}/lastActivityTimestampByAddresses`: the
 * newest output created for or spent from any of the addresses on one chain.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../../internal/errors.js';
import { parseAddresses, reportedNetworkName, resolveChain, resolveNetwork } from '../../../networks.js';
import { ERROR_RESPONSES, Network } from '../../schemas/common.js';
import { ChainIdsOfAddresses, LastActivityTimestamp } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Addresses = Type.String({ minLength: 1, description: 'comma-separated addresses' });
const NetworkParams = Type.Object({ network: Network });
const ChainParams = Type.Object({
  network: Network,
  blockchainId: Type.String({ minLength: 1, maxLength: 64 }),
});
const ListQuery = Type.Object({ addresses: Addresses }, { additionalProperties: false });
const ActivityQuery = Type.Object({ addresses: Type.Optional(Addresses) }, { additionalProperties: false });
const Body = Type.Object({ addresses: Addresses });

/** Addresses per request: as many as a balances request takes on GET, as a UTXO request on POST. */
const MAX_GET = 256;
const MAX_POST = 1024;

export default async function addressActivityRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/addresses::listChainIds',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network'],
        operationId: 'getChainIdsForAddresses',
        summary: 'Primary-network chains each address has outputs on',
        params: NetworkParams,
        querystring: ListQuery,
        response: { 200: ChainIdsOfAddresses, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof NetworkParams>;
      const network = resolveNetwork(deps.network, params.network);
      const addresses = parseAddresses(
        network,
        (request.query as Static<typeof ListQuery>).addresses,
        MAX_GET,
      );
      return { addresses: await deps.repo.chainIdsOfAddresses(addresses) };
    },
  );

  async function lastActivity(params: Static<typeof ChainParams>, list: string | undefined, max: number) {
    const network = resolveNetwork(deps.network, params.network);
    const chain = resolveChain(network, params.blockchainId);
    if (!list) throw new InvalidParameterError('addresses is required');
    const activity = await deps.repo.lastActivity(chain.blockchainId, parseAddresses(network, list, max));
    // The real service names the network mainnet or fuji here (testnet is fuji).
    const name = reportedNetworkName(params.network);
    return { ...activity, network: name === 'testnet' ? 'fuji' : name };
  }

  const path = '/v1/networks/:network/blockchains/:blockchainId/lastActivityTimestampByAddresses';
  app.get(
    path,
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network UTXOs'],
        operationId: 'getLastActivityTimestampByAddresses',
        summary: 'The newest activity of the addresses on one chain',
        params: ChainParams,
        querystring: ActivityQuery,
        response: { 200: LastActivityTimestamp, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      lastActivity(
        request.params as Static<typeof ChainParams>,
        (request.query as Static<typeof ActivityQuery>).addresses,
        MAX_GET,
      ),
  );
  app.post(
    path,
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network UTXOs'],
        operationId: 'getLastActivityTimestampByAddressesV2',
        summary: 'The newest activity of the addresses on one chain (addresses in the body)',
        params: ChainParams,
        body: Body,
        response: { 200: LastActivityTimestamp, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      lastActivity(
        request.params as Static<typeof ChainParams>,
        (request.body as Static<typeof Body>).addresses,
        MAX_POST,
      ),
  );
}

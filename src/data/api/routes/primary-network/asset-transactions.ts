/** `GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions` (X-chain only). */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../../internal/errors.js';
import { parseCb58Id, reportedNetworkName, resolveChain, resolveNetwork } from '../../../networks.js';
import {
  ERROR_RESPONSES,
  Network,
  StringEnum,
  PageToken,
  pageSize,
  storedInteger,
} from '../../schemas/common.js';
import { AssetTransactionList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

/** Primary-network transaction types the filter accepts (the real service's closed set). */
export const PRIMARY_NETWORK_TX_TYPES = [
  'AddValidatorTx',
  'AddSubnetValidatorTx',
  'AddDelegatorTx',
  'CreateChainTx',
  'CreateSubnetTx',
  'ImportTx',
  'ExportTx',
  'AdvanceTimeTx',
  'RewardValidatorTx',
  'RemoveSubnetValidatorTx',
  'TransformSubnetTx',
  'AddPermissionlessValidatorTx',
  'AddPermissionlessDelegatorTx',
  'BaseTx',
  'TransferSubnetOwnershipTx',
  'ConvertSubnetToL1Tx',
  'RegisterL1ValidatorTx',
  'SetL1ValidatorWeightTx',
  'DisableL1ValidatorTx',
  'IncreaseL1ValidatorBalanceTx',
  'UNKNOWN',
  'CreateAssetTx',
  'OperationTx',
] as const;

const Params = Type.Object({
  network: Network,
  blockchainId: Type.String({ minLength: 1, maxLength: 64, description: 'x-chain or an X-chain id' }),
  assetId: Type.String({ minLength: 1, maxLength: 64 }),
});
const TxType = StringEnum(PRIMARY_NETWORK_TX_TYPES);
const Query = Type.Object(
  {
    txTypes: Type.Optional(Type.Array(TxType, { maxItems: 23 })),
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
  },
  { additionalProperties: false },
);

export default async function assetTransactionsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/assets/:assetId/transactions',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network Transactions'],
        operationId: 'listAssetTransactions',
        summary: 'List X-chain transactions of an asset',
        params: Params,
        querystring: Query,
        response: { 200: AssetTransactionList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      const network = resolveNetwork(deps.network, params.network);
      const chain = resolveChain(network, params.blockchainId, ['x-chain']);
      const assetId = parseCb58Id(params.assetId, 'assetId');
      if (q.startTimestamp !== undefined && q.endTimestamp !== undefined && q.startTimestamp > q.endTimestamp)
        throw new InvalidParameterError('startTimestamp must not be after endTimestamp');
      const txTypes = q.txTypes ? [...new Set(q.txTypes)].sort() : undefined;
      const scope = ['assetTxs', assetId, txTypes, q.startTimestamp, q.endTimestamp];
      const afterSeq = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
      const { transactions, next } = await deps.repo.assetTransactions({
        assetId,
        txTypes,
        startTimestamp: q.startTimestamp,
        endTimestamp: q.endTimestamp,
        afterSeq,
        limit: q.pageSize,
      });
      return {
        ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
        transactions,
        chainInfo: {
          chainName: chain.alias,
          network: reportedNetworkName(params.network),
        },
      };
    },
  );
}

/**
 * `POST /v1/signatureAggregator/{network}/aggregateSignatures`: collects validator signatures for
 * a Warp message and returns the signed message; `GET …/aggregateSignatures/{txHash}` does the
 * same for the L1 Warp message a P-chain tx emits (aggregator/pchain-tx-message.ts). 201 on
 * success for both, as the real service answers (chainkit accepts only 201 here).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SignatureAggregator } from '../../aggregator/aggregator.js';
import { resolveNetwork } from '../../networks.js';
import { ERROR_RESPONSES, Network } from '../schemas/common.js';
import { WEIGHT, type RouteDeps } from './deps.js';

const Params = Type.Object({ network: Network });
const Body = Type.Object(
  {
    message: Type.Optional(
      Type.String({ description: 'Unsigned Warp message (or SendWarpMessage log data), hex, 0x optional' }),
    ),
    justification: Type.Optional(Type.String({ description: 'Justification bytes, hex, 0x optional' })),
    signingSubnetId: Type.Optional(
      Type.String({
        description: 'Subnet whose validators sign (cb58 or 0x hex); default: the source chain subnet',
      }),
    ),
    quorumPercentage: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: '0 means 67' })),
    quorumPercentageBuffer: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    pChainHeight: Type.Optional(
      Type.Integer({ minimum: 0, description: '0: the current (proposed) height' }),
    ),
  },
  { additionalProperties: false },
);
const Result = Type.Object({
  signedMessage: Type.String({ description: 'Signed Warp message, hex without 0x' }),
});

const TxParams = Type.Object({
  network: Network,
  txHash: Type.String({ description: 'A P-chain transaction id (cb58)' }),
});

/**
 * A spec client aggregating on a local devnet names it fuji or testnet (`resolveNetwork`); the
 * message's own network id must still be the devnet's.
 */
function checkNetwork(deps: RouteDeps, network: Static<typeof Network>) {
  resolveNetwork(deps.network, network);
}

export function signatureAggregatorRoute(aggregator: SignatureAggregator) {
  return async function route(app: FastifyInstance, deps: RouteDeps) {
    app.get(
      '/v1/signatureAggregator/:network/aggregateSignatures/:txHash',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['Signature Aggregator'],
          operationId: 'getAggregatedSignatures',
          summary:
            "Aggregate the L1 validators' signatures of the Warp message a P-chain tx emits (ConvertSubnetToL1Tx, RegisterL1ValidatorTx, SetL1ValidatorWeightTx)",
          params: TxParams,
          response: { 201: Result, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const params = request.params as Static<typeof TxParams>;
        checkNetwork(deps, params.network);
        const result = await aggregator.aggregateTx(params.txHash);
        return reply.code(201).send({ signedMessage: result.signedMessage });
      },
    );

    app.post(
      '/v1/signatureAggregator/:network/aggregateSignatures',
      {
        // The real service's execution weight for this route is medium (20 CU), not xl.
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['Signature Aggregator'],
          operationId: 'aggregateSignatures',
          summary: 'Aggregate validator signatures of a Warp message',
          params: Params,
          body: Body,
          response: { 201: Result, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const params = request.params as Static<typeof Params>;
        checkNetwork(deps, params.network);
        const result = await aggregator.aggregate(request.body as Static<typeof Body>);
        return reply.code(201).send({ signedMessage: result.signedMessage });
      },
    );
  };
}

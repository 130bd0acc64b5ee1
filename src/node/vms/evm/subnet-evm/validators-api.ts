/**
 * `validators.getCurrentValidators {nodeIDs?}` at `/ext/bc/<chain>/validators`: the chain's
 * subnet validators from the P-chain — L1 validators (validationID, weight, start, active when
 * their balance lasts) or, before conversion, the subnet's permissioned validators (validationID
 * = their add-validator tx) — with this node's view of their connection and uptime.
 */
import type { ChainContext } from '../../../chains/chain.js';
import { formatNodeId, fromCb58, parseNodeId, toCb58 } from '../../../../shared/encoding.js';
import { AvalancheEndpoint } from '../../../rpc/avalanche-endpoint.js';
import { jsonInteger } from '../../../rpc/json-integer.js';
import { ParamsShapeError } from '../../../rpc/params.js';
import type { PlatformChain } from '../../platformvm/chain.js';
import type { UptimeTracker } from './uptime.js';

export interface SubnetValidator {
  validationID: string;
  nodeID: string;
  weight: bigint;
  startTimestamp: number;
  isActive: boolean;
  isL1Validator: boolean;
}

export function subnetValidators(ctx: ChainContext, subnetID: string): SubnetValidator[] {
  const platform = ctx.chain('P') as PlatformChain | undefined;
  if (!platform) return [];
  const subnet = fromCb58(subnetID);
  const state = platform.vm.state;
  const l1 = state.l1Validators(subnet);
  if (l1.length > 0 || state.subnet(subnet)?.conversionId !== undefined) {
    return l1.map((v) => ({
      validationID: toCb58(v.validationId),
      nodeID: formatNodeId(v.nodeId),
      weight: v.weight,
      startTimestamp: v.startTime,
      isActive: v.status === 'active',
      isL1Validator: true,
    }));
  }
  return state
    .currentStakers(subnet)
    .filter((s) => s.validatorTx === undefined)
    .map((s) => ({
      validationID: toCb58(s.txId),
      nodeID: formatNodeId(s.nodeId),
      weight: s.weight,
      startTimestamp: s.startTime,
      isActive: true,
      isL1Validator: false,
    }));
}

export function createValidatorsEndpoint(
  ctx: ChainContext,
  subnetID: string,
  uptime: UptimeTracker,
): AvalancheEndpoint {
  return new AvalancheEndpoint('validators').registerAll('validators', {
    getCurrentValidators: (params) => {
      const raw = params.get('nodeIDs');
      let wanted: Set<string> | undefined;
      if (raw !== undefined && raw !== null) {
        // A list that does not decode into []ids.NodeID fails to unmarshal, as on the reference.
        if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string'))
          throw new ParamsShapeError('nodeIDs: expected an array of strings');
        (raw as string[]).forEach((id, i) => {
          try {
            parseNodeId(id);
          } catch {
            throw new ParamsShapeError(`nodeIDs[${i}]: invalid nodeID: ${JSON.stringify(id)}`);
          }
        });
        // An empty list asks for every validator, as the reference does.
        if ((raw as string[]).length > 0) wanted = new Set(raw as string[]);
      }
      const validators = subnetValidators(ctx, subnetID)
        .filter((v) => !wanted || wanted.has(v.nodeID))
        .map((v) => {
          const u = uptime.uptimeOf(v.nodeID);
          return {
            validationID: v.validationID,
            nodeID: v.nodeID,
            // A uint64 Go writes with every digit (an L1's weights may pass 2^53).
            weight: jsonInteger(v.weight),
            startTimestamp: v.startTimestamp,
            isActive: v.isActive,
            isL1Validator: v.isL1Validator,
            isConnected: uptime.isConnected(v.nodeID),
            uptimePercentage: float32(u.percentage),
            uptimeSeconds: u.seconds,
          };
        });
      return { validators };
    },
  });
}

/**
 * A float32 as Go's encoding/json writes one (the reference's `uptimePercentage` is a float32):
 * the shortest decimal that reads back as the same float32, so 99.99999999999987 is 100.
 */
export function float32(x: number): number {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) return f;
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(f.toPrecision(digits));
    if (Math.fround(shortest) === f) return shortest;
  }
  return Number(f.toPrecision(9));
}

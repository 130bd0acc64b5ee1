/**
 * Read model of the validator routes: one node's validations, every validation and every
 * delegation, with their status at the validation status clock. Completed periods come from the
 * store; what only the P-chain state knows of an active one (uptime, potential rewards) from the
 * node when one is configured.
 */
import type { Kysely } from 'kysely';
import { delegationCapacity, type NetworkIdentity } from '../../../shared/networks.js';
import { NotFoundError } from '../../internal/errors.js';
import type { NodeClient } from '../../internal/node-client.js';
import { amountText } from '../../store/amounts.js';
import type { DataSchema } from '../../store/schema.js';
import {
  delegatorsOf,
  listAllDelegations,
  listAllValidations,
  listValidations,
  rewardsOfStakingTxs,
  validationOf,
  validationStatus,
  validatorCursor,
  type DelegationStatus,
  type StakerRow,
  type ValidationStatus,
  type ValidatorCursor,
  type ValidatorFilter,
  type ValidatorOrder,
} from '../../store/queries/stakers.js';
import type { SortOrder } from '../../store/queries/utxos.js';
import {
  filteredPage,
  hasLiveFilter,
  isLiveOrder,
  liveOrderPage,
  type LiveValidatorCursor,
  type LiveValidatorFilter,
  type LiveValidatorOrder,
} from './validator-live-order.js';

export interface ValidatorReadsDeps {
  db: Kysely<DataSchema>;
  network: NetworkIdentity;
  node?: NodeClient;
  /** The validation status clock (see primary-network.ts). */
  now(): Promise<number>;
}

/** What the node says of an active validation. */
interface LiveValidator {
  uptime?: number;
  connected?: boolean;
  potentialReward?: string;
  accruedDelegateeReward?: string;
}

export function createValidatorReads(deps: ValidatorReadsDeps) {
  const { db, network, now } = deps;

  return {
    async validators(q: {
      nodeId: string;
      sortOrder: SortOrder;
      afterSeq?: number;
      limit: number;
      status?: ValidationStatus;
    }) {
      const t = await now();
      const { rows, next } = await listValidations(db, { ...q, now: t });
      if (rows.length === 0 && q.afterSeq === undefined && !q.status) {
        const any = await db
          .selectFrom('stakers')
          .select('tx_hash')
          .where('node_id', '=', q.nodeId)
          .executeTakeFirst();
        if (!any) throw new NotFoundError(`no validator with nodeId ${q.nodeId}`);
      }
      return { validators: await formatValidators(rows, t), next };
    },

    /** Validation periods of every node (`GET /v1/networks/{network}/validators`), in index order. */
    async allValidators(
      q: ValidatorFilter &
        LiveValidatorFilter & {
          sortBy?: ValidatorOrder | LiveValidatorOrder;
          sortOrder: SortOrder;
          after?: ValidatorCursor | LiveValidatorCursor;
          limit: number;
        },
    ): Promise<{ validators: Record<string, unknown>[]; next?: ValidatorCursor | LiveValidatorCursor }> {
      const t = await now();
      const by = q.sortBy ?? 'blockIndex';
      if (!isLiveOrder(by) && !hasLiveFilter(q)) {
        const { rows, next } = await listAllValidations(db, {
          ...q,
          sortBy: by,
          after: q.after as ValidatorCursor | undefined,
          now: t,
        });
        return { validators: await formatValidators(rows, t), next };
      }
      // Capacity and uptime exist once a validation is formatted: walk the store's list in chunks.
      const storeOrder = isLiveOrder(by) ? 'blockIndex' : by;
      const chunk = async (after: ValidatorCursor | undefined) => {
        const { rows, next } = await listAllValidations(db, {
          ...q,
          sortBy: storeOrder,
          sortOrder: isLiveOrder(by) ? 'asc' : q.sortOrder,
          after,
          limit: 100,
          now: t,
        });
        return { rows, formatted: await formatValidators(rows, t), next };
      };
      if (isLiveOrder(by))
        return liveOrderPage(chunk, by, q.sortOrder, q, q.after as LiveValidatorCursor | undefined, q.limit);
      return filteredPage(
        chunk,
        (row) => validatorCursor(row, storeOrder),
        q,
        q.after as ValidatorCursor | undefined,
        q.limit,
      );
    },

    /** Delegations of every node (`GET /v1/networks/{network}/delegators`), in index order. */
    async allDelegators(q: {
      nodeIds: string[];
      rewardAddresses: string[];
      status?: DelegationStatus;
      sortOrder: SortOrder;
      afterSeq?: number;
      limit: number;
    }) {
      const t = await now();
      const { rows, next } = await listAllDelegations(db, { ...q, now: t });
      const paid = await rewardsOfStakingTxs(
        db,
        rows.map((r) => r.tx_hash),
      );
      const potential = await delegatorRewards(rows.filter((d) => validationStatus(d, t) !== 'completed'));
      const delegators = [];
      for (const d of rows) {
        const shares = BigInt((await validationOf(db, d))?.delegation_shares ?? 0);
        const fee = (gross: bigint) => (gross * shares) / 1_000_000n;
        const base = {
          txHash: d.tx_hash,
          nodeId: d.node_id,
          rewardAddresses: JSON.parse(d.reward_addresses) as string[],
          amountDelegated: amountText(d.amount_staked),
          delegationFee: (Number(shares) / 10_000).toString(),
          startTimestamp: Number(d.start_ts),
          endTimestamp: Number(d.end_ts),
        };
        const status = validationStatus(d, t) as DelegationStatus;
        if (status === 'completed') {
          const net = paid
            .filter((r) => r.staking_tx === d.tx_hash && r.reward_type === 'DELEGATOR')
            .reduce((s, r) => s + BigInt(amountText(r.amount)), 0n);
          // The node pays gross − ⌊gross × shares / 10⁶⌋; the smallest gross giving that net.
          let gross = shares < 1_000_000n ? (net * 1_000_000n) / (1_000_000n - shares) : net;
          while (gross > 0n && gross - 1n - fee(gross - 1n) >= net) gross--;
          while (gross - fee(gross) < net) gross++;
          delegators.push({
            ...base,
            grossReward: net === 0n ? '0' : gross.toString(),
            netReward: net.toString(),
            delegationStatus: status,
          });
        } else {
          const gross = BigInt(potential.get(d.tx_hash) ?? '0');
          delegators.push({
            ...base,
            estimatedGrossReward: gross.toString(),
            estimatedNetReward: (gross - fee(gross)).toString(),
            delegationStatus: status,
          });
        }
      }
      return { delegators, next };
    },
  };

  /**
   * Potential rewards of a page's current delegations (by tx id), from the node when one is
   * configured. The node lists delegators only when asked for exactly one node, so this is one
   * call per validator the page's delegations back, not one per delegation.
   */
  async function delegatorRewards(rows: StakerRow[]): Promise<Map<string, string>> {
    const rewards = new Map<string, string>();
    if (!deps.node) return rewards;
    const nodes = new Map<string, { subnetID: string; nodeID: string }>();
    for (const d of rows)
      nodes.set(`${d.subnet_id}|${d.node_id}`, { subnetID: d.subnet_id, nodeID: d.node_id });
    for (const { subnetID, nodeID } of nodes.values()) {
      const res = await deps.node.call<{ validators: any[] }>('/ext/bc/P', 'platform.getCurrentValidators', {
        subnetID,
        nodeIDs: [nodeID],
      });
      for (const v of res.validators ?? [])
        for (const x of (v.delegators as any[] | null | undefined) ?? [])
          rewards.set(x.txID, String(x.potentialReward ?? '0'));
    }
    return rewards;
  }

  /** Details of validation periods at `t`; the total active stake is read once per page. */
  async function formatValidators(rows: StakerRow[], t: number) {
    let total: Promise<bigint> | undefined;
    const stake = () => (total ??= activeStake(t));
    const live = await liveValidators(rows.filter((v) => validationStatus(v, t) === 'active'));
    const validators = [];
    for (const v of rows) validators.push(await formatValidator(v, t, stake, live));
    return validators;
  }

  async function formatValidator(
    v: StakerRow,
    t: number,
    stake: () => Promise<bigint>,
    liveOf: (v: StakerRow) => LiveValidator | undefined,
  ) {
    const status = validationStatus(v, t);
    const base: Record<string, unknown> = {
      txHash: v.tx_hash,
      nodeId: v.node_id,
      subnetId: v.subnet_id,
      amountStaked: amountText(v.amount_staked),
      startTimestamp: Number(v.start_ts),
      endTimestamp: Number(v.end_ts),
      validationStatus: status,
    };
    if (v.delegation_shares !== null) base.delegationFee = (Number(v.delegation_shares) / 10_000).toString();
    if (v.bls_public_key && v.bls_pop)
      base.blsCredentials = { publicKey: v.bls_public_key, proofOfPossession: v.bls_pop };
    if (status === 'pending') return base;
    if (status === 'removed')
      return { ...base, removeTxHash: v.removed_tx, removeTimestamp: Number(v.removed_ts) };
    const period = await delegatorsOf(db, v.node_id, v.subnet_id, Number(v.start_ts), Number(v.end_ts));
    // A completed validation counts every delegation of its period; an active one only those
    // running now, as `platform.getCurrentValidators` counts them (delegatorCount and
    // delegatorWeight): a delegation that has ended no longer adds to the validator's weight,
    // its stake percentage or its remaining delegation capacity.
    const delegators =
      status === 'active' ? period.filter((d) => validationStatus(d, t) === 'active') : period;
    const delegated = delegators.reduce((s, d) => s + BigInt(amountText(d.amount_staked)), 0n);
    base.delegatorCount = delegators.length;
    base.amountDelegated = delegated.toString();
    const rewardAddresses = JSON.parse(v.reward_addresses) as string[];
    if (status === 'completed') {
      const paid = await rewardsOfStakingTxs(db, [v.tx_hash]);
      const sum = (type: string) =>
        paid
          .filter((r) => r.reward_type === type)
          .reduce((s, r) => s + BigInt(amountText(r.amount)), 0n)
          .toString();
      return {
        ...base,
        rewards: {
          validationRewardAmount: sum('VALIDATOR'),
          delegationRewardAmount: sum('VALIDATOR_FEE'),
          rewardAddresses,
          ...(v.reward_tx ? { rewardTxHash: v.reward_tx } : {}),
        },
      };
    }
    const live = liveOf(v);
    const total = await stake();
    const weight = BigInt(amountText(v.amount_staked)) + delegated;
    const potentialRewards = {
      validationRewardAmount: live?.potentialReward ?? '0',
      delegationRewardAmount: live?.accruedDelegateeReward ?? '0',
      rewardAddresses,
    };
    return {
      ...base,
      stakePercentage: total > 0n ? Number((weight * 1_000_000n) / total) / 10_000 : 0,
      uptimePerformance: live?.uptime ?? 100,
      // Only the Primary Network takes delegations: a permissioned subnet validation has no
      // capacity, as it has no delegation fee (the real list's fee filters leave such out too).
      ...(v.subnet_id === network.pChainID && {
        delegationCapacity: delegationCapacity(BigInt(amountText(v.amount_staked)), delegated).toString(),
      }),
      potentialRewards,
      // The spec's single validator record has `rewards` whatever the status; the real active
      // shape names them `potentialRewards`. Both, so either reading works.
      rewards: potentialRewards,
      validatorHealth: {
        reachabilityPercent: live?.connected === false ? 0 : 100,
        benchedPChainRequestsPercent: 0,
        benchedXChainRequestsPercent: 0,
        benchedCChainRequestsPercent: 0,
      },
      geolocation: null,
    };
  }

  /** Total stake (validators and delegators) active at `t`. */
  async function activeStake(t: number): Promise<bigint> {
    const rows = await db
      .selectFrom('stakers')
      .select('amount_staked')
      .where('subnet_id', '=', network.pChainID)
      .where('start_ts', '<=', t)
      .where('end_ts', '>', t)
      .where('reward_tx', 'is', null)
      .where('removed_tx', 'is', null)
      .execute();
    return rows.reduce((s, r) => s + BigInt(amountText(r.amount_staked)), 0n);
  }

  /**
   * Uptime and potential reward of the active validations of a page, from the node when one is
   * configured: one `platform.getCurrentValidators` per subnet for all their nodes, not one per
   * row, so a page (or a live sort's walk over every validation) costs a call per subnet.
   */
  async function liveValidators(rows: StakerRow[]): Promise<(v: StakerRow) => LiveValidator | undefined> {
    const byTx = new Map<string, LiveValidator>();
    const byNode = new Map<string, LiveValidator>();
    if (deps.node && rows.length > 0) {
      const nodesBySubnet = new Map<string, Set<string>>();
      for (const r of rows) {
        const nodes = nodesBySubnet.get(r.subnet_id) ?? new Set<string>();
        nodesBySubnet.set(r.subnet_id, nodes.add(r.node_id));
      }
      for (const [subnetID, nodes] of nodesBySubnet) {
        const res = await deps.node.call<{ validators: any[] }>(
          '/ext/bc/P',
          'platform.getCurrentValidators',
          {
            subnetID,
            nodeIDs: [...nodes],
          },
        );
        for (const found of res.validators ?? []) {
          const live: LiveValidator = {
            uptime: found.uptime !== undefined ? Number(found.uptime) : undefined,
            connected: found.connected as boolean | undefined,
            potentialReward: found.potentialReward !== undefined ? String(found.potentialReward) : undefined,
            accruedDelegateeReward:
              found.accruedDelegateeReward !== undefined ? String(found.accruedDelegateeReward) : undefined,
          };
          byTx.set(found.txID, live);
          // A validation the node lists under another tx id (an L1 validator's validation id):
          // the node's entry for the same node in that subnet.
          const key = `${subnetID}|${found.nodeID}`;
          if (!byNode.has(key)) byNode.set(key, live);
        }
      }
    }
    return (v) => byTx.get(v.tx_hash) ?? byNode.get(`${v.subnet_id}|${v.node_id}`);
  }
}

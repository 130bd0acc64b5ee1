/**
 * Read model of the network-wide staking routes: network details (validator and delegator totals),
 * pending rewards, L1 validators and the AVAX supply. Totals come from the store; what only the
 * P-chain state knows (potential rewards, L1 validator balances, the current supply) from the node.
 */
import type { Kysely } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import { UpstreamUnavailableError } from '../../internal/errors.js';
import { cb58Hex } from '../../networks.js';
import { NodeRpcError, type NodeClient } from '../../internal/node-client.js';
import { amountText } from '../../store/amounts.js';
import type { DataSchema } from '../../store/schema.js';
import { activeStakeTotals, listOpenStakers } from '../../store/queries/current-stakers.js';
import type { SortOrder } from '../../store/queries/utxos.js';
import { createAssetLookup } from '../../store/queries/assets.js';
import { evmFeesPaid, lockedAvax, readTotals, TOTAL } from '../../store/supply-totals.js';
import { assetInfo } from './format.js';

export interface StakingStatsDeps {
  db: Kysely<DataSchema>;
  network: NetworkIdentity;
  node?: NodeClient;
  /** The validation status clock (see primary-network.ts). */
  now(): Promise<number>;
}

/**
 * An amount of AVAX's smallest units as AVAX in decimal: nAVAX by default (`1500000000` → `1.5`),
 * wei with 18 places; as the real supply route writes amounts. A negative amount (a total read
 * while the store lags the node) reads 0.
 */
export function avaxDecimal(amount: bigint, places = 9): string {
  if (amount <= 0n) return '0';
  const unit = 10n ** BigInt(places);
  const frac = (amount % unit).toString().padStart(places, '0').replace(/0+$/, '');
  return frac ? `${amount / unit}.${frac}` : (amount / unit).toString();
}

const WEI_PER_NAVAX = 1_000_000_000n;
const weiAvaxDecimal = (wei: bigint) => avaxDecimal(wei, 18);

/**
 * The potential rewards of `validators` (as `getCurrentValidators` lists them) and of their
 * delegators; with `accrued`, also each validator's share of its ended delegations, which waits
 * until the validator's own end.
 */
function potentialRewards(validators: any[], accrued: boolean): bigint {
  let sum = 0n;
  for (const v of validators) {
    sum += BigInt(v.potentialReward ?? 0);
    if (accrued) sum += BigInt(v.accruedDelegateeReward ?? 0);
    for (const d of (v.delegators ?? []) as any[]) sum += BigInt(d.potentialReward ?? 0);
  }
  return sum;
}

/** A ratio of two amounts as a decimal string with up to 8 places. */
function ratio(part: bigint, whole: bigint): string {
  return whole === 0n ? '0' : avaxDecimal((part * 100_000_000n) / whole, 8);
}

export interface L1ValidatorCursor {
  subnetSeq: number;
  validationId: string;
}

export function createStakingStatsReads(deps: StakingStatsDeps) {
  const { db, network } = deps;
  const assets = createAssetLookup(db);

  function node(): NodeClient {
    if (!deps.node)
      throw new UpstreamUnavailableError('this route needs the node: start the API with --node-url');
    return deps.node;
  }

  /** The primary network's current validators with their delegators, as the node reports them. */
  async function currentValidators(nodeIDs?: string[]): Promise<any[]> {
    const res = await node().call<{ validators: any[] }>('/ext/bc/P', 'platform.getCurrentValidators', {
      ...(nodeIDs ? { nodeIDs } : {}),
    });
    return res.validators ?? [];
  }

  async function currentSupply(): Promise<bigint> {
    const res = await node().call<{ supply: string }>('/ext/bc/P', 'platform.getCurrentSupply', {});
    return BigInt(res.supply);
  }

  /**
   * What the primary network's current validators and delegators are still due: counted in the
   * current supply, not yet paid. Delegators are listed only for named validators, as on
   * AvalancheGo, so the validators are named from a first call.
   */
  async function pendingPotentialRewards(): Promise<bigint> {
    const all = await currentValidators();
    if (all.length === 0) return 0n;
    return potentialRewards(await currentValidators(all.map((v) => String(v.nodeID))), true);
  }

  /** Node id → node version for the node and its peers (the devnet's validators). */
  async function nodeVersions(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const [self, version, peers] = await Promise.all([
      node().call<{ nodeID: string }>('/ext/info', 'info.getNodeID', {}),
      node().call<{ version: string }>('/ext/info', 'info.getNodeVersion', {}),
      node().call<{ peers: { nodeID: string; version: string }[] }>('/ext/info', 'info.peers', {}),
    ]);
    out.set(self.nodeID, version.version);
    for (const p of peers.peers ?? []) out.set(p.nodeID, p.version);
    return out;
  }

  return {
    async networkDetails() {
      const now = await deps.now();
      const totals = await activeStakeTotals(db, network.pChainID, now);
      // Named node ids make the node list each validator's delegators too.
      const [validators, supply, versions] = await Promise.all([
        currentValidators([...totals.validators.nodeAmounts.keys()]),
        currentSupply(),
        nodeVersions(),
      ]);
      const potential = potentialRewards(validators, false);
      const byVersion = new Map<string, { amount: bigint; count: number }>();
      for (const [nodeId, amount] of totals.validators.nodeAmounts) {
        const version = versions.get(nodeId) ?? 'unknown';
        const entry = byVersion.get(version) ?? { amount: 0n, count: 0 };
        entry.amount += amount;
        entry.count++;
        byVersion.set(version, entry);
      }
      const staked = totals.validators.amount + totals.delegators.amount;
      return {
        validatorDetails: {
          validatorCount: totals.validators.count,
          totalAmountStaked: totals.validators.amount.toString(),
          estimatedAnnualStakingReward: potential.toString(),
          stakingDistributionByVersion: [...byVersion].map(([version, e]) => ({
            version,
            amountStaked: e.amount.toString(),
            validatorCount: e.count,
          })),
          stakingRatio: ratio(staked, supply),
        },
        delegatorDetails: {
          delegatorCount: totals.delegators.count,
          totalAmountStaked: totals.delegators.amount.toString(),
        },
      };
    },

    async pendingRewards(q: {
      nodeIds: string[];
      addresses: string[];
      sortOrder: SortOrder;
      afterSeq?: number;
      limit: number;
    }) {
      const now = await deps.now();
      const { rows, next } = await listOpenStakers(db, { ...q, subnetId: network.pChainID, now });
      const potential = new Map<string, string>();
      if (rows.length > 0)
        for (const v of await currentValidators([...new Set(rows.map((r) => r.node_id))])) {
          potential.set(v.txID, String(v.potentialReward ?? '0'));
          for (const d of (v.delegators ?? []) as any[])
            potential.set(d.txID, String(d.potentialReward ?? '0'));
        }
      const avax = assetInfo(
        network.avaxAssetID,
        (await assets.get([network.avaxAssetID])).get(network.avaxAssetID),
      );
      const pendingRewards = rows.map((r) => {
        const start = Number(r.start_ts);
        const end = Number(r.end_ts);
        const progress = now <= start ? 0 : Math.min(100, ((now - start) / (end - start)) * 100);
        return {
          addresses: JSON.parse(r.reward_addresses) as string[],
          txHash: r.tx_hash,
          amountStaked: amountText(r.amount_staked),
          nodeId: r.node_id,
          startTimestamp: start,
          endTimestamp: end,
          rewardType: r.kind === 'delegator' ? 'DELEGATOR' : 'VALIDATOR',
          progress: Math.round(progress * 100) / 100,
          estimatedReward: { ...avax, amount: potential.get(r.tx_hash) ?? '0' },
        };
      });
      return { pendingRewards, next };
    },

    /**
     * L1 validators, live from the node, L1 by L1 in conversion order and by validation id
     * within one; only those with a balance left unless `includeInactive`.
     */
    async l1Validators(q: {
      subnetId?: string;
      nodeId?: string;
      validationId?: string;
      includeInactive: boolean;
      after?: L1ValidatorCursor;
      limit: number;
    }) {
      const height = (await node().call<{ height: string }>('/ext/bc/P', 'platform.getHeight', {})).height;
      let subnets = db
        .selectFrom('subnets')
        .select(['subnet_id', 'seq'])
        .where('is_l1', '=', 1)
        .orderBy('seq');
      if (q.subnetId) subnets = subnets.where('subnet_id', '=', q.subnetId);
      if (q.after) subnets = subnets.where('seq', '>=', q.after.subnetSeq);
      const out: { cursor: L1ValidatorCursor; validator: Record<string, unknown> }[] = [];
      for (const s of await subnets.execute()) {
        let list: any[];
        if (q.validationId) {
          try {
            const v = await node().call<any>('/ext/bc/P', 'platform.getL1Validator', {
              validationID: q.validationId,
            });
            list = v.subnetID === s.subnet_id ? [v] : [];
          } catch (err) {
            if (err instanceof NodeRpcError && /not found/.test(err.message)) list = [];
            else throw err;
          }
        } else
          list = (
            await node().call<{ validators: any[] }>('/ext/bc/P', 'platform.getCurrentValidators', {
              subnetID: s.subnet_id,
              ...(q.nodeId ? { nodeIDs: [q.nodeId] } : {}),
            })
          ).validators;
        const seq = Number(s.seq);
        const sorted = list
          .filter((v) => v.validationID && (q.includeInactive || BigInt(v.balance ?? 0) > 0n))
          .filter((v) => !q.nodeId || v.nodeID === q.nodeId)
          .filter((v) => !q.after || seq > q.after.subnetSeq || v.validationID > q.after.validationId)
          .sort((a, b) => (a.validationID < b.validationID ? -1 : a.validationID > b.validationID ? 1 : 0));
        for (const v of sorted) {
          out.push({
            cursor: { subnetSeq: seq, validationId: v.validationID },
            validator: formatL1Validator(v, s.subnet_id),
          });
          if (out.length > q.limit) break;
        }
        if (out.length > q.limit) break;
      }
      const page = out.slice(0, q.limit);
      return {
        validators: page.map((e) => e.validator),
        blockHeight: String(height),
        next: out.length > q.limit ? page[page.length - 1].cursor : undefined,
      };
    },

    /**
     * The P-chain's current supply counts every staker's potential reward from the moment it
     * stakes, so what genesis created is that supply less the rewards paid and those still to
     * come; the total is genesis plus the rewards paid less everything burned (the real service's
     * figures obey the same sum). Burned: the P-chain's tx fees and L1 validator fees, the
     * X-chain's tx fees, the C-chain's gas and atomic tx fees.
     */
    async supply() {
      const now = await deps.now();
      const [supply, totals, running, cGasWei, potential, locked] = await Promise.all([
        currentSupply(),
        activeStakeTotals(db, network.pChainID, now),
        readTotals(db),
        evmFeesPaid(db, network.evmChainID),
        pendingPotentialRewards(),
        lockedAvax(db, network.avaxAssetID, now),
      ]);
      const total = (name: string) => running.get(name) ?? 0n;
      const rewards = total(TOTAL.rewards);
      const l1Fees = total(TOTAL.l1ValidatorFees);
      const pBurned = total(TOTAL.burned(network.pChainID)) + l1Fees;
      const xBurned = total(TOTAL.burned(network.xChainID));
      const cBurnedWei = total(TOTAL.burned(network.cChainID)) * WEI_PER_NAVAX + cGasWei;
      const genesis = supply - rewards - potential;
      const totalWei = (genesis + rewards - pBurned - xBurned) * WEI_PER_NAVAX - cBurnedWei;
      return {
        circulatingSupply: weiAvaxDecimal(totalWei),
        totalSupply: weiAvaxDecimal(totalWei),
        totalPBurned: avaxDecimal(pBurned),
        totalCBurned: weiAvaxDecimal(cBurnedWei),
        totalXBurned: avaxDecimal(xBurned),
        totalStaked: avaxDecimal(totals.validators.amount + totals.delegators.amount),
        totalLocked: avaxDecimal(locked),
        totalRewards: avaxDecimal(rewards),
        lastUpdated: new Date(now * 1000).toISOString(),
        genesisUnlock: avaxDecimal(genesis),
        l1ValidatorFees: avaxDecimal(l1Fees),
      };
    },
  };
}

/** One L1 validator of `getCurrentValidators`/`getL1Validator` in the list's shape. */
function formatL1Validator(v: any, subnetId: string) {
  const owner = (o: any) => ({
    addresses: ((o?.addresses ?? []) as string[]).map((a) => a.replace(/^P-/, '')),
    threshold: Number(o?.threshold ?? 0),
  });
  return {
    validationId: String(v.validationID),
    validationIdHex: cb58Hex(String(v.validationID)),
    nodeId: String(v.nodeID),
    subnetId,
    weight: Number(v.weight),
    remainingBalance: Number(v.balance ?? 0),
    creationTimestamp: Number(v.startTime ?? 0),
    blsCredentials: v.publicKey ? { publicKey: String(v.publicKey) } : {},
    remainingBalanceOwner: owner(v.remainingBalanceOwner),
    deactivationOwner: owner(v.deactivationOwner),
  };
}

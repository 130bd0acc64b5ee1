/**
 * Transaction rows → the primary-network transaction shapes: XChainLinearTransaction (also read
 * as non-linear: `vertices` holds the block), PChainTransaction, and the C-chain's
 * CChainImportTransaction / CChainExportTransaction. Each page is rendered with one query per
 * kind of detail (outputs, spends, assets, stakers, subnets, chains, rewards, L1 validators), never
 * per row.
 */
import type { Kysely, Selectable } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import { cb58Hex } from '../../networks.js';
import type { AssetRow } from '../../store/queries/assets.js';
import type { TransactionRow } from '../../store/queries/transactions.js';
import { utxosConsumedBy, utxosCreatedBy, type UtxoRow } from '../../store/queries/utxos.js';
import type { DataSchema, L1ValidatorTxDetailTable } from '../../store/schema.js';
import { assetInfo, pChainUtxo, sumByAsset, xChainUtxo } from './format.js';
import { parseGenesisData } from './genesis-data.js';
import { PRIMARY_NETWORK_TX_TYPES } from '../routes/primary-network/asset-transactions.js';

type AssetLookup = { get(ids: string[]): Promise<Map<string, AssetRow>> };

const VM_SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';

/** The closed txType sets of each chain's shape; anything else is reported as `UNKNOWN`. */
const X_TX_TYPES = new Set(['BaseTx', 'CreateAssetTx', 'OperationTx', 'ImportTx', 'ExportTx']);
const P_TX_TYPES = new Set<string>(
  PRIMARY_NETWORK_TX_TYPES.filter((t) => !['UNKNOWN', 'CreateAssetTx', 'OperationTx'].includes(t)),
);

const amounts = (rows: { asset_id: string; amount: string }[], known: Map<string, AssetRow>) =>
  sumByAsset(rows, known).map(({ utxoCount: _, ...a }) => a);

/** Source and destination of an atomic tx: the row's one side, this chain the other. */
function atomicChains(tx: TransactionRow): Record<string, string> {
  if (tx.source_chain) return { sourceChain: tx.source_chain, destinationChain: tx.chain_id };
  if (tx.destination_chain) return { sourceChain: tx.chain_id, destinationChain: tx.destination_chain };
  return {};
}

/** An L1 validator as a P-chain tx left it (the real service's L1ValidatorDetailsTransaction). */
function l1ValidatorDetail(d: Selectable<L1ValidatorTxDetailTable>) {
  return {
    validationId: d.validation_id,
    validationIdHex: cb58Hex(d.validation_id),
    nodeId: d.node_id,
    subnetId: d.subnet_id,
    weight: Number(d.weight),
    remainingBalance: Number(d.remaining_balance),
    balanceChange: Number(d.balance_change),
    blsCredentials: d.bls_public_key ? { publicKey: d.bls_public_key } : {},
  };
}

/**
 * The refund the P-chain added to a DisableL1ValidatorTx or a removing SetL1ValidatorWeightTx: the
 * validation's remaining balance, as the tx's last output (the index after its own outputs). It
 * comes out of a balance locked earlier, not out of the tx's inputs, so it neither pays nor hides
 * the tx's fee. Undefined when the tx refunded nothing, or the store kept no refund output for it
 * (validations indexed before the owner list was kept).
 */
function refundOutput(
  txType: string,
  emitted: UtxoRow[],
  l1: Selectable<L1ValidatorTxDetailTable>[],
  avaxAssetId: string,
): UtxoRow | undefined {
  if (txType !== 'DisableL1ValidatorTx' && txType !== 'SetL1ValidatorWeightTx') return undefined;
  const refunded = l1.find((d) => BigInt(d.balance_change) < 0n);
  if (!refunded) return undefined;
  const last = emitted.reduce<UtxoRow | undefined>(
    (found, r) => (!found || r.output_index > found.output_index ? r : found),
    undefined,
  );
  const isRefund = last?.asset_id === avaxAssetId && BigInt(last.amount) === -BigInt(refunded.balance_change);
  return isRefund ? last : undefined;
}

/**
 * The outputs a tx consumed, in the order of its inputs. The store keeps no input position and
 * an unordered read comes back in whatever order the engine finds the rows (PostgreSQL and
 * SQLite differed), but AvalancheGo only accepts inputs sorted by UTXO id (source tx id bytes,
 * then output index; `avax.TransferableInput.Compare`) with an import's inputs from the other
 * chain after its own, so that order can be rebuilt from the rows.
 */
function inInputOrder(rows: UtxoRow[]): UtxoRow[] {
  const key = (u: UtxoRow) => ({ imported: u.created_on !== u.consumed_on, tx: cb58Hex(u.tx_hash) });
  const keyed = rows.map((u) => ({ u, k: key(u) }));
  keyed.sort(
    (a, b) =>
      Number(a.k.imported) - Number(b.k.imported) ||
      (a.k.tx < b.k.tx ? -1 : a.k.tx > b.k.tx ? 1 : 0) ||
      a.u.output_index - b.u.output_index,
  );
  return keyed.map(({ u }) => u);
}

export function createTransactionRenderer(
  db: Kysely<DataSchema>,
  network: NetworkIdentity,
  assets: AssetLookup,
) {
  /** Outputs each tx created and consumed, and the assets they hold. */
  async function utxosOf(rows: TransactionRow[], extraCreated: UtxoRow[] = []) {
    const hashes = rows.map((r) => r.tx_hash);
    const [created, consumed] = await Promise.all([utxosCreatedBy(db, hashes), utxosConsumedBy(db, hashes)]);
    const all = [...created, ...consumed, ...extraCreated];
    const known = await assets.get([...new Set(all.map((u) => u.asset_id))]);
    return {
      known,
      info: (id: string) => assetInfo(id, known.get(id)),
      createdBy: (hash: string) => created.filter((u) => u.tx_hash === hash),
      consumedBy: (hash: string) => inInputOrder(consumed.filter((u) => u.consuming_tx === hash)),
    };
  }

  return {
    /** X-chain transactions (asset transactions and the X-chain list). */
    async x(rows: TransactionRow[]): Promise<Record<string, unknown>[]> {
      if (rows.length === 0) return [];
      const [u, createdAssets] = await Promise.all([
        utxosOf(rows),
        db
          .selectFrom('assets')
          .selectAll()
          .where(
            'tx_hash',
            'in',
            rows.map((r) => r.tx_hash),
          )
          .execute(),
      ]);
      return rows.map((tx) => {
        const emitted = u.createdBy(tx.tx_hash);
        const spent = u.consumedBy(tx.tx_hash);
        const newAsset = createdAssets.find((a) => a.tx_hash === tx.tx_hash);
        const out: Record<string, unknown> = {
          txHash: tx.tx_hash,
          chainFormat: 'linear',
          timestamp: Number(tx.timestamp),
          txType: X_TX_TYPES.has(tx.tx_type) ? tx.tx_type : 'UNKNOWN',
          memo: tx.memo,
          consumedUtxos: spent.map((r) => xChainUtxo(r, u.info(r.asset_id))),
          emittedUtxos: emitted.map((r) => xChainUtxo(r, u.info(r.asset_id))),
          amountUnlocked: amounts(spent, u.known),
          amountCreated: amounts(emitted, u.known),
          ...atomicChains(tx),
          blockHeight: Number(tx.block_height),
          blockHash: tx.block_id,
          vertices: [{ hash: tx.block_id, height: Number(tx.block_height), timestamp: Number(tx.timestamp) }],
        };
        if (newAsset)
          out.assetCreated = {
            assetId: newAsset.asset_id,
            name: newAsset.name,
            symbol: newAsset.symbol,
            denomination: Number(newAsset.denomination),
            type: newAsset.asset_type,
            createdAtTimestamp: Number(newAsset.created_at),
            cap: newAsset.cap,
          };
        return out;
      });
    },

    /** The C-chain's atomic txs (ImportTx and ExportTx). */
    async c(rows: TransactionRow[]): Promise<Record<string, unknown>[]> {
      if (rows.length === 0) return [];
      const u = await utxosOf(rows);
      const evmIds = rows.flatMap((tx) =>
        (JSON.parse(tx.evm_io ?? '[]') as { assetId: string }[]).map((e) => e.assetId),
      );
      const evmAssets = await assets.get([...new Set(evmIds)]);
      return rows.map((tx) => {
        const io = JSON.parse(tx.evm_io ?? '[]') as {
          address: string;
          assetId: string;
          amount: string;
          credentials?: unknown[];
        }[];
        const side = io.map((e) => ({ asset_id: e.assetId, amount: e.amount }));
        const asset = (e: (typeof io)[number]) => ({
          ...assetInfo(e.assetId, evmAssets.get(e.assetId)),
          amount: e.amount,
        });
        const base = {
          txHash: tx.tx_hash,
          blockHeight: Number(tx.block_height),
          blockHash: tx.block_id,
          timestamp: Number(tx.timestamp),
          memo: tx.memo,
          sourceChain: tx.source_chain ?? tx.chain_id,
          destinationChain: tx.destination_chain ?? tx.chain_id,
        };
        if (tx.tx_type === 'ExportTx') {
          const emitted = u.createdBy(tx.tx_hash);
          return {
            ...base,
            amountUnlocked: amounts(side, evmAssets),
            amountCreated: amounts(emitted, u.known),
            txType: 'ExportTx',
            evmInputs: io.map((e) => ({
              fromAddress: e.address,
              asset: asset(e),
              credentials: e.credentials ?? [],
            })),
            emittedUtxos: emitted.map((r) => xChainUtxo(r, u.info(r.asset_id))),
          };
        }
        const spent = u.consumedBy(tx.tx_hash);
        return {
          ...base,
          amountUnlocked: amounts(spent, u.known),
          amountCreated: amounts(side, evmAssets),
          txType: 'ImportTx',
          evmOutputs: io.map((e) => ({ toAddress: e.address, asset: asset(e) })),
          consumedUtxos: spent.map((r) => xChainUtxo(r, u.info(r.asset_id))),
        };
      });
    },

    /**
     * P-chain transactions. `estimatedRewards` (staking tx → potential reward) comes from the
     * node for open staking periods when the caller has it.
     */
    async p(
      rows: TransactionRow[],
      estimatedRewards?: Map<string, string>,
    ): Promise<Record<string, unknown>[]> {
      if (rows.length === 0) return [];
      const hashes = rows.map((r) => r.tx_hash);
      const [stakers, ended, subnets, converted, chains, rewards, l1Details] = await Promise.all([
        db.selectFrom('stakers').selectAll().where('tx_hash', 'in', hashes).execute(),
        db
          .selectFrom('stakers')
          .selectAll()
          .where((eb) => eb.or([eb('reward_tx', 'in', hashes), eb('removed_tx', 'in', hashes)]))
          .execute(),
        db.selectFrom('subnets').selectAll().where('subnet_id', 'in', hashes).execute(),
        db.selectFrom('subnets').selectAll().where('conversion_tx', 'in', hashes).execute(),
        db.selectFrom('blockchains').selectAll().where('blockchain_id', 'in', hashes).execute(),
        db.selectFrom('rewards').select(['utxo_id', 'reward_tx']).where('reward_tx', 'in', hashes).execute(),
        db
          .selectFrom('l1_validator_tx_details')
          .selectAll()
          .where('tx_hash', 'in', hashes)
          .orderBy('tx_hash')
          .orderBy('position')
          .execute(),
      ]);
      // Reward payouts are the outputs of the RewardValidatorTx that paid them.
      const rewardUtxos =
        rewards.length > 0
          ? await db
              .selectFrom('utxos')
              .selectAll()
              .where(
                'utxo_id',
                'in',
                rewards.map((r) => r.utxo_id),
              )
              .orderBy('output_index')
              .execute()
          : [];
      const u = await utxosOf(rows, rewardUtxos);
      return rows.map((tx) => {
        const paid = new Set(rewards.filter((r) => r.reward_tx === tx.tx_hash).map((r) => r.utxo_id));
        const emitted = [...u.createdBy(tx.tx_hash), ...rewardUtxos.filter((r) => paid.has(r.utxo_id))];
        const spent = u.consumedBy(tx.tx_hash);
        const l1 = l1Details.filter((d) => d.tx_hash === tx.tx_hash);
        const created = sumByAsset(emitted, u.known);
        // What the inputs paid for: every output but a refund of an L1 validator's balance.
        const refund = refundOutput(tx.tx_type, emitted, l1, network.avaxAssetID);
        const paidFor = sumByAsset(
          emitted.filter((r) => r !== refund),
          u.known,
        );
        const unlocked = sumByAsset(spent, u.known);
        const burned = unlocked.flatMap(({ utxoCount: _, ...a }) => {
          const out = BigInt(paidFor.find((c) => c.assetId === a.assetId)?.amount ?? '0');
          const diff = BigInt(a.amount) - out;
          return diff > 0n ? [{ ...a, amount: diff.toString() }] : [];
        });
        const out: Record<string, unknown> = {
          txHash: tx.tx_hash,
          txType: P_TX_TYPES.has(tx.tx_type) ? tx.tx_type : 'UNKNOWN',
          blockTimestamp: Number(tx.timestamp),
          blockNumber: String(tx.block_height),
          blockHash: tx.block_id,
          consumedUtxos: spent.map((r) => pChainUtxo(r, u.info(r.asset_id))),
          emittedUtxos: emitted.map((r) => pChainUtxo(r, u.info(r.asset_id))),
          ...atomicChains(tx),
          value: created.map(({ utxoCount: _, ...a }) => a),
          amountBurned: burned,
          amountStaked: amounts(
            emitted.filter((r) => r.utxo_type === 'STAKE'),
            u.known,
          ),
          // What the tx moved into L1 validator balances (refunds are not burned).
          amountL1ValidatorBalanceBurned: amounts(
            l1
              .filter((d) => BigInt(d.balance_change) > 0n)
              .map((d) => ({ asset_id: network.avaxAssetID, amount: d.balance_change })),
            u.known,
          ),
          memo: tx.memo,
        };
        if (l1.length > 0) out.l1ValidatorDetails = l1.map(l1ValidatorDetail);
        const staker = stakers.find((s) => s.tx_hash === tx.tx_hash);
        if (staker) {
          out.nodeId = staker.node_id;
          out.subnetId = staker.subnet_id;
          out.startTimestamp = Number(staker.start_ts);
          out.endTimestamp = Number(staker.end_ts);
          if (staker.delegation_shares !== null)
            out.delegationFeePercent = (Number(staker.delegation_shares) / 10_000).toString();
          out.rewardAddresses = JSON.parse(staker.reward_addresses) as string[];
          if (staker.bls_public_key && staker.bls_pop)
            out.blsCredentials = { publicKey: staker.bls_public_key, proofOfPossession: staker.bls_pop };
          if (staker.reward_tx) out.rewardTxHash = staker.reward_tx;
          const estimate = estimatedRewards?.get(tx.tx_hash);
          if (estimate !== undefined) out.estimatedReward = estimate;
        }
        const endedHere = ended.find((s) => s.reward_tx === tx.tx_hash || s.removed_tx === tx.tx_hash);
        if (endedHere?.reward_tx === tx.tx_hash) out.stakingTxHash = endedHere.tx_hash;
        else if (endedHere) {
          out.nodeId = endedHere.node_id;
          out.subnetId = endedHere.subnet_id;
        }
        const subnet = subnets.find((s) => s.subnet_id === tx.tx_hash);
        if (subnet) {
          out.subnetId = subnet.subnet_id;
          out.subnetOwnershipInfo = {
            locktime: Number(subnet.locktime),
            threshold: Number(subnet.threshold),
            addresses: JSON.parse(subnet.owner_addresses) as string[],
          };
        }
        const conversion = converted.find((s) => s.conversion_tx === tx.tx_hash);
        if (conversion) {
          out.subnetId = conversion.subnet_id;
          if (conversion.manager_chain_id && conversion.manager_address)
            out.l1ValidatorManagerDetails = {
              blockchainId: conversion.manager_chain_id,
              contractAddress: conversion.manager_address,
            };
        }
        const chain = chains.find((b) => b.blockchain_id === tx.tx_hash);
        if (chain) {
          out.subnetId = chain.subnet_id;
          const parsed = parseGenesisData(chain.genesis, chain.vm_id === VM_SUBNET_EVM);
          out.blockchainInfo = {
            chainName: chain.name,
            vmId: chain.vm_id,
            ...(parsed.genesisData !== undefined ? { genesisData: parsed.genesisData } : {}),
          };
        }
        return out;
      });
    },

    /** Renders rows of `chainId` in that chain's shape. */
    async of(chainId: string, rows: TransactionRow[], estimatedRewards?: Map<string, string>) {
      if (chainId === network.xChainID) return this.x(rows);
      if (chainId === network.cChainID) return this.c(rows);
      return this.p(rows, estimatedRewards);
    },
  };
}

/** Potential rewards of open staking periods (`platform.getCurrentValidators`), keyed by staking tx. */
export function rewardEstimates(validators: any[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of validators) {
    if (v.txID && v.potentialReward !== undefined)
      out.set(String(v.txID), BigInt(v.potentialReward).toString());
    for (const d of (v.delegators as any[] | null | undefined) ?? [])
      if (d.txID && d.potentialReward !== undefined)
        out.set(String(d.txID), BigInt(d.potentialReward).toString());
  }
  return out;
}

/**
 * `platform.*` at /ext/bc/P: the reference node's P-chain API over the PlatformVM. Handlers only
 * parse params, ask the VM and state, and format results; every 64-bit number is a string except
 * in getFeeConfig/getFeeState, which the reference writes as plain numbers.
 */
import { pvmSerial, type TransferableOutput } from '@avalabs/avalanchejs';
import { parseId, parseNodeId } from '../../../../shared/encoding.js';
import type { ChainContext } from '../../../chains/chain.js';
import { AvalancheEndpoint } from '../../../rpc/avalanche-endpoint.js';
import {
  decodeBytes,
  encodeBytes,
  encodingParam,
  UNSUPPORTED_IN_METHOD,
  type Encoding,
} from '../../../rpc/encoding-param.js';
import { fail } from '../../../rpc/errors.js';
import { ParamsShapeError, type Params } from '../../../rpc/params.js';
import { packStruct, parseSignedTx, unpackUtxo } from '../codec.js';
import type { StoredBlock } from '../state/platform-state.js';
import { gasPrice, validatorFeePrice } from '../fees/dynamic-fee.js';
import type { L1ValidatorRecord, StakerRecord } from '../state/platform-state.js';
import { PlatformJson } from './json.js';
import { canonicalSet } from '../warp/warp-message.js';
import { PRIMARY_NETWORK } from '../txs/env.js';
import { outputInfo } from '../txs/utxo-kinds.js';
import { sampleByWeight, SampleSizeError } from './sample-validators.js';
import type { PlatformVM } from '../vm.js';
import {
  cb58,
  formatAddress,
  formatOwner,
  hex0x,
  nodeIdString,
  parseAddresses,
  parseIdParam,
  percent,
  rfc3339,
} from './format.js';
import { noIdWithAlias, parseStartIndex, type AddressBook } from '../../components/service-address.js';

const MAX_UTXOS = 1024;
/** The height platformapi.Height means by "proposed". */
const MAX_UINT64 = (1n << 64n) - 1n;
type BalanceKind = 'balance' | 'unlocked' | 'lockedStakeable' | 'lockedNotStakeable';
const P_ALIASES = ['P', 'platform', '11111111111111111111111111111111LpoYY'];

/** Bytes in `encoding`, or the reference's error for json (`what` names the value, e.g. `UTXO <id>`). */
function encodeOrFail(encoding: Encoding, bytes: Uint8Array, what: string): string {
  if (encoding === 'json') fail(`couldn't encode ${what} as json: ${UNSUPPORTED_IN_METHOD}`);
  return encodeBytes(encoding, bytes);
}

/** `subnetID`: absent means the Primary Network (the empty id), as in the reference. */
function subnetParam(params: Params): Uint8Array {
  return parseIdParam(params.optionalString('subnetID'), 'subnetID');
}

const isPrimary = (subnet: Uint8Array) => Buffer.from(subnet).equals(Buffer.from(PRIMARY_NETWORK));

/** The reference's words for a subnet without a TransformSubnetTx (none can be made since Etna). */
function noTransformation(subnet: Uint8Array): never {
  fail(`failed fetching subnet transformation for ${cb58(subnet)}: not found`);
}

/**
 * The `height` of getValidatorsAt/getAllValidatorsAt; a height not accepted yet is refused in the
 * reference validator manager's words, which `subnet` names for getValidatorsAt (`what` prefixes).
 */
function heightParam(params: Params, vm: PlatformVM, what: string, subnet?: Uint8Array): bigint {
  const raw = params.get('height');
  if (raw === 'proposed') return vm.height();
  const h = params.uint64('height');
  // platformapi.Height keeps the largest uint64 for "proposed": written out, it does not decode.
  if (h === MAX_UINT64) throw new ParamsShapeError(`height: invalid height: ${h} stands for "proposed"`);
  if (h > vm.height())
    fail(
      `${what} at ${h}: failed to fetch validator set at unfinalized height` +
        (subnet ? ` with SubnetID = ${cb58(subnet)}` : '') +
        `: current P-chain height (${vm.height()}) < requested P-Chain height (${h})`,
    );
  return h;
}

export function createPlatformEndpoint(vm: PlatformVM, ctx: ChainContext): AvalancheEndpoint {
  const network = ctx.config.network;
  const hrp = network.hrp;
  const book: AddressBook = {
    hrp,
    chainId: network.pChainID,
    aliases: P_ALIASES,
    lookupChain: (alias) => ctx.chain(alias)?.blockchainID,
  };
  const state = vm.state;
  const avax = network.avaxAssetID;
  const chainTime = () => state.lastBlock()!.time;
  const json = new PlatformJson(hrp);

  /** A block in `encoding`: its bytes, or the reference's json rendering of the block and its txs. */
  const blockAnswer = (block: StoredBlock, encoding: Encoding) => ({
    block:
      encoding === 'json'
        ? json.block(block.id, block.bytes)
        : encodeOrFail(encoding, block.bytes, `block ${cb58(block.id)}`),
    encoding,
  });

  const stakeOutputsOf = (txId: Uint8Array): readonly TransferableOutput[] => {
    const stored = state.getTx(txId);
    if (!stored) return [];
    const u = parseSignedTx(stored.bytes).unsigned as { stake?: readonly TransferableOutput[] };
    return u.stake ?? [];
  };

  const validatorJson = (s: StakerRecord, withDelegators: boolean) => {
    const stored = state.getTx(s.txId);
    const u = stored
      ? (parseSignedTx(stored.bytes).unsigned as pvmSerial.AddPermissionlessValidatorTx)
      : undefined;
    const delegators = state.delegatorsOf(s.txId);
    let delegatorWeight = 0n;
    for (const d of delegators) delegatorWeight += d.weight;
    const signer = u && u.signer instanceof pvmSerial.Signer ? u.signer.proof : undefined;
    // The reference's members are omitempty pointers: an absent owner or signer is left out, and
    // `delegators` is written only when exactly one nodeID was asked for.
    return {
      txID: cb58(s.txId),
      startTime: String(s.startTime),
      endTime: String(s.endTime),
      weight: s.weight.toString(),
      nodeID: nodeIdString(s.nodeId),
      ...(u && { validationRewardOwner: formatOwner(hrp, u.getValidatorRewardsOwner()) }),
      ...(u && { delegationRewardOwner: formatOwner(hrp, u.getDelegatorRewardsOwner()) }),
      potentialReward: s.potentialReward.toString(),
      accruedDelegateeReward: s.accruedDelegateeReward.toString(),
      delegationFee: percent(s.delegationFee),
      uptime: '100.0000',
      connected: true,
      ...(signer && {
        signer: { publicKey: hex0x(signer.publicKey), proofOfPossession: hex0x(signer.signature) },
      }),
      delegatorCount: String(delegators.length),
      delegatorWeight: delegatorWeight.toString(),
      ...(withDelegators && { delegators: delegators.map(delegatorJson) }),
    };
  };

  const delegatorJson = (d: StakerRecord) => {
    const stored = state.getTx(d.txId);
    const u = stored
      ? (parseSignedTx(stored.bytes).unsigned as pvmSerial.AddPermissionlessDelegatorTx)
      : undefined;
    return {
      txID: cb58(d.txId),
      startTime: String(d.startTime),
      endTime: String(d.endTime),
      weight: d.weight.toString(),
      nodeID: nodeIdString(d.nodeId),
      ...(u && { rewardOwner: formatOwner(hrp, u.getDelegatorRewardsOwner()) }),
      potentialReward: d.potentialReward.toString(),
    };
  };

  /**
   * An L1 validator as the reference's APIL1Validator writes it (getCurrentValidators of an L1);
   * the balance is what is left at the last accepted block's time, 0 for an inactive one.
   */
  const l1ValidatorJson = (v: L1ValidatorRecord) => {
    const accrued = vm.validatorFeeAccrued(chainTime());
    const balance =
      v.status === 'active' && v.endAccumulatedFee > accrued ? v.endAccumulatedFee - accrued : 0n;
    return {
      nodeID: nodeIdString(v.nodeId),
      weight: v.weight.toString(),
      startTime: String(v.startTime),
      validationID: cb58(v.validationId),
      publicKey: hex0x(v.publicKey),
      remainingBalanceOwner: formatOwner(hrp, v.remainingBalanceOwner),
      deactivationOwner: formatOwner(hrp, v.deactivationOwner),
      minNonce: v.minNonce.toString(),
      balance: balance.toString(),
    };
  };

  /** getL1Validator's answer: the APIL1Validator members plus the subnet and the current height. */
  const l1ValidatorReply = (validationId: Uint8Array) => {
    const v = state.l1Validator(validationId);
    // A validator whose weight was set to 0 is deleted in the reference, so it is not found either.
    if (!v || v.status === 'removed') fail(`fetching L1 validator "${cb58(validationId)}" failed: not found`);
    return { ...l1ValidatorJson(v), subnetID: cb58(v.subnet), height: vm.height().toString() };
  };

  /**
   * A subnet's record, or the reference's error: `"<id>" is not a subnet` for another tx's id,
   * "not found" for an unknown id (`action` prefixes only that one: the reference wraps the
   * failed tx lookup, not the type check that follows it).
   */
  const subnetOrFail = (id: Uint8Array, action?: string) => {
    const s = state.subnet(id);
    if (s) return s;
    if (vm.tx(id)) fail(`"${cb58(id)}" is not a subnet`);
    fail(action ? `${action}: not found` : 'not found');
  };

  const formatUtxos = (list: { inputId: Uint8Array; bytes: Uint8Array }[], encoding: Encoding) =>
    list.map((u) => encodeOrFail(encoding, u.bytes, `UTXO ${cb58(u.inputId)}`));

  const handlers: Record<string, (params: Params) => unknown> = {
    getHeight: () => ({ height: vm.height().toString() }),
    getProposedHeight: () => ({ height: vm.height().toString() }),

    getBlock: (params) => {
      const encoding = encodingParam(params);
      const id = parseIdParam(params.optionalString('blockID'), 'blockID');
      const block = state.blockById(id);
      if (!block) fail(`couldn't get block with id ${cb58(id)}: not found`);
      return blockAnswer(block, encoding);
    },

    getBlockByHeight: (params) => {
      const encoding = encodingParam(params);
      const height = params.uint64('height');
      const block = state.blockByHeight(height);
      if (!block) fail(`couldn't get block at height ${height}: not found`);
      return blockAnswer(block, encoding);
    },

    getTx: (params) => {
      const encoding = encodingParam(params);
      const id = parseIdParam(params.optionalString('txID'), 'txID');
      const tx = vm.tx(id);
      if (!tx) fail("couldn't get tx: not found");
      // `tx.id`, not the hash of the bytes: a genesis chain's CreateChainTx is known by its chain id.
      if (encoding === 'json')
        return { tx: { ...json.tx(parseSignedTx(tx.bytes)), id: cb58(tx.id) }, encoding };
      return { tx: encodeOrFail(encoding, tx.bytes, 'tx'), encoding };
    },

    getTxStatus: (params) => {
      const id = parseIdParam(params.optionalString('txID'), 'txID');
      const s = vm.txStatus(id);
      return s.reason !== undefined ? { status: s.status, reason: s.reason } : { status: s.status };
    },

    issueTx: async (params) => {
      const encoding = encodingParam(params);
      let bytes: Uint8Array;
      try {
        bytes = decodeBytes(encoding, params.string('tx'));
      } catch (err) {
        fail(`problem decoding transaction: ${err instanceof Error ? err.message : String(err)}`);
      }
      const id = await vm.issue(bytes);
      return { txID: cb58(id) };
    },

    getUTXOs: (params) => {
      const encoding = encodingParam(params);
      const addresses = parseAddresses(params.strings('addresses'), book, 'utxos');
      let limit = params.uint32('limit', MAX_UTXOS);
      if (limit <= 0 || limit > MAX_UTXOS) limit = MAX_UTXOS;
      const after = parseStartIndex(book, params.object('startIndex'));
      const source = sourceChainId(params.optionalString('sourceChain'));
      const page =
        source === network.pChainID
          ? state.utxos.list(addresses, limit, after)
          : ctx.sharedMemory.list(source, network.pChainID, addresses, limit, after);
      return {
        numFetched: String(page.utxos.length),
        utxos: formatUtxos(page.utxos, encoding),
        endIndex: { address: formatAddress(hrp, page.end.address), utxo: cb58(page.end.inputId) },
        encoding,
      };
    },

    getBalance: (params) => {
      const texts = params.strings('addresses');
      const single = params.optionalString('address');
      const addresses = parseAddresses(single ? [...texts, single] : texts, book);
      // The reference reads lock times against the node's clock, not the last block's time, and
      // sums every asset the addresses hold, AVAX also in the top-level members.
      const now = BigInt(ctx.clock.nowSeconds());
      const sums: Record<BalanceKind, Map<string, bigint>> = {
        balance: new Map(),
        unlocked: new Map(),
        lockedStakeable: new Map(),
        lockedNotStakeable: new Map(),
      };
      const add = (kind: BalanceKind, asset: string, amount: bigint) =>
        sums[kind].set(asset, (sums[kind].get(asset) ?? 0n) + amount);
      const seen = new Set<string>();
      const utxoIDs: { txID: string; outputIndex: number }[] = [];
      for (const address of addresses) {
        for (const bytes of state.utxos.allFor(address)) {
          const utxo = unpackUtxo(bytes);
          const key = `${utxo.utxoId.txID.toString()}:${utxo.utxoId.outputIdx.value()}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const asset = utxo.assetId.toString();
          const info = outputInfo(utxo.output);
          if (info.owners.locktime > now) add('lockedNotStakeable', asset, info.amount);
          else if (info.stakeableLocktime > now) add('lockedStakeable', asset, info.amount);
          else add('unlocked', asset, info.amount);
          add('balance', asset, info.amount);
          utxoIDs.push({ txID: utxo.utxoId.txID.toString(), outputIndex: utxo.utxoId.outputIdx.value() });
        }
      }
      const perAsset = (m: Map<string, bigint>) =>
        Object.fromEntries([...m].map(([asset, v]) => [asset, v.toString()]));
      const avaxOf = (m: Map<string, bigint>) => (m.get(avax) ?? 0n).toString();
      return {
        balance: avaxOf(sums.balance),
        unlocked: avaxOf(sums.unlocked),
        lockedStakeable: avaxOf(sums.lockedStakeable),
        lockedNotStakeable: avaxOf(sums.lockedNotStakeable),
        balances: perAsset(sums.balance),
        unlockeds: perAsset(sums.unlocked),
        lockedStakeables: perAsset(sums.lockedStakeable),
        lockedNotStakeables: perAsset(sums.lockedNotStakeable),
        utxoIDs,
      };
    },

    getStake: (params) => {
      const encoding = encodingParam(params);
      const addresses = parseAddresses(params.strings('addresses'), book, 'stake').map((a) =>
        Buffer.from(a).toString('hex'),
      );
      const validatorsOnly = params.boolean('validatorsOnly');
      let staked = 0n;
      const outputs: string[] = [];
      for (const s of state.currentStakers(PRIMARY_NETWORK)) {
        if (validatorsOnly && s.kind !== 'validator') continue;
        for (const out of stakeOutputsOf(s.txId)) {
          const info = outputInfo(out.output);
          if (!info.owners.addresses.some((a) => addresses.includes(Buffer.from(a).toString('hex'))))
            continue;
          staked += info.amount;
          outputs.push(encodeOrFail(encoding, packStruct(out), `output ${out.assetId.toString()}`));
        }
      }
      return {
        staked: staked.toString(),
        stakeds: staked > 0n ? { [avax]: staked.toString() } : {},
        stakedOutputs: outputs,
        encoding,
      };
    },

    getCurrentValidators: (params) => {
      const subnet = subnetParam(params);
      const nodeIds = params.strings('nodeIDs').map((n) => {
        try {
          return Buffer.from(parseNodeId(n)).toString('hex');
        } catch (err) {
          fail(`couldn't parse nodeID "${n}": ${err instanceof Error ? err.message : String(err)}`);
        }
      });
      const wanted = (nodeId: Uint8Array) =>
        nodeIds.length === 0 || nodeIds.includes(Buffer.from(nodeId).toString('hex'));
      const validators: unknown[] = [];
      for (const s of state.currentStakers(subnet)) {
        if (s.kind === 'delegator' || !wanted(s.nodeId)) continue;
        if (s.kind === 'validator') validators.push(validatorJson(s, nodeIds.length === 1));
        // A permissioned subnet validator is a bare staker in the reference (no uptime, no owners).
        else
          validators.push({
            txID: cb58(s.txId),
            startTime: String(s.startTime),
            endTime: String(s.endTime),
            weight: s.weight.toString(),
            nodeID: nodeIdString(s.nodeId),
          });
      }
      if (!isPrimary(subnet)) {
        for (const v of state.l1Validators(subnet)) if (wanted(v.nodeId)) validators.push(l1ValidatorJson(v));
      }
      return { validators };
    },

    getPendingValidators: () => ({ validators: [], delegators: [] }),

    getCurrentL1Validators: (params) => {
      const subnetText = params.optionalString('subnetID');
      const subnet = subnetText === undefined ? undefined : parseIdParam(subnetText, 'subnetID');
      return { validators: state.l1Validators(subnet).map((v) => l1ValidatorReply(v.validationId)) };
    },

    getL1Validator: (params) =>
      l1ValidatorReply(parseIdParam(params.optionalString('validationID'), 'validationID')),

    getValidatorsAt: (params) => {
      const subnet = subnetParam(params);
      const height = heightParam(params, vm, 'failed to get validator set', subnet);
      const validators: Record<string, { publicKey: string | null; weight: string }> = {};
      for (const v of state.validators.at(subnet, height))
        validators[nodeIdString(v.nodeId)] = {
          publicKey: v.publicKey ? hex0x(v.publicKey) : null,
          weight: v.weight.toString(),
        };
      return { validators };
    },

    getAllValidatorsAt: (params) => {
      const height = heightParam(params, vm, 'failed to get validator sets');
      const validatorSets: Record<string, unknown> = {};
      for (const [subnetHex, set] of state.validators.allAt(height)) {
        const canonical = canonicalSet(set);
        validatorSets[cb58(Buffer.from(subnetHex, 'hex'))] = {
          validators: canonical.validators.map((c) => ({
            publicKey: '0x' + Buffer.from(c.publicKey).toString('hex'),
            weight: c.weight.toString(),
            nodeIDs: c.nodeIDs,
          })),
          totalWeight: canonical.totalWeight.toString(),
        };
      }
      return { validatorSets };
    },

    getSubnet: (params) => {
      const id = subnetParam(params);
      if (isPrimary(id)) fail("the primary network isn't a subnet");
      const s = subnetOrFail(id);
      const owner = formatOwner(hrp, s.owner);
      return {
        isPermissioned: !s.conversionId,
        controlKeys: owner.addresses,
        threshold: owner.threshold,
        locktime: owner.locktime,
        subnetTransformationTxID: cb58(new Uint8Array(32)),
        conversionID: cb58(s.conversionId ?? new Uint8Array(32)),
        managerChainID: cb58(s.managerChain ?? new Uint8Array(32)),
        managerAddress: s.managerAddress ? hex0x(s.managerAddress) : null,
      };
    },

    // As the reference: every subnet in id order and the Primary Network last, or the ids asked
    // for in their order (each once; unknown ones left out).
    getSubnets: (params) => {
      const entry = (id: Uint8Array) => {
        const s = isPrimary(id) ? undefined : state.subnet(id);
        if (!s) return { id: cb58(id), controlKeys: [] as string[], threshold: '0' };
        const owner = formatOwner(hrp, s.owner);
        return { id: cb58(s.id), controlKeys: owner.addresses, threshold: owner.threshold };
      };
      const ids = params.strings('ids').map((i) => parseIdParam(i, 'ids'));
      if (ids.length === 0)
        return {
          subnets: [
            ...state
              .subnets()
              .map((s) => s.id)
              .sort(Buffer.compare),
            PRIMARY_NETWORK,
          ].map(entry),
        };
      const seen = new Set<string>();
      const subnets = [];
      for (const id of ids) {
        const key = Buffer.from(id).toString('hex');
        if (seen.has(key)) continue;
        seen.add(key);
        if (isPrimary(id) || state.subnet(id)) subnets.push(entry(id));
      }
      return { subnets };
    },

    // The reference lists each subnet's chains (subnets and chains in id order), then the Primary
    // Network's.
    getBlockchains: () => {
      const order = (c: { subnet: Uint8Array; id: Uint8Array }) =>
        [isPrimary(c.subnet) ? 1 : 0, c.subnet, c.id] as const;
      const chains = state.chains().sort((a, b) => {
        const [pa, sa, ia] = order(a);
        const [pb, sb, ib] = order(b);
        return pa - pb || Buffer.compare(sa, sb) || Buffer.compare(ia, ib);
      });
      return {
        blockchains: chains.map((c) => ({
          id: cb58(c.id),
          name: c.name,
          subnetID: cb58(c.subnet),
          vmID: cb58(c.vmId),
        })),
      };
    },

    getBlockchainStatus: (params) => {
      const text = params.string('blockchainID');
      if (!text) fail("argument 'blockchainID' not given");
      // The chains this node runs answer to their aliases and ids; it validates all of them. The
      // reference asks for the CreateChainTx of the chain it validates: the P-chain has none, so
      // it is only 'Syncing' there.
      if (P_ALIASES.includes(text)) return { status: 'Syncing' };
      if (ctx.chain(text)) return { status: 'Validating' };
      let id: Uint8Array;
      try {
        id = parseId(text);
      } catch (err) {
        fail(`problem parsing blockchainID "${text}": ${err instanceof Error ? err.message : String(err)}`);
      }
      return { status: state.chain(id) ? 'Created' : 'Unknown' };
    },

    validatedBy: (params) => {
      const id = parseIdParam(params.optionalString('blockchainID'), 'blockchainID');
      // The P-chain's id is the empty id, validated by the Primary Network.
      if (isPrimary(id)) return { subnetID: cb58(PRIMARY_NETWORK) };
      const c = state.chain(id);
      if (!c)
        fail(
          vm.tx(id)
            ? `"${cb58(id)}" is not a blockchain`
            : `problem retrieving blockchain "${cb58(id)}": not found`,
        );
      return { subnetID: cb58(c.subnet) };
    },

    validates: (params) => {
      const id = subnetParam(params);
      if (!isPrimary(id)) subnetOrFail(id, `problem retrieving subnet "${cb58(id)}"`);
      return {
        blockchainIDs: state
          .chains()
          .filter((c) => Buffer.from(c.subnet).equals(Buffer.from(id)))
          .map((c) => cb58(c.id)),
      };
    },

    sampleValidators: (params) => {
      const subnet = subnetParam(params);
      const size = params.uint16('size');
      try {
        const drawn = sampleByWeight(state.validators.at(subnet), size);
        // The reference sorts the sample, so its order says nothing about the draw.
        const ids = drawn.map((d) => d.nodeId).sort((a, b) => Buffer.compare(a, b));
        return { validators: ids.map(nodeIdString) };
      } catch (err) {
        if (err instanceof SampleSizeError) fail(`sampling ${cb58(subnet)} errored with ${err.message}`);
        throw err;
      }
    },

    getCurrentSupply: (params) => {
      // Only elastic subnets have a supply of their own, and none can be made since Etna.
      if (!isPrimary(subnetParam(params))) fail('fetching current supply failed: not found');
      return { supply: state.currentSupply().toString(), height: vm.height().toString() };
    },
    getTimestamp: () => ({ timestamp: rfc3339(chainTime()) }),
    getStakingAssetID: (params) => {
      const s = subnetParam(params);
      if (!isPrimary(s)) noTransformation(s);
      return { assetID: avax };
    },
    getMinStake: (params) => {
      const s = subnetParam(params);
      if (!isPrimary(s)) noTransformation(s);
      return {
        minValidatorStake: vm.config.staking.minValidatorStake.toString(),
        minDelegatorStake: vm.config.staking.minDelegatorStake.toString(),
      };
    },
    getTotalStake: (params) => {
      const s = subnetParam(params);
      let total = 0n;
      for (const v of state.validators.at(s)) total += v.weight;
      return { weight: total.toString(), stake: total.toString() };
    },

    getRewardUTXOs: (params) => {
      const encoding = encodingParam(params);
      const id = parseIdParam(params.optionalString('txID'), 'txID');
      const utxos = state.rewardUtxos(id).map((b) => encodeOrFail(encoding, b, 'utxo'));
      return { numFetched: String(utxos.length), utxos, encoding };
    },

    getFeeConfig: () => {
      const g = vm.config.gasFee;
      return {
        weights: [...g.weights],
        maxCapacity: Number(g.maxCapacity),
        maxPerSecond: Number(g.maxPerSecond),
        targetPerSecond: Number(g.targetPerSecond),
        minPrice: Number(g.minPrice),
        excessConversionConstant: Number(g.excessConversionConstant),
      };
    },

    // Both fee states are the last accepted block's, at its time (getTimestamp's), as the
    // reference answers them; the price can only fall from there, so a wallet never underpays.
    getFeeState: () => {
      const time = chainTime();
      const s = vm.currentGasState(time);
      return {
        capacity: Number(s.capacity),
        excess: Number(s.excess),
        price: Number(gasPrice(vm.config.gasFee, s)),
        timestamp: rfc3339(time),
      };
    },

    getValidatorFeeConfig: () => {
      const v = vm.config.validatorFee;
      return {
        capacity: Number(v.capacity),
        target: Number(v.target),
        minPrice: Number(v.minPrice),
        excessConversionConstant: Number(v.excessConversionConstant),
      };
    },

    getValidatorFeeState: () => {
      const s = state.validatorFeeState()!;
      return {
        excess: Number(s.excess),
        price: Number(validatorFeePrice(vm.config.validatorFee, s.excess)),
        timestamp: rfc3339(chainTime()),
      };
    },

    /** Devnet only: moves the clock forward and settles every staking period that ended. */
    advanceTime: (params) => {
      const seconds = Number(params.uint64('seconds'));
      if (seconds <= 0) fail('seconds must be a positive number');
      const timestamp = vm.advanceTime(seconds);
      return { timestamp: rfc3339(timestamp), height: vm.height().toString() };
    },
  };

  /**
   * getUTXOs' `sourceChain` as the reference's chain lookup reads it: absent, or any alias or id of
   * the P-chain, lists the P-chain's own UTXOs; another chain the node runs, what it exported here.
   */
  function sourceChainId(text: string | undefined): string {
    if (!text || P_ALIASES.includes(text)) return network.pChainID;
    const id = ctx.chain(text)?.blockchainID;
    if (!id) fail(`problem parsing source chainID "${text}": ${noIdWithAlias(text)}`);
    return id;
  }

  return new AvalancheEndpoint('platform').registerAll('platform', handlers);
}

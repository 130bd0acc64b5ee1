/**
 * `platform.*` at /ext/bc/P: the reference node's P-chain API over the PlatformVM. Handlers only
 * parse params, ask the VM and state, and format results; every 64-bit number is a string except
 * in getFeeConfig/getFeeState, which the reference writes as plain numbers.
 */
import { pvmSerial, type TransferableOutput } from '@avalabs/avalanchejs';
import { parseNodeId } from '../../../../shared/encoding.js';
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
import type { Params } from '../../../rpc/params.js';
import { packStruct, parseSignedTx, unpackUtxo } from '../codec.js';
import type { StoredBlock } from '../state/platform-state.js';
import { gasPrice, validatorFeePrice } from '../fees/dynamic-fee.js';
import type { StakerRecord } from '../state/platform-state.js';
import { PlatformJson } from './json.js';
import { canonicalSet } from '../warp/warp-message.js';
import { PRIMARY_NETWORK } from '../txs/executor.js';
import { outputInfo } from '../txs/utxo-kinds.js';
import { sampleByWeight, SampleSizeError } from './sample-validators.js';
import type { PlatformVM } from '../vm.js';
import {
  cb58,
  formatAddress,
  formatOwner,
  hex0x,
  nodeIdString,
  parseAddress,
  parseAddresses,
  parseIdParam,
  percent,
  rfc3339,
} from './format.js';

const MAX_UTXOS = 1024;
const P_ALIASES = ['P', 'platform', '11111111111111111111111111111111LpoYY'];

/** Bytes in `encoding`, or the reference's error for json (`what` names the value, e.g. `UTXO <id>`). */
function encodeOrFail(encoding: Encoding, bytes: Uint8Array, what: string): string {
  if (encoding === 'json') fail(`couldn't encode ${what} as json: ${UNSUPPORTED_IN_METHOD}`);
  return encodeBytes(encoding, bytes);
}

function subnetParam(params: Params): Uint8Array {
  const s = params.optionalString('subnetID');
  return s ? parseIdParam(s, 'subnetID') : PRIMARY_NETWORK;
}

function heightParam(params: Params, vm: PlatformVM): bigint {
  const raw = params.get('height');
  if (raw === 'proposed') return vm.height();
  const h = params.uint64('height');
  if (h > vm.height()) fail(`height ${h} is above the last accepted height ${vm.height()}`);
  return h;
}

export function createPlatformEndpoint(vm: PlatformVM, ctx: ChainContext): AvalancheEndpoint {
  const network = ctx.config.network;
  const hrp = network.hrp;
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
    return {
      txID: cb58(s.txId),
      startTime: String(s.startTime),
      endTime: String(s.endTime),
      weight: s.weight.toString(),
      nodeID: nodeIdString(s.nodeId),
      validationRewardOwner: u ? formatOwner(hrp, u.getValidatorRewardsOwner()) : null,
      delegationRewardOwner: u ? formatOwner(hrp, u.getDelegatorRewardsOwner()) : null,
      potentialReward: s.potentialReward.toString(),
      accruedDelegateeReward: s.accruedDelegateeReward.toString(),
      delegationFee: percent(s.delegationFee),
      uptime: '100.0000',
      connected: true,
      signer: signer
        ? { publicKey: hex0x(signer.publicKey), proofOfPossession: hex0x(signer.signature) }
        : null,
      delegatorCount: String(delegators.length),
      delegatorWeight: delegatorWeight.toString(),
      delegators: withDelegators ? delegators.map(delegatorJson) : null,
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
      rewardOwner: u ? formatOwner(hrp, u.getDelegatorRewardsOwner()) : null,
      potentialReward: d.potentialReward.toString(),
    };
  };

  const l1ValidatorJson = (validationId: Uint8Array) => {
    const v = state.l1Validator(validationId);
    if (!v) fail(`could not find L1 validator with validation ID ${cb58(validationId)}`);
    const accrued = vm.validatorFeeAccrued();
    const balance =
      v.status === 'active' && v.endAccumulatedFee > accrued ? v.endAccumulatedFee - accrued : 0n;
    return {
      validationID: cb58(v.validationId),
      subnetID: cb58(v.subnet),
      nodeID: nodeIdString(v.nodeId),
      publicKey: hex0x(v.publicKey),
      remainingBalanceOwner: formatOwner(hrp, v.remainingBalanceOwner),
      deactivationOwner: formatOwner(hrp, v.deactivationOwner),
      startTime: String(v.startTime),
      weight: v.weight.toString(),
      minNonce: v.minNonce.toString(),
      balance: balance.toString(),
      height: v.height.toString(),
    };
  };

  const formatUtxos = (list: { inputId: Uint8Array; bytes: Uint8Array }[], encoding: Encoding) =>
    list.map((u) => encodeOrFail(encoding, u.bytes, `UTXO ${cb58(u.inputId)}`));

  const handlers: Record<string, (params: Params) => unknown> = {
    getHeight: () => ({ height: vm.height().toString() }),
    getProposedHeight: () => ({ height: vm.height().toString() }),

    getBlock: (params) => {
      const encoding = encodingParam(params);
      const id = parseIdParam(params.string('blockID'), 'blockID');
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
      const id = parseIdParam(params.string('txID'), 'txID');
      const tx = state.getTx(id);
      if (!tx) fail('not found');
      if (encoding === 'json') return { tx: json.tx(parseSignedTx(tx.bytes)), encoding };
      return { tx: encodeOrFail(encoding, tx.bytes, 'tx'), encoding };
    },

    getTxStatus: (params) => {
      const id = parseIdParam(params.string('txID'), 'txID');
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
      const addresses = parseAddresses(params.strings('addresses'), hrp, P_ALIASES);
      let limit = Number(params.uint64('limit', BigInt(MAX_UTXOS)));
      if (limit <= 0 || limit > MAX_UTXOS) limit = MAX_UTXOS;
      const start = params.object('startIndex');
      let after: { address: Uint8Array; inputId: Uint8Array } | undefined;
      if (start && start.string('address') && start.string('utxo')) {
        after = {
          address: parseAddress(start.string('address'), hrp, P_ALIASES),
          inputId: parseIdParam(start.string('utxo'), 'startIndex.utxo'),
        };
      }
      const source = params.optionalString('sourceChain');
      const page = source
        ? ctx.sharedMemory.list(resolveChain(source), network.pChainID, addresses, limit, after)
        : state.utxos.list(addresses, limit, after);
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
      const addresses = parseAddresses(single ? [...texts, single] : texts, hrp, P_ALIASES);
      const now = BigInt(chainTime());
      const sums = { balance: 0n, unlocked: 0n, lockedStakeable: 0n, lockedNotStakeable: 0n };
      const seen = new Set<string>();
      const utxoIDs: { txID: string; outputIndex: number }[] = [];
      for (const address of addresses) {
        for (const bytes of state.utxos.allFor(address)) {
          const utxo = unpackUtxo(bytes);
          const key = `${utxo.utxoId.txID.toString()}:${utxo.utxoId.outputIdx.value()}`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (utxo.assetId.toString() !== avax) continue;
          const info = outputInfo(utxo.output);
          if (info.owners.locktime > now) sums.lockedNotStakeable += info.amount;
          else if (info.stakeableLocktime > now) sums.lockedStakeable += info.amount;
          else sums.unlocked += info.amount;
          sums.balance += info.amount;
          utxoIDs.push({ txID: utxo.utxoId.txID.toString(), outputIndex: utxo.utxoId.outputIdx.value() });
        }
      }
      const perAsset = (v: bigint) => (v > 0n ? { [avax]: v.toString() } : {});
      return {
        balance: sums.balance.toString(),
        unlocked: sums.unlocked.toString(),
        lockedStakeable: sums.lockedStakeable.toString(),
        lockedNotStakeable: sums.lockedNotStakeable.toString(),
        balances: perAsset(sums.balance),
        unlockeds: perAsset(sums.unlocked),
        lockedStakeables: perAsset(sums.lockedStakeable),
        lockedNotStakeables: perAsset(sums.lockedNotStakeable),
        utxoIDs,
      };
    },

    getStake: (params) => {
      const encoding = encodingParam(params);
      const addresses = parseAddresses(params.strings('addresses'), hrp, P_ALIASES).map((a) =>
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
        if (s.kind === 'validator') validators.push(validatorJson(s, nodeIds.length > 0));
        else
          validators.push({
            txID: cb58(s.txId),
            startTime: String(s.startTime),
            endTime: String(s.endTime),
            weight: s.weight.toString(),
            nodeID: nodeIdString(s.nodeId),
            connected: true,
            uptime: '100.0000',
          });
      }
      if (!Buffer.from(subnet).equals(Buffer.from(PRIMARY_NETWORK))) {
        for (const v of state.l1Validators(subnet))
          if (wanted(v.nodeId)) validators.push(l1ValidatorJson(v.validationId));
      }
      return { validators };
    },

    getPendingValidators: () => ({ validators: [], delegators: [] }),

    getCurrentL1Validators: (params) => {
      const subnetText = params.optionalString('subnetID');
      const subnet = subnetText ? parseIdParam(subnetText, 'subnetID') : undefined;
      return { validators: state.l1Validators(subnet).map((v) => l1ValidatorJson(v.validationId)) };
    },

    getL1Validator: (params) => l1ValidatorJson(parseIdParam(params.string('validationID'), 'validationID')),

    getValidatorsAt: (params) => {
      const height = heightParam(params, vm);
      const subnet = subnetParam(params);
      const validators: Record<string, { publicKey: string | null; weight: string }> = {};
      for (const v of state.validators.at(subnet, height))
        validators[nodeIdString(v.nodeId)] = {
          publicKey: v.publicKey ? hex0x(v.publicKey) : null,
          weight: v.weight.toString(),
        };
      return { validators };
    },

    getAllValidatorsAt: (params) => {
      const height = heightParam(params, vm);
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
      const id = parseIdParam(params.string('subnetID'), 'subnetID');
      if (Buffer.from(id).equals(Buffer.from(PRIMARY_NETWORK)))
        return {
          isPermissioned: false,
          controlKeys: [],
          threshold: '0',
          locktime: '0',
          subnetTransformationTxID: cb58(new Uint8Array(32)),
          conversionID: cb58(new Uint8Array(32)),
          managerChainID: cb58(new Uint8Array(32)),
          managerAddress: null,
        };
      const s = state.subnet(id);
      if (!s) fail(`subnet ${cb58(id)} does not exist`);
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

    getSubnets: (params) => {
      const ids = params.strings('ids');
      const wanted = ids.map((i) => Buffer.from(parseIdParam(i, 'subnet ID')).toString('hex'));
      const out: { id: string; controlKeys: string[]; threshold: string }[] = [];
      const primaryHex = Buffer.from(PRIMARY_NETWORK).toString('hex');
      if (wanted.length === 0 || wanted.includes(primaryHex))
        out.push({ id: cb58(PRIMARY_NETWORK), controlKeys: [], threshold: '0' });
      for (const s of state.subnets()) {
        if (wanted.length > 0 && !wanted.includes(Buffer.from(s.id).toString('hex'))) continue;
        const owner = formatOwner(hrp, s.owner);
        out.push({ id: cb58(s.id), controlKeys: owner.addresses, threshold: owner.threshold });
      }
      return { subnets: out };
    },

    getBlockchains: () => ({
      blockchains: state.chains().map((c) => ({
        id: cb58(c.id),
        name: c.name,
        subnetID: cb58(c.subnet),
        vmID: cb58(c.vmId),
      })),
    }),

    getBlockchainStatus: (params) => {
      const text = params.string('blockchainID');
      if (!text) fail('argument "blockchainID" not given');
      if (P_ALIASES.includes(text)) return { status: 'Validating' };
      const running = ctx.chain(text);
      if (running) return { status: 'Validating' };
      let id: Uint8Array;
      try {
        id = parseIdParam(text, 'blockchainID');
      } catch {
        return { status: 'Unknown' };
      }
      return { status: state.chain(id) ? 'Created' : 'Unknown' };
    },

    validatedBy: (params) => {
      const id = parseIdParam(params.string('blockchainID'), 'blockchainID');
      const c = state.chain(id);
      if (!c) fail(`blockchain ${cb58(id)} does not exist`);
      return { subnetID: cb58(c.subnet) };
    },

    validates: (params) => {
      const id = subnetParam(params);
      return {
        blockchainIDs: state
          .chains()
          .filter((c) => Buffer.from(c.subnet).equals(Buffer.from(id)))
          .map((c) => cb58(c.id)),
      };
    },

    sampleValidators: (params) => {
      const subnet = subnetParam(params);
      const size = params.uint64('size');
      if (size > 65_535n) fail(`size ${size} is larger than a uint16`);
      try {
        const drawn = sampleByWeight(state.validators.at(subnet), Number(size));
        // The reference sorts the sample, so its order says nothing about the draw.
        const ids = drawn.map((d) => d.nodeId).sort((a, b) => Buffer.compare(a, b));
        return { validators: ids.map(nodeIdString) };
      } catch (err) {
        if (err instanceof SampleSizeError) fail(`sampling ${cb58(subnet)} errored with ${err.message}`);
        throw err;
      }
    },

    getCurrentSupply: () => ({ supply: state.currentSupply().toString(), height: vm.height().toString() }),
    getTimestamp: () => ({ timestamp: rfc3339(chainTime()) }),
    getStakingAssetID: (params) => {
      const s = subnetParam(params);
      if (!Buffer.from(s).equals(Buffer.from(PRIMARY_NETWORK)))
        fail(`subnet ${cb58(s)} has no staking asset`);
      return { assetID: avax };
    },
    getMinStake: () => ({
      minValidatorStake: vm.config.staking.minValidatorStake.toString(),
      minDelegatorStake: vm.config.staking.minDelegatorStake.toString(),
    }),
    getTotalStake: (params) => {
      const s = subnetParam(params);
      let total = 0n;
      for (const v of state.validators.at(s)) total += v.weight;
      return { weight: total.toString(), stake: total.toString() };
    },

    getRewardUTXOs: (params) => {
      const encoding = encodingParam(params);
      const id = parseIdParam(params.string('txID'), 'txID');
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

    getFeeState: () => {
      const time = vm.nextBlockTime();
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
        timestamp: rfc3339(vm.nextBlockTime()),
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

  function resolveChain(text: string): string {
    if (['X', 'avm', network.xChainID].includes(text)) return network.xChainID;
    if (['C', 'evm', network.cChainID].includes(text)) return network.cChainID;
    fail(`problem parsing source chainID "${text}": not the X-chain or the C-chain`);
  }

  return new AvalancheEndpoint('platform').registerAll('platform', handlers);
}

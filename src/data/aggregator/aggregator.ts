/**
 * The signature aggregator: given an unsigned Warp message, find the signing subnet's validator
 * set at a P-chain height, ask every validator for its signature in parallel, check each answer
 * against that validator's BLS key, and stop as soon as the signed weight reaches the target
 * (quorum + buffer); if every answer is in and the quorum is still met, that suffices. The
 * result is the signed message (BitSetSignature over the canonical set).
 */
import type blst from '@chainsafe/blst';
import { fromCb58, toCb58 } from '../../shared/encoding.js';
import { PRIMARY_NETWORK_ID } from '../../shared/networks.js';
import {
  aggregateSignatures,
  canonicalValidatorSet,
  hasQuorum,
  requiredWeight,
  type CanonicalValidatorSet,
} from '../../shared/warp/index.js';
import { InvalidParameterError, NotFoundError, UpstreamUnavailableError } from '../internal/errors.js';
import { collectSignatures } from './collector.js';
import { decodeHex, encodeSignedMessage, parseWarpMessage } from './message.js';
import { createNodeClient, NodeRpcError } from '../internal/node-client.js';
import { pChainTxWarpRequest } from './pchain-tx-message.js';

export interface AggregateRequest {
  message?: string;
  justification?: string;
  signingSubnetId?: string;
  quorumPercentage?: number;
  quorumPercentageBuffer?: number;
  pChainHeight?: number;
}

export interface AggregateResult {
  /** Hex without `0x`, as the real service returns it. */
  signedMessage: string;
  signedWeight: bigint;
  totalWeight: bigint;
  signers: number;
}

export interface SignatureAggregatorOptions {
  /** Base URL of the node (`http://127.0.0.1:9650`). */
  nodeUrl: string;
  /** How long one validator may take to answer. */
  requestTimeoutMs?: number;
  /** How long the node's own API calls may take. */
  nodeTimeoutMs?: number;
}

export interface SignatureAggregator {
  aggregate(request: AggregateRequest): Promise<AggregateResult>;
  /** The L1 Warp message P-chain tx `txID` emits, signed by its L1's validators. */
  aggregateTx(txID: string): Promise<AggregateResult>;
}

/** How long the peer list from info.peers is reused. */
const PEERS_TTL_MS = 2_000;

/** Most validator signatures kept; the oldest go first. */
const SIGNATURE_CACHE_SIZE = 50_000;

export function createSignatureAggregator(options: SignatureAggregatorOptions): SignatureAggregator {
  // Verified signatures by (message, public key): a repeated request asks only the missing validators.
  const cache = new Map<string, blst.Signature>();
  const remember = (key: string, signature: blst.Signature) => {
    cache.set(key, signature);
    if (cache.size > SIGNATURE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  };
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 10_000;
  const client = createNodeClient(options.nodeUrl, nodeTimeoutMs);
  const node = (path: string, method: string, params: Record<string, unknown>) =>
    client.call<any>(path, method, params);

  // The chain → subnet map never changes, a validator set at a height never changes, and the
  // peer list moves rarely: caching them keeps an aggregation to the signature requests alone.
  const subnetByChain = new Map<string, string>();
  const sets = new Map<string, CanonicalValidatorSet>();
  let peers: { at: number; map: Map<string, string> } | undefined;
  let networkID: number | undefined;

  // "Proposed height": the reference takes a height that lags the tip by its proposer window;
  // here the tip, read for every aggregation: the devnet's chains verify Warp messages at the tip,
  // so a set that changed a moment ago (a validator just removed) must already be the one that
  // signs, or the message would not verify where it is delivered.
  async function proposedHeight(): Promise<bigint> {
    return BigInt((await node('/ext/bc/P', 'platform.getHeight', {})).height);
  }

  async function subnetOfChain(chainId: string): Promise<string> {
    if (chainId === PRIMARY_NETWORK_ID) return PRIMARY_NETWORK_ID;
    const known = subnetByChain.get(chainId);
    if (known) return known;
    const { blockchains } = await node('/ext/bc/P', 'platform.getBlockchains', {});
    for (const b of blockchains as { id: string; subnetID: string }[]) subnetByChain.set(b.id, b.subnetID);
    const subnet = subnetByChain.get(chainId);
    if (!subnet) throw new NotFoundError(`source blockchain not found for chain ID ${chainId}`);
    return subnet;
  }

  async function validatorSet(subnetID: string, height: bigint | undefined): Promise<CanonicalValidatorSet> {
    const at = height ?? (await proposedHeight());
    const key = `${subnetID}@${at}`;
    const cached = sets.get(key);
    if (cached) return cached;
    let answer: {
      validators: Record<string, { publicKey?: string | null; weight: string | number } | string | number>;
    };
    try {
      answer = await node('/ext/bc/P', 'platform.getValidatorsAt', { height: at.toString(), subnetID });
    } catch (err) {
      if (err instanceof NodeRpcError) {
        // A height the P-chain has not reached is the caller's mistake, not an outage: a 5XX
        // would have the SDKs retry it for minutes.
        if (height !== undefined) {
          const tip = BigInt((await node('/ext/bc/P', 'platform.getHeight', {})).height);
          if (height > tip)
            throw new InvalidParameterError(
              `pChainHeight ${height} is above the P-Chain's current height ${tip}`,
            );
        }
        throw new UpstreamUnavailableError(
          `validator set of subnet ${subnetID} at P-Chain height ${at} is unavailable: ${err.message}`,
        );
      }
      throw err;
    }
    const inputs = Object.entries(answer.validators ?? {}).map(([nodeID, v]) => {
      if (typeof v === 'object') {
        return {
          nodeID,
          weight: BigInt(v.weight),
          publicKey: v.publicKey ? decodeHex(v.publicKey, 'publicKey') : undefined,
        };
      }
      return { nodeID, weight: BigInt(v) };
    });
    if (inputs.length === 0)
      throw new NotFoundError(`no validators for subnet ${subnetID} at P-Chain height ${at}`);
    const set = canonicalValidatorSet(inputs);
    sets.set(key, set);
    if (sets.size > 64) sets.delete(sets.keys().next().value as string);
    return set;
  }

  async function peerAddresses(): Promise<Map<string, string>> {
    if (peers && Date.now() - peers.at < PEERS_TTL_MS) return peers.map;
    const [answer, self] = await Promise.all([
      node('/ext/info', 'info.peers', {}),
      node('/ext/info', 'info.getNodeID', {}),
    ]);
    const map = new Map<string, string>();
    for (const p of answer.peers as { nodeID: string; ip: string }[])
      if (p.ip) map.set(p.nodeID, `http://${p.ip}`);
    map.set(self.nodeID as string, options.nodeUrl);
    peers = { at: Date.now(), map };
    return map;
  }

  const nodeNetworkID = async () =>
    (networkID ??= Number((await node('/ext/info', 'info.getNetworkID', {})).networkID));

  const api: SignatureAggregator = {
    async aggregateTx(txID) {
      return api.aggregate(await pChainTxWarpRequest(client, await nodeNetworkID(), txID));
    },
    async aggregate(request) {
      if (!request.message && !request.justification) {
        throw new InvalidParameterError('Must provide either message or justification');
      }
      if (!request.message) throw new InvalidParameterError('message is required to aggregate signatures');
      const quorum = request.quorumPercentage || 67;
      const buffer = request.quorumPercentageBuffer ?? 0;
      if (!Number.isInteger(quorum) || quorum < 1 || quorum > 100)
        throw new InvalidParameterError('quorumPercentage must be an integer from 0 to 100');
      if (!Number.isInteger(buffer) || buffer < 0 || quorum + buffer > 100) {
        throw new InvalidParameterError('quorumPercentage plus quorumPercentageBuffer must be at most 100');
      }
      const message = parseWarpMessage(decodeHex(request.message, 'message'));
      const justification = request.justification
        ? decodeHex(request.justification, 'justification')
        : new Uint8Array(0);
      const networkID = await nodeNetworkID();
      if (networkID !== message.networkID) {
        throw new InvalidParameterError(
          `message is for network ${message.networkID}, this service aggregates for network ${networkID}`,
        );
      }
      let subnetID: string;
      if (request.signingSubnetId) {
        subnetID = parseSubnetId(request.signingSubnetId);
      } else {
        subnetID = await subnetOfChain(toCb58(message.sourceChainID));
      }
      const height = request.pChainHeight ? BigInt(request.pChainHeight) : undefined;
      const [set, addresses] = await Promise.all([validatorSet(subnetID, height), peerAddresses()]);

      const target = requiredWeight(set.totalWeight, BigInt(Math.min(100, quorum + buffer)));
      const answers = await collectSignatures({
        set,
        addresses,
        message: message.bytes,
        justification,
        target,
        timeoutMs: requestTimeoutMs,
        cache,
        remember,
        forget: (key) => cache.delete(key),
      });
      const signedWeight = answers.reduce((sum, a) => sum + set.validators[a.index].weight, 0n);
      if (!hasQuorum(signedWeight, set.totalWeight, BigInt(quorum))) {
        const percent = set.totalWeight === 0n ? 0 : Number((signedWeight * 10000n) / set.totalWeight) / 100;
        // Quorum not reached: the validators needed are not available now (503), weights stated.
        throw new UpstreamUnavailableError(
          `failed to collect a threshold of signatures: ${answers.length} of ${set.validators.length} validators signed ` +
            `with weight ${signedWeight} of ${set.totalWeight} (${percent}%), ${quorum}% required`,
          {
            signedWeight: signedWeight.toString(),
            totalWeight: set.totalWeight.toString(),
            quorumPercentage: quorum,
          },
        );
      }
      const aggregate = aggregateSignatures(new Map(answers.map((a) => [a.index, a.signature])));
      const signed = encodeSignedMessage(message.bytes, aggregate.signers, aggregate.signature);
      return {
        signedMessage: Buffer.from(signed).toString('hex'),
        signedWeight,
        totalWeight: set.totalWeight,
        signers: answers.length,
      };
    },
  };
  return api;
}

/** A subnet id given as cb58 or as 0x-hex of 32 bytes. */
function parseSubnetId(text: string): string {
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) return toCb58(Uint8Array.from(Buffer.from(text.slice(2), 'hex')));
  try {
    const bytes = fromCb58(text);
    if (bytes.length === 32) return text;
  } catch {
    // fall through
  }
  throw new InvalidParameterError(
    'Error parsing signing subnet ID: expected cb58 or 0x-prefixed hex of 32 bytes',
  );
}

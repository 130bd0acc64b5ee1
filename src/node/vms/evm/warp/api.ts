/**
 * The `warp_*` JSON-RPC methods of an EVM chain: the unsigned bytes of an accepted message, this
 * node's signature over a message or an accepted block hash, and aggregate signatures — gathered
 * from the devnet's validators that this node hosts (each signs through the same rule as its
 * peer endpoint) until the quorum of the signing subnet's canonical set at the current P-chain
 * height is met.
 */
import type { ChainContext } from '../../../chains/chain.js';
import { fromCb58, toCb58 } from '../../../../shared/encoding.js';
import {
  aggregateSignatures,
  canonicalValidatorSet,
  hasQuorum,
  WARP_DEFAULT_QUORUM_NUMERATOR,
} from '../../../../shared/warp/index.js';
import { fail } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import { encodeHashPayload } from '../../../warp/accepted-block-rule.js';
import { encodeUnsignedMessage } from '../../../warp/unsigned-message.js';
import type { PlatformChain } from '../../platformvm/chain.js';
import type { EvmChain } from '../evm-chain.js';
import type { WarpBackend } from './backend.js';
import { encodeSignedMessage } from './predicate.js';
import { arity, bad, goInteger, jsonKind } from '../api/args.js';
import { decodeGoId } from '../../../rpc/go-id-json.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

/** An ids.ID argument: as the reference's ids.ID decodes it (cb58, its words), or 0x hex. */
function idParam(params: unknown[], i: number): Uint8Array {
  const v = params[i];
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{64}$/.test(v))
    return Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
  try {
    return decodeGoId(v);
  } catch (err) {
    bad(i, (err as Error).message);
  }
}

/**
 * The quorum numerator, a Go uint64 (encoding/json's words for another JSON value). Left out,
 * null or 0 it is the default 67, as icm-services reads 0; above 100 no set could meet it.
 */
function quorumParam(params: unknown[], i: number): bigint {
  const quorum = goInteger(params, i, 'uint64');
  if (quorum === 0n) return WARP_DEFAULT_QUORUM_NUMERATOR;
  if (quorum > 100n) bad(i, 'quorum numerator must be an integer in 1..100');
  return quorum;
}

/** The signing subnet, a Go string: left out, null or empty means the chain's own subnet. */
function subnetParam(params: unknown[], i: number): string {
  const v = params[i];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') bad(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
}

export function createWarpApi(
  ctx: ChainContext,
  chain: EvmChain,
  backend: WarpBackend,
): Record<string, EvmHandler> {
  const networkID = ctx.config.network.networkID;
  const chainID = fromCb58(chain.blockchainID);
  const self = ctx.genesis.validators[0];

  // The reference's words: GetMessage/GetMessageSignature wrap the database's `not found`,
  // GetMessageAggregateSignature answers it bare; a block signature wraps the verifier's
  // AppError (code 2, VerifyErrCode) for a block that is not accepted.
  const messageBytes = (id: Uint8Array, wrap = true): Uint8Array => {
    const bytes = backend.messageById(id);
    if (!bytes) fail(wrap ? `failed to get message ${toCb58(id)} with error not found` : 'not found');
    return bytes;
  };
  const blockMessage = (blockID: Uint8Array, forSignature = true): Uint8Array => {
    if (!backend.isAcceptedBlock(blockID)) {
      const id = toCb58(blockID);
      fail(
        forSignature
          ? `failed to get signature for block ${id} with error failed to validate block message: 2: failed to get block ${id}: not found`
          : `failed to get block ${id}: not found`,
      );
    }
    return encodeUnsignedMessage(networkID, chainID, encodeHashPayload(blockID));
  };
  const sign = async (bytes: Uint8Array, secret = self.blsSecretKey): Promise<Uint8Array> =>
    ctx.warp.sign(secret, bytes, new Uint8Array()).catch((err: Error) => fail(err.message));

  /**
   * subnet-evm's order: the subnet argument, the set at the current P-chain height (a subnet the
   * P-chain has no set for, or whose set has no key, is named), then the validators are asked
   * (`signable` throws what they would refuse for).
   */
  const aggregate = async (
    unsigned: Uint8Array,
    quorum: bigint,
    subnetText: string,
    signable: () => void = () => {},
  ): Promise<string> => {
    const platform = ctx.chain('P') as PlatformChain;
    let subnet: Uint8Array;
    try {
      subnet = fromCb58(subnetText || chain.subnetID);
      if (subnet.length !== 32) throw new Error();
    } catch {
      fail(`failed to parse subnetID: ${JSON.stringify(subnetText)}`);
    }
    const height = platform.vm.height();
    const validators = platform.vm.state.validators.at(subnet, height);
    if (validators.length === 0)
      fail(`cannot retrieve validator set: ${toCb58(subnet)} source subnet not found`);
    const set = canonicalValidatorSet(
      validators.map((v) => ({ nodeID: toCb58(v.nodeId), publicKey: v.publicKey, weight: v.weight })),
    );
    if (set.validators.length === 0)
      fail(
        `cannot aggregate signatures from subnet with no validators (SubnetID: ${toCb58(subnet)}, Height: ${height})`,
      );
    signable();
    const byKey = new Map(
      ctx.genesis.validators.map((v) => [Buffer.from(v.blsPublicKey).toString('hex'), v]),
    );
    const parts = new Map<number, Uint8Array>();
    let weight = 0n;
    for (let i = 0; i < set.validators.length && !hasQuorum(weight, set.totalWeight, quorum); i++) {
      const hosted = byKey.get(Buffer.from(set.validators[i].publicKey).toString('hex'));
      if (!hosted) continue;
      parts.set(i, await sign(unsigned, hosted.blsSecretKey));
      weight += set.validators[i].weight;
    }
    if (!hasQuorum(weight, set.totalWeight, quorum))
      fail(
        `failed to aggregate signatures: signed weight ${weight} of ${set.totalWeight} does not reach ${quorum}%`,
      );
    const sig = aggregateSignatures(parts);
    return hex(encodeSignedMessage(unsigned, sig.signers, sig.signature));
  };

  // geth's count check: a JSON null is a value (an empty id, the default quorum or subnet).
  return {
    warp_getMessage: (params) => (arity(params, 1, 1), hex(messageBytes(idParam(params, 0)))),
    warp_getMessageSignature: async (params) => {
      arity(params, 1, 1);
      return hex(await sign(messageBytes(idParam(params, 0))));
    },
    warp_getBlockSignature: async (params) => {
      arity(params, 1, 1);
      return hex(await sign(blockMessage(idParam(params, 0))));
    },
    warp_getMessageAggregateSignature: (params) => {
      arity(params, 3, 1);
      const id = idParam(params, 0);
      const quorum = quorumParam(params, 1);
      const subnet = subnetParam(params, 2);
      return aggregate(messageBytes(id, false), quorum, subnet);
    },
    warp_getBlockAggregateSignature: (params) => {
      arity(params, 3, 1);
      const blockID = idParam(params, 0);
      const quorum = quorumParam(params, 1);
      const subnet = subnetParam(params, 2);
      const unsigned = encodeUnsignedMessage(networkID, chainID, encodeHashPayload(blockID));
      return aggregate(unsigned, quorum, subnet, () => blockMessage(blockID, false));
    },
  };
}

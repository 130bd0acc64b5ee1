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
import { RpcError, RpcCode, fail } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import { encodeHashPayload } from '../../../warp/accepted-block-rule.js';
import { encodeUnsignedMessage } from '../../../warp/unsigned-message.js';
import type { PlatformChain } from '../../platformvm/chain.js';
import type { EvmChain } from '../evm-chain.js';
import type { WarpBackend } from './backend.js';
import { encodeSignedMessage } from './predicate.js';
import { arity } from '../api/args.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

/** An ids.ID argument: cb58 (as the reference marshals ids) or 0x hex. */
function idParam(params: unknown[], i: number, what: string): Uint8Array {
  const v = params[i];
  if (typeof v !== 'string')
    throw new RpcError(RpcCode.invalidParams, `invalid argument ${i}: ${what} must be a string`);
  try {
    const bytes = /^0x[0-9a-fA-F]{64}$/.test(v)
      ? Uint8Array.from(Buffer.from(v.slice(2), 'hex'))
      : fromCb58(v);
    if (bytes.length !== 32) throw new Error();
    return bytes;
  } catch {
    throw new RpcError(RpcCode.invalidParams, `invalid argument ${i}: ${what} is not a valid ID`);
  }
}

function quorumParam(params: unknown[], i: number): bigint {
  const v = params[i];
  if (v === undefined || v === null || v === 0) return WARP_DEFAULT_QUORUM_NUMERATOR;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100)
    throw new RpcError(
      RpcCode.invalidParams,
      `invalid argument ${i}: quorum numerator must be an integer in 1..100`,
    );
  return BigInt(v);
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

  const aggregate = async (unsigned: Uint8Array, quorum: bigint, subnetParam: unknown): Promise<string> => {
    const platform = ctx.chain('P') as PlatformChain;
    let subnet: Uint8Array;
    try {
      subnet =
        typeof subnetParam === 'string' && subnetParam !== ''
          ? fromCb58(subnetParam)
          : fromCb58(chain.subnetID);
    } catch {
      fail(`failed to parse subnetID: ${JSON.stringify(subnetParam)}`);
    }
    const validators = platform.vm.state.validators.at(subnet, platform.vm.height());
    const set = canonicalValidatorSet(
      validators.map((v) => ({ nodeID: toCb58(v.nodeId), publicKey: v.publicKey, weight: v.weight })),
    );
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

  return {
    warp_getMessage: (params) => (arity(params, 1, 1), hex(messageBytes(idParam(params, 0, 'messageID')))),
    warp_getMessageSignature: async (params) => {
      arity(params, 1, 1);
      return hex(await sign(messageBytes(idParam(params, 0, 'messageID'))));
    },
    warp_getBlockSignature: async (params) => {
      arity(params, 1, 1);
      return hex(await sign(blockMessage(idParam(params, 0, 'blockID'))));
    },
    warp_getMessageAggregateSignature: (params) => {
      arity(params, 3, 1);
      return aggregate(
        messageBytes(idParam(params, 0, 'messageID'), false),
        quorumParam(params, 1),
        params[2],
      );
    },
    warp_getBlockAggregateSignature: (params) => {
      arity(params, 3, 1);
      return aggregate(blockMessage(idParam(params, 0, 'blockID'), false), quorumParam(params, 1), params[2]);
    },
  };
}

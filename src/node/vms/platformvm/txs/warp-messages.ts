/**
 * The Warp messages L1 txs carry, as the reference's warp_verifier.go checks them before the tx
 * executes, and the manager's messages parsed and matched against the L1's conversion.
 */
import { pvmSerial } from '@avalabs/avalanchejs';
import { toCb58 } from '../../../../shared/encoding.js';
import type { ParsedTx } from '../codec.js';
import {
  WarpError,
  parseAddressedCall,
  parseWarpMessage,
  verifyWarpSignature,
} from '../warp/warp-message.js';
import { PRIMARY_NETWORK, type ExecEnv } from './env.js';
import { eq, fail } from './base-checks.js';

/** constants.PlatformChainID: the P-chain's id, all zeros. */
const PLATFORM_CHAIN = new Uint8Array(32);

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** A Warp message's parts, parsed (refused in the reference codec's words). */
export function managerMessage(bytes: Uint8Array) {
  return wrapWarp(() => {
    const msg = parseWarpMessage(bytes);
    const call = parseAddressedCall(msg.payload);
    return { msg, call };
  });
}

export function wrapWarp<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WarpError) fail(err.message);
    throw err;
  }
}

/** The Warp message a tx carries, if any (RegisterL1ValidatorTx, SetL1ValidatorWeightTx). */
function warpMessageOf(tx: ParsedTx): Uint8Array | undefined {
  const u = tx.unsigned as unknown;
  if (pvmSerial.isRegisterL1ValidatorTx(u as never) || pvmSerial.isSetL1ValidatorWeightTx(u as never))
    return (u as pvmSerial.RegisterL1ValidatorTx).message.toBytes().subarray(4);
  return undefined;
}

/**
 * The reference's `VerifyWarpMessages`, made before the tx executes: the message is signed by
 * enough of the validators of its source chain's subnet.
 */
export function verifyWarpMessages(tx: ParsedTx, env: ExecEnv): void {
  const bytes = warpMessageOf(tx);
  if (!bytes) return;
  const msg = wrapWarp(() => parseWarpMessage(bytes));
  const signingSubnet = sourceSubnet(env, msg.sourceChainId);
  wrapWarp(() => verifyWarpSignature(msg, env.network.networkID, env.state.validators.at(signingSubnet)));
}

/**
 * The subnet whose validators sign for a chain, as the P-chain's `GetSubnetID` finds it: the
 * P-chain's own id is the primary network's; any other is the CreateChainTx of that id (the
 * genesis chains included), `"<id>" is not a blockchain` for another tx's id, and an id no tx
 * has `problem retrieving blockchain "<id>": not found`, even when it is the chain a converted
 * L1 names as its manager's (ConvertSubnetToL1Tx does not require that chain to exist).
 */
function sourceSubnet(env: ExecEnv, chainId: Uint8Array): Uint8Array {
  if (eq(chainId, PLATFORM_CHAIN)) return PRIMARY_NETWORK;
  const chain = env.state.chain(chainId);
  if (chain) return chain.subnet;
  if (env.state.getTx(chainId)) fail(`"${toCb58(chainId)}" is not a blockchain`);
  fail(`problem retrieving blockchain "${toCb58(chainId)}": not found`);
}

/** `verifyL1Conversion`: the message comes from the chain and address that manage the L1. */
export function verifyL1Conversion(
  env: ExecEnv,
  subnetId: Uint8Array,
  m: ReturnType<typeof managerMessage>,
): void {
  const subnet = env.state.subnet(subnetId);
  if (!subnet?.conversionId || !subnet.managerChain || !subnet.managerAddress)
    fail(`could not load subnet conversion for ${toCb58(subnetId)} with: not found`);
  if (!eq(m.msg.sourceChainId, subnet.managerChain))
    fail(
      `wrong warp message source chain ID expected ${toCb58(subnet.managerChain)} but had ${toCb58(m.msg.sourceChainId)}`,
    );
  if (!eq(m.call.sourceAddress, subnet.managerAddress))
    fail(
      `wrong warp message source address expected 0x${hex(subnet.managerAddress)} but got 0x${hex(m.call.sourceAddress)}`,
    );
}

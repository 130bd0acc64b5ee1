/**
 * Helpers of the Warp end-to-end tests: turning a Subnet-EVM subnet into an L1 whose validators
 * are the devnet's genesis validators (so they sign its Warp messages), and the access-list
 * predicate that carries a signed Warp message into a transaction.
 */
import { L1Validator, PChainOwner, pvm, pvmSerial, utils } from '@avalabs/avalanchejs';
import type { Hex } from 'viem';
import { call } from '../helpers/devnet.js';
import { EWOQ_ADDR, EWOQ_KEY, signAndIssue } from './pchain-helpers.js';
import { pAddress, type createSubnetEvmChain } from './subnet-evm-helpers.js';

export interface GenesisValidator {
  nodeID: string;
  publicKey: string;
  pop: string;
}

/** The reference predicate packing: bytes, 0xff, zero padding to 32-byte storage keys. */
export function packPredicate(bytes: Uint8Array): Hex[] {
  const total = Math.ceil((bytes.length + 1) / 32) * 32;
  const out = Buffer.alloc(total);
  Buffer.from(bytes).copy(out);
  out[bytes.length] = 0xff;
  const keys: Hex[] = [];
  for (let i = 0; i < total; i += 32) keys.push(`0x${out.subarray(i, i + 32).toString('hex')}`);
  return keys;
}

/**
 * Converts the subnet of `created` to an L1 validated by the devnet's genesis validators, with the
 * proofs of possession they publish themselves (info.getNodeID at each one's own address).
 */
export async function convertToGenesisL1(
  url: string,
  created: Awaited<ReturnType<typeof createSubnetEvmChain>>,
): Promise<GenesisValidator[]> {
  const self = await call(`${url}/ext/info`, 'info.getNodeID');
  const { peers } = await call(`${url}/ext/info`, 'info.peers');
  const nodes = [
    { nodeID: self.nodeID, publicKey: self.nodePOP.publicKey, pop: self.nodePOP.proofOfPossession },
  ];
  for (const p of peers) {
    const info = await call(`http://${p.ip}/ext/info`, 'info.getNodeID');
    nodes.push({
      nodeID: info.nodeID,
      publicKey: info.nodePOP.publicKey,
      pop: info.nodePOP.proofOfPossession,
    });
  }
  const hex = (s: string) => utils.hexToBuffer(s.startsWith('0x') ? s : '0x' + s);
  const convert = pvm.newConvertSubnetToL1Tx(
    {
      feeState: await created.api.getFeeState(),
      fromAddressesBytes: [EWOQ_ADDR],
      utxos: (await created.api.getUTXOs({ addresses: [pAddress(created.ctx.hrp)] })).utxos,
      subnetId: created.subnetId,
      chainId: created.chainId,
      address: utils.hexToBuffer('0x' + 'ab'.repeat(20)),
      subnetAuth: [0],
      validators: nodes.map((n) =>
        L1Validator.fromNative(
          n.nodeID,
          100n,
          1_000_000_000n,
          new pvmSerial.ProofOfPossession(hex(n.publicKey), hex(n.pop)),
          PChainOwner.fromNative([EWOQ_ADDR], 1),
          PChainOwner.fromNative([EWOQ_ADDR], 1),
        ),
      ),
    },
    created.ctx,
  );
  await signAndIssue(created.api, convert, [EWOQ_KEY], EWOQ_KEY);
  return nodes;
}

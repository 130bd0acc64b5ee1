/**
 * An L1's validator set driven as a validator manager drives it (ACP-77), every Warp message real:
 * the manager (here an account on the L1 itself) sends its RegisterL1ValidatorMessage and
 * L1ValidatorWeightMessages through the L1's Warp precompile, the chain-data service aggregates
 * the L1 validators' signatures, the P-chain txs carry them; the P-chain's answers
 * (registration, weight, and the removals' not-registered acknowledgements) come back through
 * `GET …/aggregateSignatures/{txHash}` and verify on the L1 as from the P-chain and the zero
 * address, which is what a validator manager contract checks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { L1Validator, PChainOwner, pvm, pvmSerial, utils } from '@avalabs/avalanchejs';
import { decodeFunctionResult, encodeFunctionData, parseAbi, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY,
  registerPayload,
  signAndIssue,
  testNodeId,
  weightPayload,
} from './pchain-helpers.js';
import {
  createSubnetEvmChain,
  EWOQ_EVM,
  EWOQ_EVM_KEY,
  evmClients,
  pAddress,
  PRECOMPILES,
} from './subnet-evm-helpers.js';
import { packPredicate } from './warp-helpers.js';

const L1_CHAIN_ID = 77_010;
const WARP_ABI = parseAbi([
  'function sendWarpMessage(bytes payload) returns (bytes32)',
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
]);

describe('an L1 validator manager with real Warp messages', () => {
  let net: Devnet;
  let created: Awaited<ReturnType<typeof createSubnetEvmChain>>;
  let l1: ReturnType<typeof evmClients>;
  const ewoq = privateKeyToAccount(EWOQ_EVM_KEY);
  const added = blsKey('manager-added');
  const addedNode = testNodeId(81);
  let addedValidation: string;
  let registerTx: string;

  const utxos = async () => (await created.api.getUTXOs({ addresses: [pAddress(created.ctx.hrp)] })).utxos;
  const base = async () => ({
    feeState: await created.api.getFeeState(),
    fromAddressesBytes: [EWOQ_ADDR],
    utxos: await utxos(),
  });

  /** The manager's message, sent through the L1's Warp precompile: its unsigned bytes. */
  async function emit(payload: Uint8Array): Promise<string> {
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.sendTransaction({
        to: PRECOMPILES.warp as Hex,
        data: encodeFunctionData({ abi: WARP_ABI, functionName: 'sendWarpMessage', args: [toHex(payload)] }),
        chain: l1.chain,
        account: ewoq,
      }),
    });
    const data = Buffer.from(receipt.logs[0].data.slice(2), 'hex');
    return data.subarray(64, 64 + Number(data.readBigUInt64BE(56))).toString('hex');
  }

  async function aggregate(message: string): Promise<Uint8Array> {
    const res = await fetch(`${net.facts.urls.data}/v1/signatureAggregator/local/aggregateSignatures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    const body = (await res.json()) as any;
    assert.equal(res.status, 201, JSON.stringify(body));
    return Buffer.from(body.signedMessage, 'hex');
  }

  /** The P-chain's message about `txHash`, as the L1's Warp precompile hands it to a contract. */
  async function deliveredFromP(txHash: string) {
    const res = await fetch(
      `${net.facts.urls.data}/v1/signatureAggregator/local/aggregateSignatures/${txHash}`,
    );
    const body = (await res.json()) as any;
    assert.equal(res.status, 201, JSON.stringify(body));
    const { body: answer } = await rpc(`${net.url}/ext/bc/${created.chainId}/rpc`, 'eth_call', [
      {
        to: PRECOMPILES.warp,
        data: encodeFunctionData({ abi: WARP_ABI, functionName: 'getVerifiedWarpMessage', args: [0] }),
        accessList: [
          {
            address: PRECOMPILES.warp,
            storageKeys: packPredicate(Buffer.from(body.signedMessage, 'hex')),
          },
        ],
      },
      'latest',
    ]);
    const [message, valid] = decodeFunctionResult({
      abi: WARP_ABI,
      functionName: 'getVerifiedWarpMessage',
      data: answer.result,
    });
    assert.equal(valid, true);
    assert.equal(message.sourceChainID, toHex(new Uint8Array(32)), 'from the P-chain');
    assert.equal(message.originSenderAddress, '0x0000000000000000000000000000000000000000');
    return Buffer.from(message.payload.slice(2), 'hex');
  }

  /** L1ValidatorRegistrationMessage{validationID, registered}. */
  const registration = (validationID: string, registered: boolean) =>
    Buffer.concat([
      Buffer.from([0, 0, 0, 0, 0, 2]),
      Buffer.from(utils.base58check.decode(validationID)),
      Buffer.from([registered ? 1 : 0]),
    ]);

  before(async () => {
    net = await startDevnet();
    created = await createSubnetEvmChain(
      net.url,
      {
        config: {
          chainId: L1_CHAIN_ID,
          feeConfig: { gasLimit: 15_000_000 },
          warpConfig: { blockTimestamp: 0 },
        },
        alloc: { [EWOQ_EVM]: { balance: '0x' + (10n ** 24n).toString(16) } },
        gasLimit: '0xe4e1c0',
        timestamp: '0x0',
      },
      'managed l1',
    );
    l1 = evmClients(`${net.url}/ext/bc/${created.chainId}/rpc`, L1_CHAIN_ID, ewoq);
    // The genesis nodes validate the L1 (they answer signature requests); the manager is the
    // well-known account on the L1, so it can send the manager's messages itself.
    const self = await call(`${net.url}/ext/info`, 'info.getNodeID');
    const nodes = [self];
    for (const p of (await call(`${net.url}/ext/info`, 'info.peers')).peers)
      nodes.push(await call(`http://${p.ip}/ext/info`, 'info.getNodeID'));
    const hex = (t: string) => utils.hexToBuffer(t.startsWith('0x') ? t : '0x' + t);
    const convert = pvm.newConvertSubnetToL1Tx(
      {
        ...(await base()),
        subnetId: created.subnetId,
        chainId: created.chainId,
        address: hex(EWOQ_EVM),
        subnetAuth: [0],
        validators: nodes.map((n) =>
          L1Validator.fromNative(
            n.nodeID,
            100n,
            1_000_000_000n,
            new pvmSerial.ProofOfPossession(hex(n.nodePOP.publicKey), hex(n.nodePOP.proofOfPossession)),
            PChainOwner.fromNative([EWOQ_ADDR], 1),
            PChainOwner.fromNative([EWOQ_ADDR], 1),
          ),
        ),
      },
      created.ctx,
    );
    await signAndIssue(created.api, convert, [EWOQ_KEY], EWOQ_KEY);
  });
  after(async () => {
    await net?.stop();
  });

  it('registers a validator from the L1-signed registration, and the P-chain acknowledges it', async () => {
    const now = BigInt(Math.floor(Date.parse((await created.api.getTimestamp()).timestamp) / 1000));
    const payload = registerPayload(created.subnetId, addedNode, added, now + 600n, EWOQ_ADDR, 50n);
    const message = await aggregate(await emit(payload));
    registerTx = await signAndIssue(
      created.api,
      pvm.newRegisterL1ValidatorTx(
        { ...(await base()), balance: 1_000_000_000n, blsSignature: added.pop, message },
        created.ctx,
      ),
    );
    // The validation id is the hash of the registration payload (what the manager computes).
    addedValidation = utils.base58check.encode(sha256(payload.subarray(0)));
    const v = await call(`${net.url}/ext/bc/P`, 'platform.getL1Validator', { validationID: addedValidation });
    assert.equal(v.nodeID, addedNode);
    assert.equal(v.weight, '50');
    assert.deepEqual(await deliveredFromP(registerTx), registration(addedValidation, true));
  });

  it('changes its weight, and the P-chain acknowledges the nonce and weight', async () => {
    const message = await aggregate(await emit(weightPayload(addedValidation, 1n, 70n)));
    const tx = await signAndIssue(
      created.api,
      pvm.newSetL1ValidatorWeightTx({ ...(await base()), message }, created.ctx),
    );
    assert.deepEqual(await deliveredFromP(tx), Buffer.from(weightPayload(addedValidation, 1n, 70n)));
  });

  it('removes the registered validator: the acknowledgement is "not registered", justified by its registration', async () => {
    const message = await aggregate(await emit(weightPayload(addedValidation, 2n, 0n)));
    const tx = await signAndIssue(
      created.api,
      pvm.newSetL1ValidatorWeightTx({ ...(await base()), message }, created.ctx),
    );
    assert.deepEqual(await deliveredFromP(tx), registration(addedValidation, false));
    // The registration tx's own message now reads the same.
    assert.deepEqual(await deliveredFromP(registerTx), registration(addedValidation, false));
  });

  it('removes an initial validator: the acknowledgement is justified by the conversion index', async () => {
    const { validators } = await call(`${net.url}/ext/bc/P`, 'platform.getCurrentValidators', {
      subnetID: created.subnetId,
    });
    const initial = validators[validators.length - 1].validationID as string;
    const message = await aggregate(await emit(weightPayload(initial, 0n, 0n)));
    const tx = await signAndIssue(
      created.api,
      pvm.newSetL1ValidatorWeightTx({ ...(await base()), message }, created.ctx),
    );
    assert.deepEqual(await deliveredFromP(tx), registration(initial, false));
  });
});

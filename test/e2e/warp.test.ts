/**
 * Issue 8, Warp end to end: an L1 created through the P-chain (subnet, Subnet-EVM chain with
 * Warp, conversion whose validators are the devnet's genesis validators, keys from their own
 * info.getNodeID); a sender contract on the C-chain emits a message through the Warp precompile;
 * the chain-data service aggregates the validators' signatures; the signed message, carried as
 * an access-list predicate, reaches a receiver contract on the L1, which sees it verified. The
 * signature is checked independently with @noble/curves against the L1's validator set, and the
 * validators API reports the L1's validators with their connection and uptime.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as blst from '@chainsafe/blst';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { utils } from '@avalabs/avalanchejs';
import { encodeFunctionData, getContractAddress, parseAbi, parseEventLogs, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  compile,
  createSubnetEvmChain,
  EWOQ_EVM,
  EWOQ_EVM_KEY,
  evmClients,
  PRECOMPILES,
} from './subnet-evm-helpers.js';
import { convertToGenesisL1, packPredicate } from './warp-helpers.js';

const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const ETHER = 10n ** 18n;
const L1_CHAIN_ID = 77_002;
const WARP_READS_ABI = parseAbi([
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
  'function getVerifiedWarpBlockHash(uint32 index) view returns ((bytes32 sourceChainID, bytes32 blockHash) warpBlockHash, bool valid)',
  'function sendWarpMessage(bytes payload) returns (bytes32)',
]);
const WARP_ABI = parseAbi([
  'function getVerifiedWarpMessage(uint32 index) view returns ((bytes32 sourceChainID, address originSenderAddress, bytes payload) message, bool valid)',
]);

const CONTRACTS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }
interface IWarpMessenger {
  event SendWarpMessage(address indexed sourceAddress, bytes32 indexed unsignedMessageID, bytes message);
  function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);
  function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage memory message, bool valid);
  function getBlockchainID() external view returns (bytes32 blockchainID);
}
contract Sender {
  IWarpMessenger constant WARP = IWarpMessenger(0x0200000000000000000000000000000000000005);
  function send(bytes calldata payload) external returns (bytes32) { return WARP.sendWarpMessage(payload); }
}
contract Receiver {
  IWarpMessenger constant WARP = IWarpMessenger(0x0200000000000000000000000000000000000005);
  bytes32 public lastSource; address public lastSender; bytes public lastPayload; uint256 public received;
  function receiveMessage(uint32 index) external {
    (WarpMessage memory m, bool valid) = WARP.getVerifiedWarpMessage(index);
    require(valid, "invalid warp message");
    lastSource = m.sourceChainID; lastSender = m.originSenderAddress; lastPayload = m.payload; received++;
  }
  function peek(uint32 index) external view returns (bool valid, bytes memory payload) {
    (WarpMessage memory m, bool v) = WARP.getVerifiedWarpMessage(index);
    return (v, m.payload);
  }
}`;

/** Parses a signed message and verifies it with noble against the subnet's set at the P-chain tip. */
async function verifyWithNoble(net: Devnet, subnetID: string, unsigned: Uint8Array, signedHex: string) {
  const signed = Buffer.from(signedHex.replace(/^0x/, ''), 'hex');
  assert.deepEqual(signed.subarray(0, unsigned.length), Buffer.from(unsigned));
  let at = unsigned.length;
  assert.equal(signed.readUInt32BE(at), 0);
  at += 4;
  const bitsetLength = signed.readUInt32BE(at);
  at += 4;
  const bitset = signed.subarray(at, at + bitsetLength);
  const signature = signed.subarray(at + bitsetLength);
  assert.equal(signature.length, 96);
  const { height } = await call(`${net.url}/ext/bc/P`, 'platform.getHeight');
  const { validators } = await call(`${net.url}/ext/bc/P`, 'platform.getValidatorsAt', { height, subnetID });
  const entries = Object.values(validators as Record<string, { publicKey: string; weight: string }>).map(
    (v) => {
      const point = bls12_381.G1.Point.fromHex(v.publicKey.slice(2));
      return { point, sortKey: Buffer.from(point.toBytes(false)), weight: BigInt(v.weight) };
    },
  );
  entries.sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  const total = entries.reduce((s, e) => s + e.weight, 0n);
  const bits = BigInt('0x' + (bitset.length ? bitset.toString('hex') : '0'));
  const signers = entries.map((_, i) => i).filter((i) => (bits >> BigInt(i)) & 1n);
  const key = signers.map((i) => entries[i].point).reduce((a, b) => a.add(b));
  assert.ok(
    bls12_381.longSignatures.verify(
      bls12_381.longSignatures.Signature.fromBytes(signature),
      bls12_381.longSignatures.hash(unsigned, SIG_DST),
      key,
    ),
    'aggregate signature verifies with @noble/curves',
  );
  const signedWeight = signers.reduce((s, i) => s + entries[i].weight, 0n);
  assert.ok(signedWeight * 100n >= total * 67n, 'quorum');
  return { signers, signedWeight, total };
}

describe('Warp from the C-chain to an L1', () => {
  let net: Devnet;
  let subnetId: string;
  let l1Id: string;
  let l1: ReturnType<typeof evmClients>;
  let cc: ReturnType<typeof evmClients>;
  let nodes: { nodeID: string; publicKey: string; pop: string }[];
  const ewoq = privateKeyToAccount(EWOQ_EVM_KEY);
  const artifacts = compile(CONTRACTS);
  let sender: Hex;
  let receiver: Hex;
  let unsigned: Uint8Array;
  let messageID: Hex;
  let signedMessage: string;

  before(async () => {
    net = await startDevnet({ args: ['--network', 'fuji'] });
    const genesis = {
      config: {
        chainId: L1_CHAIN_ID,
        feeConfig: { gasLimit: 15_000_000 },
        warpConfig: { blockTimestamp: 0 },
      },
      alloc: { [EWOQ_EVM]: { balance: '0x' + (1000n * ETHER).toString(16) } },
      gasLimit: '0xe4e1c0',
      timestamp: '0x0',
    };
    const created = await createSubnetEvmChain(net.url, genesis, 'warp l1');
    subnetId = created.subnetId;
    l1Id = created.chainId;
    nodes = await convertToGenesisL1(net.url, created);
    l1 = evmClients(`${net.url}/ext/bc/${l1Id}/rpc`, L1_CHAIN_ID, ewoq);
    cc = evmClients(net.facts.urls.cChainRpc, 43113, ewoq);
  });
  after(async () => {
    await net?.stop();
  });

  it('sends a message from a C-chain contract through the Warp precompile', async () => {
    const deployed = await cc.client.waitForTransactionReceipt({
      hash: await cc.wallet.deployContract({
        abi: artifacts.Sender.abi,
        bytecode: artifacts.Sender.bytecode,
        chain: cc.chain,
        account: ewoq,
      } as any),
    });
    sender = deployed.contractAddress!;
    const receipt = await cc.client.waitForTransactionReceipt({
      hash: await cc.wallet.writeContract({
        address: sender,
        abi: artifacts.Sender.abi,
        functionName: 'send',
        args: [toHex('hello L1')],
        chain: cc.chain,
        account: ewoq,
      } as any),
    });
    assert.equal(receipt.status, 'success');
    const warpAbi = artifacts.Sender.abi.length ? compileEventAbi() : [];
    const [event] = parseEventLogs({ abi: warpAbi, logs: receipt.logs });
    assert.equal(event.address.toLowerCase(), PRECOMPILES.warp);
    assert.equal((event.args as any).sourceAddress.toLowerCase(), sender.toLowerCase());
    unsigned = Buffer.from((event.args as any).message.slice(2), 'hex');
    messageID = (event.args as any).unsignedMessageID;
    // The unsigned message: fuji, the C-chain, an AddressedCall from the sender.
    const msg = Buffer.from(unsigned);
    assert.equal(msg.readUInt32BE(2), 5);
    assert.equal(utils.base58check.encode(msg.subarray(6, 38)), net.facts.chains.C.blockchainID);
    const payload = msg.subarray(42);
    assert.equal(payload.readUInt32BE(2), 1, 'AddressedCall');
    assert.equal('0x' + payload.subarray(10, 30).toString('hex'), sender.toLowerCase());
    assert.equal(payload.subarray(34).toString(), 'hello L1');
    const { body } = await rpc(net.facts.urls.cChainRpc, 'warp_getMessage', [
      utils.base58check.encode(Buffer.from(messageID.slice(2), 'hex')),
    ]);
    assert.equal(body.result, '0x' + msg.toString('hex'));
  });

  it('charges sendWarpMessage 41,500 plus 8 gas per byte of its whole ABI input, as the reference', async () => {
    const data = encodeFunctionData({
      abi: parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32)']),
      functionName: 'sendWarpMessage',
      args: [toHex('hello')],
    });
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.sendTransaction({
        to: PRECOMPILES.warp as Hex,
        data,
        chain: l1.chain,
        account: ewoq,
      }),
    });
    assert.equal(receipt.status, 'success');
    const bytes = Buffer.from(data.slice(2), 'hex');
    const calldataGas = [...bytes].reduce((sum, b) => sum + (b === 0 ? 4n : 16n), 0n);
    // The input after the selector: offset, length and the 5 bytes padded to a word (96 bytes).
    assert.equal(bytes.length - 4, 96);
    assert.equal(receipt.gasUsed, 21_000n + calldataGas + 41_500n + 8n * 96n);
  });

  it("reports the L1's Warp config as the reference marshals it", async () => {
    // Go writes the numerator as given (0 when unset, read as the default 67) and the bool always.
    const l1Rpc = `${net.url}/ext/bc/${l1Id}/rpc`;
    const expected = { blockTimestamp: 0, quorumNumerator: 0, requirePrimaryNetworkSigners: false };
    const { body: cfg } = await rpc(l1Rpc, 'eth_getChainConfig', []);
    assert.deepEqual(cfg.result.warpConfig, expected);
    const { body: active } = await rpc(l1Rpc, 'eth_getActivePrecompilesAt', []);
    assert.deepEqual(active.result.warpConfig, expected);
  });

  it('refuses a message whose AddressedCall exceeds the 24 KiB payload codec limit, as the reference', async () => {
    const send = (bytes: number) =>
      rpc(net.facts.urls.cChainRpc, 'eth_call', [
        {
          from: EWOQ_EVM,
          to: PRECOMPILES.warp,
          data: encodeFunctionData({
            abi: parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32)']),
            functionName: 'sendWarpMessage',
            args: [toHex(new Uint8Array(bytes).fill(1))],
          }),
        },
        'latest',
      ]);
    // The codec version, type id, 20-byte source address and two lengths take 34 of the 24,576.
    const fits = await send(24_576 - 34);
    assert.match(fits.body.result, /^0x[0-9a-f]{64}$/);
    const over = await send(24_576 - 33);
    assert.match(
      over.body.error.message,
      /couldn't marshal \*payload\.AddressedCall payload: packer has insufficient length for input/,
    );
  });

  it("aggregates the L1 validators' signatures through the data service", async () => {
    const res = await fetch(`${net.facts.urls.data}/v1/signatureAggregator/fuji/aggregateSignatures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: Buffer.from(unsigned).toString('hex'), signingSubnetId: subnetId }),
    });
    const body = (await res.json()) as any;
    assert.equal(res.status, 201, JSON.stringify(body));
    signedMessage = body.signedMessage;
    const check = await verifyWithNoble(net, subnetId, unsigned, signedMessage);
    assert.ok(check.signers.length >= 4);
  });

  it('delivers the signed message to an L1 contract as an access-list predicate', async () => {
    const deployed = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.deployContract({
        abi: artifacts.Receiver.abi,
        bytecode: artifacts.Receiver.bytecode,
        chain: l1.chain,
        account: ewoq,
      } as any),
    });
    receiver = deployed.contractAddress!;
    const accessList = [
      { address: PRECOMPILES.warp as Hex, storageKeys: packPredicate(Buffer.from(signedMessage, 'hex')) },
    ];
    const peek = (await l1.client.readContract({
      address: receiver,
      abi: artifacts.Receiver.abi,
      functionName: 'peek',
      args: [0],
      accessList,
    } as any)) as [boolean, Hex];
    assert.deepEqual(peek, [true, toHex('hello L1')]);
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({
        address: receiver,
        abi: artifacts.Receiver.abi,
        functionName: 'receiveMessage',
        args: [0],
        accessList,
        chain: l1.chain,
        account: ewoq,
      } as any),
    });
    assert.equal(receipt.status, 'success');
    const read = (functionName: string) =>
      l1.client.readContract({ address: receiver, abi: artifacts.Receiver.abi, functionName } as any);
    assert.equal(await read('received'), 1n);
    assert.equal(((await read('lastSender')) as string).toLowerCase(), sender.toLowerCase());
    assert.equal(await read('lastPayload'), toHex('hello L1'));
    assert.equal(
      await read('lastSource'),
      '0x' + Buffer.from(utils.base58check.decode(net.facts.chains.C.blockchainID)).toString('hex'),
    );
  });

  it('charges the predicate its reference intrinsic gas instead of the access-list cost', async () => {
    const bytes = Buffer.from(signedMessage, 'hex');
    const keys = packPredicate(bytes);
    const unsignedLength = 42 + bytes.readUInt32BE(38);
    const signersLength = bytes.readUInt32BE(unsignedLength + 4);
    let signers = 0;
    for (const b of bytes.subarray(unsignedLength + 8, unsignedLength + 8 + signersLength))
      for (let bit = 0; bit < 8; bit++) signers += (b >> bit) & 1;
    // A plain transfer runs no code: its gas is exactly the intrinsic gas.
    const expected = 21_000n + 200_000n + 100n * BigInt(keys.length * 32) + 500n * BigInt(signers);
    const accessList = [{ address: PRECOMPILES.warp as Hex, storageKeys: keys }];
    const estimate = await l1.client.estimateGas({ account: ewoq, to: ewoq.address, value: 1n, accessList });
    // geth's estimator stops within 1.5% above the least gas that succeeds.
    assert.ok(estimate >= expected && estimate * 1000n <= expected * 1015n, `estimate ${estimate}`);
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.sendTransaction({
        to: ewoq.address,
        value: 1n,
        accessList,
        chain: l1.chain,
        account: ewoq,
      } as any),
    });
    assert.equal(receipt.gasUsed, expected);
    // Below the predicate gas the node refuses the transaction outright.
    await assert.rejects(
      l1.wallet.sendTransaction({
        to: ewoq.address,
        value: 1n,
        accessList,
        gas: expected - 1n,
        chain: l1.chain,
        account: ewoq,
      } as any),
      /intrinsic gas too low/,
    );
    // A predicate that does not parse makes the transaction invalid.
    const garbage = [
      { address: PRECOMPILES.warp as Hex, storageKeys: packPredicate(Buffer.from('not a message')) },
    ];
    await assert.rejects(
      l1.wallet.sendTransaction({
        to: ewoq.address,
        value: 1n,
        accessList: garbage,
        gas: 500_000n,
        chain: l1.chain,
        account: ewoq,
      } as any),
      /invalid predicate/,
    );
  });

  it('refuses a tampered or missing predicate before the contract runs', async () => {
    const tampered = Buffer.from(signedMessage, 'hex');
    tampered[tampered.length - 50] ^= 0x01; // inside the aggregate signature
    const badList = [{ address: PRECOMPILES.warp as Hex, storageKeys: packPredicate(tampered) }];
    const peek = (await l1.client.readContract({
      address: receiver,
      abi: artifacts.Receiver.abi,
      functionName: 'peek',
      args: [0],
      accessList: badList,
    } as any)) as [boolean, Hex];
    assert.equal(peek[0], false);
    const none = (await l1.client.readContract({
      address: receiver,
      abi: artifacts.Receiver.abi,
      functionName: 'peek',
      args: [0],
    } as any)) as [boolean, Hex];
    assert.equal(none[0], false);
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({
        address: receiver,
        abi: artifacts.Receiver.abi,
        functionName: 'receiveMessage',
        args: [0],
        accessList: badList,
        gas: 300_000n,
        chain: l1.chain,
        account: ewoq,
      } as any),
    });
    assert.equal(receipt.status, 'reverted');
    assert.equal(
      await l1.client.readContract({
        address: receiver,
        abi: artifacts.Receiver.abi,
        functionName: 'received',
      } as any),
      1n,
    );
  });

  it("serves warp_ signatures: the node's own, block hashes and aggregates", async () => {
    const id58 = utils.base58check.encode(Buffer.from(messageID.slice(2), 'hex'));
    const own = await rpc(net.facts.urls.cChainRpc, 'warp_getMessageSignature', [id58]);
    const self = await call(`${net.url}/ext/info`, 'info.getNodeID');
    const pk = bls12_381.G1.Point.fromHex(self.nodePOP.publicKey.replace(/^0x/, ''));
    assert.ok(
      bls12_381.longSignatures.verify(
        bls12_381.longSignatures.Signature.fromBytes(Buffer.from(own.body.result.slice(2), 'hex')),
        bls12_381.longSignatures.hash(unsigned, SIG_DST),
        pk,
      ),
    );
    const agg = await rpc(net.facts.urls.cChainRpc, 'warp_getMessageAggregateSignature', [
      id58,
      67,
      subnetId,
    ]);
    await verifyWithNoble(net, subnetId, unsigned, agg.body.result);
    const l1Rpc = `${net.url}/ext/bc/${l1Id}/rpc`;
    const head = await l1.client.getBlock();
    const blockId = utils.base58check.encode(Buffer.from(head.hash.slice(2), 'hex'));
    const blockAgg = await rpc(l1Rpc, 'warp_getBlockAggregateSignature', [blockId, 67]);
    const blockMsg = Buffer.alloc(42 + 38);
    blockMsg.writeUInt32BE(5, 2);
    Buffer.from(utils.base58check.decode(l1Id)).copy(blockMsg, 6);
    blockMsg.writeUInt32BE(38, 38);
    Buffer.from(head.hash.slice(2), 'hex').copy(blockMsg, 48);
    await verifyWithNoble(net, subnetId, blockMsg, blockAgg.body.result);
    // Unknown ids, worded as subnet-evm's warp service words them.
    const missing = utils.base58check.encode(Buffer.alloc(32, 7));
    const error = async (url: string, method: string, params: unknown[]) =>
      (await rpc(url, method, params)).body.error;
    assert.deepEqual(await error(net.facts.urls.cChainRpc, 'warp_getMessageSignature', [missing]), {
      code: -32000,
      message: `failed to get message ${missing} with error not found`,
    });
    assert.deepEqual(await error(l1Rpc, 'warp_getMessage', [missing]), {
      code: -32000,
      message: `failed to get message ${missing} with error not found`,
    });
    assert.deepEqual(await error(l1Rpc, 'warp_getMessageAggregateSignature', [missing, 67, '']), {
      code: -32000,
      message: 'not found',
    });
    assert.deepEqual(await error(l1Rpc, 'warp_getBlockSignature', [missing]), {
      code: -32000,
      message: `failed to get signature for block ${missing} with error failed to validate block message: 2: failed to get block ${missing}: not found`,
    });
    assert.deepEqual(await error(l1Rpc, 'warp_getBlockAggregateSignature', [blockId, 67, 'nope']), {
      code: -32000,
      message: 'failed to parse subnetID: "nope"',
    });
    // eth_feeConfig reads its block as HeaderByNumberOrHash.
    assert.deepEqual(await error(l1Rpc, 'eth_feeConfig', [toHex(head.number + 5n)]), {
      code: -32000,
      message: 'cannot query unfinalized data',
    });
    assert.deepEqual(await error(l1Rpc, 'eth_feeConfig', [{ blockHash: toHex(Buffer.alloc(32, 7)) }]), {
      code: -32000,
      message: 'header for hash not found',
    });
    // Its *rpc.BlockNumberOrHash: a non-string fails as a Go string, a number past int64 is too high.
    assert.deepEqual(await error(l1Rpc, 'eth_feeConfig', [1]), {
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal number into Go value of type string',
    });
    assert.deepEqual(await error(l1Rpc, 'eth_feeConfig', ['0x8000000000000000']), {
      code: -32602,
      message: 'invalid argument 0: blocknumber too high',
    });
    // A chain without upgrades shows an empty upgrade config, as Go's omitempty writes it.
    assert.deepEqual((await rpc(l1Rpc, 'eth_getChainConfig', [])).body.result.upgrades, {});
    const atHead = await rpc(l1Rpc, 'eth_feeConfig', [{ blockHash: head.hash }]);
    assert.equal(atHead.body.result.feeConfig.gasLimit, 15_000_000);
    // A validator refuses a message that no contract sent.
    const forged = Buffer.from(unsigned);
    forged[forged.length - 1] ^= 0x01;
    const refused = await rpc(`${net.url}/ext/acp118`, 'acp118.signatureRequest', {
      message: forged.toString('hex'),
      justification: '',
    });
    assert.match(refused.body.error.message, /refusing to sign/);
  });

  it('reads warp_ arguments as the reference decodes them and names a subnet without validators', async () => {
    const l1Rpc = `${net.url}/ext/bc/${l1Id}/rpc`;
    const id58 = utils.base58check.encode(Buffer.from(messageID.slice(2), 'hex'));
    const error = async (url: string, method: string, params: unknown[]) =>
      (await rpc(url, method, params)).body.error;
    const invalid = (message: string) => ({ code: -32602, message });
    // A subnet the P-chain has no validator set for: subnet-evm's words, not an internal one.
    const unknownSubnet = utils.base58check.encode(Buffer.alloc(32, 9));
    assert.deepEqual(
      await error(net.facts.urls.cChainRpc, 'warp_getMessageAggregateSignature', [id58, 67, unknownSubnet]),
      { code: -32000, message: `cannot retrieve validator set: ${unknownSubnet} source subnet not found` },
    );
    // The subnet argument is a Go string: another JSON type is refused, not ignored.
    assert.deepEqual(
      await error(net.facts.urls.cChainRpc, 'warp_getMessageAggregateSignature', [id58, 67, 5]),
      invalid('invalid argument 2: json: cannot unmarshal number into Go value of type string'),
    );
    // The quorum is a Go uint64.
    assert.deepEqual(
      await error(net.facts.urls.cChainRpc, 'warp_getMessageAggregateSignature', [id58, '67', '']),
      invalid('invalid argument 1: json: cannot unmarshal string into Go value of type uint64'),
    );
    assert.deepEqual(
      await error(net.facts.urls.cChainRpc, 'warp_getMessageAggregateSignature', [id58, -1, '']),
      invalid('invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint64'),
    );
    // ids.ID's UnmarshalJSON: cb58 with its checksum, 32 bytes, a JSON string; null is the empty id.
    const short = utils.base58check.encode(Buffer.alloc(20, 1));
    const mistyped = id58.slice(0, -1) + (id58.endsWith('2') ? '3' : '2');
    const idCases: [unknown, string][] = [
      ['0l', "couldn't decode ID to bytes: base58 decoding error: invalid base58 digit ('0')"],
      ['', "couldn't decode ID to bytes: base58 decoding error: zero length string"],
      ['2', "couldn't decode ID to bytes: input string is smaller than the checksum size"],
      [mistyped, "couldn't decode ID to bytes: invalid input checksum"],
      [short, 'invalid hash length: expected 32 bytes but got 20'],
      [12, 'first and last characters should be quotes'],
    ];
    for (const [id, words] of idCases)
      assert.deepEqual(await error(l1Rpc, 'warp_getMessage', [id]), invalid(`invalid argument 0: ${words}`));
    const empty = '11111111111111111111111111111111LpoYY';
    assert.deepEqual(await error(l1Rpc, 'warp_getMessage', [null]), {
      code: -32000,
      message: `failed to get message ${empty} with error not found`,
    });
    // The subnet is read before any validator is asked about an unknown block.
    const missingBlock = utils.base58check.encode(Buffer.alloc(32, 7));
    assert.deepEqual(await error(l1Rpc, 'warp_getBlockAggregateSignature', [missingBlock, 67, 'nope']), {
      code: -32000,
      message: 'failed to parse subnetID: "nope"',
    });
  });

  it("carries an L1 block hash and message to the C-chain, verified there and by blst against the L1's keys", async () => {
    const l1Rpc = `${net.url}/ext/bc/${l1Id}/rpc`;
    const sent = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.sendTransaction({
        to: PRECOMPILES.warp as Hex,
        data: encodeFunctionData({
          abi: WARP_READS_ABI,
          functionName: 'sendWarpMessage',
          args: [toHex('hello C')],
        }),
        chain: l1.chain,
        account: ewoq,
      }),
    });
    const [event] = parseEventLogs({ abi: compileEventAbi(), logs: sent.logs });
    const cb58 = (h: string) => utils.base58check.encode(Buffer.from(h.slice(2), 'hex'));
    const message = (
      await rpc(l1Rpc, 'warp_getMessageAggregateSignature', [cb58(event.args.unsignedMessageID), 67, ''])
    ).body.result as Hex;
    const block = (await rpc(l1Rpc, 'warp_getBlockAggregateSignature', [cb58(sent.blockHash), 67, ''])).body
      .result as Hex;
    // Both verify with @chainsafe/blst against the L1's canonical set (keys sorted uncompressed).
    const { height } = await call(`${net.url}/ext/bc/P`, 'platform.getHeight');
    const set = await call(`${net.url}/ext/bc/P`, 'platform.getValidatorsAt', { height, subnetID: subnetId });
    const keys = Object.values(set.validators as Record<string, { publicKey: string }>)
      .map((v) => blst.PublicKey.fromBytes(Buffer.from(v.publicKey.slice(2), 'hex'), true))
      .sort((a, b) => Buffer.compare(a.toBytes(false), b.toBytes(false)));
    for (const signed of [message, block]) {
      const bytes = Buffer.from(signed.slice(2), 'hex');
      const unsignedLength = 42 + bytes.readUInt32BE(38);
      const bitsLength = bytes.readUInt32BE(unsignedLength + 4);
      const bits = BigInt(
        '0x' + bytes.subarray(unsignedLength + 8, unsignedLength + 8 + bitsLength).toString('hex'),
      );
      const signers = keys.filter((_, i) => (bits >> BigInt(i)) & 1n);
      assert.ok(signers.length >= 4);
      const signature = blst.Signature.fromBytes(bytes.subarray(unsignedLength + 8 + bitsLength), true);
      assert.ok(blst.fastAggregateVerify(bytes.subarray(0, unsignedLength), signers, signature));
    }
    const read = (functionName: 'getVerifiedWarpMessage' | 'getVerifiedWarpBlockHash', signed?: Hex) =>
      cc.client.readContract({
        address: PRECOMPILES.warp as Hex,
        abi: WARP_READS_ABI,
        functionName,
        args: [0],
        ...(signed
          ? {
              accessList: [
                {
                  address: PRECOMPILES.warp as Hex,
                  storageKeys: packPredicate(Buffer.from(signed.slice(2), 'hex')),
                },
              ],
            }
          : {}),
      } as any) as Promise<[Record<string, string>, boolean]>;
    const l1Bytes32 = '0x' + Buffer.from(utils.base58check.decode(l1Id)).toString('hex');
    assert.deepEqual(await read('getVerifiedWarpBlockHash', block), [
      { sourceChainID: l1Bytes32, blockHash: sent.blockHash },
      true,
    ]);
    assert.deepEqual(await read('getVerifiedWarpMessage', message), [
      { sourceChainID: l1Bytes32, originSenderAddress: ewoq.address, payload: toHex('hello C') },
      true,
    ]);
    // No predicate: the zero values and valid=false, not a revert.
    assert.deepEqual(await read('getVerifiedWarpBlockHash'), [
      { sourceChainID: '0x' + '00'.repeat(32), blockHash: '0x' + '00'.repeat(32) },
      false,
    ]);
  });

  it('has the P-chain sign the L1 conversion only with the subnet as justification', async () => {
    const subnet = await call(`${net.url}/ext/bc/P`, 'platform.getSubnet', { subnetID: subnetId });
    const conversionID = Buffer.from(utils.base58check.decode(subnet.conversionID));
    // AddressedCall (empty source) carrying SubnetToL1ConversionMessage{conversionID}.
    const inner = Buffer.concat([Buffer.alloc(6), conversionID]);
    const payload = Buffer.alloc(14 + inner.length);
    payload.writeUInt32BE(1, 2);
    payload.writeUInt32BE(inner.length, 10);
    inner.copy(payload, 14);
    const msg = Buffer.alloc(42 + payload.length);
    msg.writeUInt32BE(5, 2);
    msg.writeUInt32BE(payload.length, 38);
    payload.copy(msg, 42);
    const aggregate = (justification?: string) =>
      fetch(`${net.facts.urls.data}/v1/signatureAggregator/fuji/aggregateSignatures`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: msg.toString('hex'),
          signingSubnetId: subnetId,
          ...(justification ? { justification } : {}),
        }),
      });
    const good = await aggregate(Buffer.from(utils.base58check.decode(subnetId)).toString('hex'));
    const body = (await good.json()) as any;
    assert.equal(good.status, 201, JSON.stringify(body));
    await verifyWithNoble(net, subnetId, msg, body.signedMessage);
    const direct = await rpc(`${net.url}/ext/acp118`, 'acp118.signatureRequest', {
      message: msg.toString('hex'),
      justification: Buffer.alloc(32, 9).toString('hex'),
    });
    assert.match(direct.body.error.message, /refusing to sign/);
    const noJustification = await rpc(`${net.url}/ext/acp118`, 'acp118.signatureRequest', {
      message: msg.toString('hex'),
      justification: '',
    });
    assert.match(noJustification.body.error.message, /refusing to sign/);

    // Delivered to the L1 (as a validator manager's completion step does), the P-chain's message
    // reads as sent from the P-chain (zero id) by the zero address: its AddressedCall has an empty
    // source, which the reference reads with common.BytesToAddress.
    const accessList = [
      {
        address: PRECOMPILES.warp as Hex,
        storageKeys: packPredicate(Buffer.from(body.signedMessage, 'hex')),
      },
    ];
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({
        address: receiver,
        abi: artifacts.Receiver.abi,
        functionName: 'receiveMessage',
        args: [0],
        accessList,
        chain: l1.chain,
        account: ewoq,
      } as any),
    });
    assert.equal(receipt.status, 'success');
    const read = (functionName: string) =>
      l1.client.readContract({ address: receiver, abi: artifacts.Receiver.abi, functionName } as any);
    assert.equal(await read('lastSource'), toHex(new Uint8Array(32)));
    assert.equal(await read('lastSender'), '0x0000000000000000000000000000000000000000');
    assert.equal(await read('lastPayload'), '0x' + inner.toString('hex'));
  });

  it('reads an invalid predicate for the base gas alone and refuses an index above MaxInt32', async () => {
    const data = (index: number) =>
      encodeFunctionData({ abi: WARP_ABI, functionName: 'getVerifiedWarpMessage', args: [index] });
    const gasUsed = async (bytes: Uint8Array) => {
      const receipt = await l1.client.waitForTransactionReceipt({
        hash: await l1.wallet.sendTransaction({
          to: PRECOMPILES.warp as Hex,
          data: data(0),
          gas: 1_000_000n,
          accessList: [{ address: PRECOMPILES.warp as Hex, storageKeys: packPredicate(bytes) }],
          chain: l1.chain,
          account: ewoq,
        }),
      });
      assert.equal(receipt.status, 'success');
      return receipt.gasUsed;
    };
    // A tampered signature: the predicate is present but fails, so reading it costs the base gas
    // alone; reading the valid one of the same size adds 3,200 per 32-byte key it packs into.
    const tampered = Buffer.from(signedMessage, 'hex');
    tampered[tampered.length - 1] ^= 0x01;
    const good = await gasUsed(Buffer.from(signedMessage, 'hex'));
    const bad = await gasUsed(tampered);
    assert.equal(good - bad, 3_200n * BigInt(packPredicate(tampered).length));
    const call = (index: number) =>
      rpc(`${net.url}/ext/bc/${l1Id}/rpc`, 'eth_call', [
        { to: PRECOMPILES.warp, data: data(index) },
        'latest',
      ]);
    assert.match((await call(2 ** 31)).body.error.message, /invalid index to specify warp message/);
    const below = await call(2 ** 31 - 1);
    assert.ok(below.body.result, JSON.stringify(below.body));
  });

  it("deploys a Nick's-method (keyless, pre-EIP-155) contract at one address on the C-chain and the L1", async () => {
    // The reference admits an unprotected tx over RPC when it follows Nick's pattern (nonce 0,
    // r = s), as TeleporterMessenger is deployed; this one is from subnet-evm's own tests.
    const raw =
      '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';
    const deployer = '0x3fab184622dc19b6109349b94811493bf2a45362';
    for (const side of [cc, l1]) {
      await side.client.waitForTransactionReceipt({
        hash: await side.wallet.sendTransaction({
          to: deployer,
          value: ETHER / 10n,
          chain: side.chain,
          account: ewoq,
        }),
      });
      const hash = await side.client.sendRawTransaction({ serializedTransaction: raw });
      const receipt = await side.client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, 'success');
      assert.equal(receipt.from.toLowerCase(), deployer);
      // The deterministic deployment proxy, at its address on every chain.
      assert.equal(receipt.contractAddress, '0x4e59b44847b379578588920ca78fbf26c0b4956c');
      assert.equal(
        getContractAddress({ from: deployer, nonce: 0n }),
        '0x4e59b44847b379578588920cA78FbF26c0B4956C',
      );
      assert.ok((await side.client.getCode({ address: receipt.contractAddress! }))!.length > 2);
    }
    // Other unprotected txs are still refused.
    const other = await ewoq.signTransaction({
      to: ewoq.address,
      nonce: 0,
      gas: 21_000n,
      gasPrice: 100n * 10n ** 9n,
    });
    const { body } = await rpc(`${net.url}/ext/bc/${l1Id}/rpc`, 'eth_sendRawTransaction', [other]);
    assert.equal(body.error.message, 'only replay-protected (EIP-155) transactions allowed over RPC');
  });

  it('lists the L1 validators with connection and uptime through the validators API', async () => {
    const url = `${net.url}/ext/bc/${l1Id}/validators`;
    await new Promise((r) => setTimeout(r, 2_100));
    const { validators } = await call(url, 'validators.getCurrentValidators', {});
    assert.equal(validators.length, 5);
    for (const v of validators) {
      assert.equal(typeof v.weight, 'number');
      assert.equal(v.weight, 100);
      assert.equal(v.isL1Validator, true);
      assert.equal(v.isActive, true);
      assert.equal(v.isConnected, true);
      assert.equal(typeof v.startTimestamp, 'number');
      assert.equal(typeof v.uptimeSeconds, 'number');
      assert.equal(typeof v.uptimePercentage, 'number');
      assert.ok(v.uptimePercentage > 0 && v.uptimePercentage <= 100);
      // A Go float32: the shortest decimal of a float32 (99.99999999999987 reads as 100).
      assert.equal(v.uptimePercentage, Number(Math.fround(v.uptimePercentage).toPrecision(8)));
      assert.match(v.validationID, /^[1-9A-HJ-NP-Za-km-z]+$/);
    }
    const offline = nodes[1].nodeID;
    await call(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', { nodeID: offline, fault: 'offline' });
    try {
      const before = (await call(url, 'validators.getCurrentValidators', { nodeIDs: [offline] })).validators;
      assert.equal(before.length, 1);
      assert.equal(before[0].isConnected, false);
      await new Promise((r) => setTimeout(r, 2_100));
      const later = (
        await call(url, 'validators.getCurrentValidators', { nodeIDs: [offline, nodes[0].nodeID] })
      ).validators;
      const down = later.find((v: any) => v.nodeID === offline);
      const up = later.find((v: any) => v.nodeID === nodes[0].nodeID);
      assert.ok(down.uptimePercentage < up.uptimePercentage, 'time offline lowers the uptime');
    } finally {
      await call(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', { nodeID: offline, fault: 'none' });
    }
    const bad = await rpc(url, 'validators.getCurrentValidators', { nodeIDs: ['nope'] });
    assert.equal(bad.body.error.code, -32000);
    assert.match(bad.body.error.message, /^couldn't unmarshal an argument.*invalid nodeID/);
  });

  it("has the L1's validators sign a ValidatorUptime message up to the uptime they saw", async () => {
    const url = `${net.url}/ext/bc/${l1Id}/validators`;
    const [v] = (await call(url, 'validators.getCurrentValidators', { nodeIDs: [nodes[0].nodeID] }))
      .validators;
    assert.ok(v.uptimeSeconds >= 2, `uptime ${v.uptimeSeconds}`);
    /** subnet-evm's off-chain ValidatorUptime in an AddressedCall with an empty source, from the L1. */
    const uptimeMessage = (validationID: string, seconds: bigint, source = Buffer.alloc(0)) => {
      const inner = Buffer.alloc(46);
      Buffer.from(utils.base58check.decode(validationID)).copy(inner, 6);
      inner.writeBigUInt64BE(seconds, 38);
      const call = Buffer.concat([Buffer.alloc(6), Buffer.alloc(4), source, Buffer.alloc(4), inner]);
      call.writeUInt32BE(1, 2);
      call.writeUInt32BE(source.length, 6);
      call.writeUInt32BE(inner.length, 10 + source.length);
      const msg = Buffer.alloc(42 + call.length);
      msg.writeUInt32BE(5, 2);
      Buffer.from(utils.base58check.decode(l1Id)).copy(msg, 6);
      msg.writeUInt32BE(call.length, 38);
      call.copy(msg, 42);
      return msg;
    };
    const aggregate = (msg: Buffer) =>
      fetch(`${net.facts.urls.data}/v1/signatureAggregator/fuji/aggregateSignatures`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: msg.toString('hex') }),
      });
    const proof = uptimeMessage(v.validationID, 2n);
    const good = await aggregate(proof);
    const body = (await good.json()) as any;
    assert.equal(good.status, 201, JSON.stringify(body));
    await verifyWithNoble(net, subnetId, proof, body.signedMessage);
    // More uptime than any validator saw, an unknown validation, or a source address: refused.
    const signatureRequest = async (msg: Buffer) =>
      (
        await rpc(`${net.url}/ext/acp118`, 'acp118.signatureRequest', {
          message: msg.toString('hex'),
          justification: '',
        })
      ).body.error?.message;
    assert.match(
      await signatureRequest(uptimeMessage(v.validationID, 10n ** 9n)),
      /current uptime \d+ is less than queried uptime 1000000000/,
    );
    assert.match(
      await signatureRequest(uptimeMessage(utils.base58check.encode(Buffer.alloc(32, 3)), 1n)),
      /failed to get uptime/,
    );
    assert.match(
      await signatureRequest(uptimeMessage(v.validationID, 1n, Buffer.alloc(20, 1))),
      /source address should be empty/,
    );
    assert.equal((await aggregate(uptimeMessage(v.validationID, 10n ** 9n))).status, 503);
  });
});

function compileEventAbi() {
  return [
    {
      type: 'event',
      name: 'SendWarpMessage',
      inputs: [
        { name: 'sourceAddress', type: 'address', indexed: true },
        { name: 'unsignedMessageID', type: 'bytes32', indexed: true },
        { name: 'message', type: 'bytes', indexed: false },
      ],
    },
  ] as const;
}

/**
 * ICM (Teleporter) messages in the chain-data API, end to end: a minimal messenger of our own
 * (same events, structs and message id as TeleporterMessenger; sends through the Warp precompile,
 * receives with getVerifiedWarpMessage) deployed at one address on the C-chain and on an L1 whose
 * validators are the devnet's. Messages go both ways; most are relayed for real (signatures from
 * the data platform's aggregator, the signed message carried as the delivery's predicate), one
 * stays pending. chainkit then reads them (zod-validated) and every field is checked against the
 * chains' own receipts; the lists are walked with page tokens, and bad input is a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { Glacier } from '@avalabs/glacier-sdk';
import { utils } from '@avalabs/avalanchejs';
import {
  decodeAbiParameters,
  encodeAbiParameters,
  getAddress,
  keccak256,
  parseEther,
  toHex,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileSolidity } from '../helpers/evm-contracts.js';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';
import { collectPages } from './data-helpers.js';
import {
  createSubnetEvmChain,
  EWOQ_EVM,
  EWOQ_EVM_KEY,
  evmClients,
  PRECOMPILES,
} from './subnet-evm-helpers.js';
import { convertToGenesisL1, packPredicate } from './warp-helpers.js';
import { startMetricsService } from '../../src/data/metrics/server.js';
import { call } from '../helpers/devnet.js';

const L1_CHAIN_ID = 77_031;
const C_CHAIN_ID = 43_112;

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }
interface IWarp {
  function sendWarpMessage(bytes calldata payload) external returns (bytes32);
  function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage memory, bool);
  function getBlockchainID() external view returns (bytes32);
}

/** Field for field the Teleporter structs, so the events have the same signatures. */
struct Receipt { uint256 receivedMessageNonce; address relayerRewardAddress; }
struct Envelope {
  uint256 messageNonce; address originSenderAddress; bytes32 destinationBlockchainID;
  address destinationAddress; uint256 requiredGasLimit; address[] allowedRelayerAddresses;
  Receipt[] receipts; bytes message;
}
struct Fee { address feeTokenAddress; uint256 amount; }

interface IInbox { function onIcm(bytes32 sourceChain, address sender, bytes calldata message) external; }

/** Sends envelopes over Warp and delivers the ones signed for this chain; no fees, no retries. */
contract MiniMessenger {
  IWarp constant WARP = IWarp(0x0200000000000000000000000000000000000005);
  event SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, Envelope message, Fee feeInfo);
  event ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, address indexed deliverer, address rewardRedeemer, Envelope message);
  event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);
  event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, Envelope message);
  event ReceiptReceived(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, address indexed relayerRewardAddress, Fee feeInfo);

  uint256 public sent;
  mapping(bytes32 => bool) public seen;
  mapping(bytes32 => Receipt[]) private owed;

  function idOf(bytes32 from, bytes32 to, uint256 n) public view returns (bytes32) {
    return keccak256(abi.encode(address(this), from, to, n));
  }

  function send(bytes32 to, address recipient, bytes calldata data) external returns (bytes32 id) {
    Envelope memory e;
    e.messageNonce = ++sent;
    e.originSenderAddress = msg.sender;
    e.destinationBlockchainID = to;
    e.destinationAddress = recipient;
    e.requiredGasLimit = 200000;
    e.allowedRelayerAddresses = new address[](0);
    e.receipts = owed[to];
    e.message = data;
    delete owed[to];
    id = idOf(WARP.getBlockchainID(), to, e.messageNonce);
    emit SendCrossChainMessage(id, to, e, Fee(address(0), 0));
    WARP.sendWarpMessage(abi.encode(e));
  }

  function deliver(uint32 index, address rewardTo) external {
    (WarpMessage memory w, bool ok) = WARP.getVerifiedWarpMessage(index);
    require(ok, "not verified");
    require(w.originSenderAddress == address(this), "other messenger");
    Envelope memory e = abi.decode(w.payload, (Envelope));
    bytes32 here = WARP.getBlockchainID();
    require(e.destinationBlockchainID == here, "other chain");
    bytes32 id = idOf(w.sourceChainID, here, e.messageNonce);
    require(!seen[id], "seen");
    seen[id] = true;
    for (uint256 i = 0; i < e.receipts.length; i++)
      emit ReceiptReceived(idOf(here, w.sourceChainID, e.receipts[i].receivedMessageNonce), w.sourceChainID, e.receipts[i].relayerRewardAddress, Fee(address(0), 0));
    owed[w.sourceChainID].push(Receipt(e.messageNonce, rewardTo));
    emit ReceiveCrossChainMessage(id, w.sourceChainID, msg.sender, rewardTo, e);
    if (e.message.length == 0) return;
    (bool done, ) = e.destinationAddress.call{gas: e.requiredGasLimit}(
      abi.encodeCall(IInbox.onIcm, (w.sourceChainID, e.originSenderAddress, e.message)));
    if (done) emit MessageExecuted(id, w.sourceChainID);
    else emit MessageExecutionFailed(id, w.sourceChainID, e);
  }
}

contract Inbox {
  uint256 public count;
  bytes public last;
  function onIcm(bytes32, address, bytes calldata message) external {
    require(keccak256(message) != keccak256("fail"), "refused");
    last = message;
    count++;
  }
}
`;

const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
const ewoq = privateKeyToAccount(EWOQ_EVM_KEY);
/** Deploys the messenger at its nonce 0 on both chains: one address, as the protocol expects. */
const deployer = privateKeyToAccount(keccak256(toHex('flurry icm deployer')));
const relayer = privateKeyToAccount(keccak256(toHex('flurry icm relayer')));
const REWARD_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const DROPBOX = getAddress('0x0000000000000000000000000000000000d0b0b0');

type Side = ReturnType<typeof evmClients> & { blockchainId: string; evmChainId: number; word: Hex };

interface Sent {
  name: string;
  from: Side;
  to: Side;
  recipient: Hex;
  data: Hex;
  nonce: bigint;
  id: string;
  receipt: TransactionReceipt;
  unsigned: Hex;
  delivery?: TransactionReceipt;
  receipts: { nonce: bigint; relayer: Hex }[];
  executed: boolean;
  receiptDelivered?: boolean;
}

describe('ICM messages in the chain-data API', () => {
  let stack: EvmDataStack;
  let subnetId: string;
  let c: Side;
  let l1: Side;
  let messenger: Hex;
  const inbox: Record<string, Hex> = {};
  const artifacts = compileSolidity('MiniMessenger.sol', SOURCE);
  const sent: Record<string, Sent> = {};
  /** A C-chain transaction without ICM events. */
  let funding: Hex;
  const at = () => ({ serverURL: stack.api.url });

  const word = (blockchainId: string): Hex => toHex(utils.base58check.decode(blockchainId));

  async function deploy(side: Side, name: string, account = ewoq): Promise<Hex> {
    const receipt = await side.client.waitForTransactionReceipt({
      hash: await side.wallet.deployContract({
        abi: artifacts[name].abi,
        bytecode: artifacts[name].bytecode,
        account,
        chain: side.chain,
      } as any),
    });
    assert.equal(receipt.status, 'success');
    return receipt.contractAddress!;
  }

  async function send(name: string, from: Side, to: Side, recipient: Hex, data: Hex): Promise<Sent> {
    const receipt = await from.client.waitForTransactionReceipt({
      hash: await from.wallet.writeContract({
        address: messenger,
        abi: artifacts.MiniMessenger.abi,
        functionName: 'send',
        args: [to.word, recipient, data],
        account: ewoq,
        chain: from.chain,
      } as any),
    });
    assert.equal(receipt.status, 'success');
    const warpLog = receipt.logs.find((l) => l.address.toLowerCase() === PRECOMPILES.warp)!;
    const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], warpLog.data);
    const nonce = (await from.client.readContract({
      address: messenger,
      abi: artifacts.MiniMessenger.abi,
      functionName: 'sent',
    } as any)) as bigint;
    // The message id as the protocol derives it: (messenger, source, destination, nonce).
    const id = keccak256(
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }],
        [messenger, from.word, to.word, nonce],
      ),
    ).slice(2);
    const s: Sent = {
      name,
      from,
      to,
      recipient,
      data,
      nonce,
      id,
      receipt,
      unsigned,
      receipts: [],
      executed: false,
    };
    sent[name] = s;
    return s;
  }

  /** Signatures from the data platform's aggregator; the delivery carries them as its predicate. */
  async function relay(s: Sent): Promise<void> {
    const res = await fetch(
      `${stack.devnet.facts.urls.data}/v1/signatureAggregator/local/aggregateSignatures`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: s.unsigned.slice(2), signingSubnetId: subnetId }),
      },
    );
    const body = (await res.json()) as any;
    assert.equal(res.status, 201, JSON.stringify(body));
    const accessList = [
      {
        address: PRECOMPILES.warp as Hex,
        storageKeys: packPredicate(Buffer.from(body.signedMessage, 'hex')),
      },
    ];
    s.delivery = await s.to.client.waitForTransactionReceipt({
      hash: await s.to.wallet.writeContract({
        address: messenger,
        abi: artifacts.MiniMessenger.abi,
        functionName: 'deliver',
        args: [0, REWARD_TO],
        accessList,
        gas: 1_500_000n,
        account: relayer,
        chain: s.to.chain,
      } as any),
    });
    assert.equal(s.delivery.status, 'success');
  }

  before(async () => {
    stack = await startEvmDataStack();
    const genesis = {
      config: {
        chainId: L1_CHAIN_ID,
        feeConfig: { gasLimit: 15_000_000 },
        warpConfig: { blockTimestamp: 0 },
      },
      alloc: { [EWOQ_EVM]: { balance: '0x' + parseEther('1000').toString(16) } },
      gasLimit: '0xe4e1c0',
      timestamp: '0x0',
    };
    const created = await createSubnetEvmChain(stack.devnet.url, genesis, 'icm l1');
    subnetId = created.subnetId;
    await convertToGenesisL1(stack.devnet.url, created);
    const cId = stack.devnet.facts.chains.C.blockchainID as string;
    c = {
      ...evmClients(stack.devnet.facts.urls.cChainRpc, C_CHAIN_ID, ewoq),
      blockchainId: cId,
      evmChainId: C_CHAIN_ID,
      word: word(cId),
    };
    l1 = {
      ...evmClients(`${stack.devnet.url}/ext/bc/${created.chainId}/rpc`, L1_CHAIN_ID, ewoq),
      blockchainId: created.chainId,
      evmChainId: L1_CHAIN_ID,
      word: word(created.chainId),
    };
    for (const side of [c, l1]) {
      for (const to of [deployer.address, relayer.address]) {
        const hash = await side.wallet.sendTransaction({
          to,
          value: parseEther('10'),
          account: ewoq,
          chain: side.chain,
        } as any);
        await side.client.waitForTransactionReceipt({ hash });
        if (side === c) funding = hash;
      }
      const address = await deploy(side, 'MiniMessenger', deployer);
      assert.ok(!messenger || messenger === address, 'the messenger has one address on both chains');
      messenger = address;
      inbox[side.blockchainId] = await deploy(side, 'Inbox');
    }
  });

  after(async () => {
    await stack?.stop();
  });

  it('sends messages both ways and relays all but one', async () => {
    // a: C → L1, executed. b: L1 → C, carries a's receipt. c: C → L1 without a payload (nothing
    // to execute), carries b's receipt. e: C → L1, refused by the inbox. d: L1 → C, carries c's and
    // e's receipts, pending.
    const a = await send('a', c, l1, inbox[l1.blockchainId], toHex('hello L1'));
    await relay(a);
    a.executed = true;
    const b = await send('b', l1, c, inbox[c.blockchainId], toHex('hello C'));
    b.receipts = [{ nonce: a.nonce, relayer: REWARD_TO }];
    await relay(b);
    b.executed = true;
    a.receiptDelivered = true;
    // c carries b's receipt (b was delivered on the C-chain since a was sent).
    const m = await send('c', c, l1, DROPBOX, '0x');
    m.receipts = [{ nonce: b.nonce, relayer: REWARD_TO }];
    await relay(m);
    b.receiptDelivered = true;
    const e = await send('e', c, l1, inbox[l1.blockchainId], toHex('fail'));
    await relay(e);
    const d = await send('d', l1, c, DROPBOX, toHex('still on its way'));
    d.receipts = [
      { nonce: m.nonce, relayer: REWARD_TO },
      { nonce: e.nonce, relayer: REWARD_TO },
    ];
    const count = await l1.client.readContract({
      address: inbox[l1.blockchainId],
      abi: artifacts.Inbox.abi,
      functionName: 'count',
    } as any);
    assert.equal(count, 1n, 'the L1 inbox ran a only (e was refused)');
  });

  /** The message as chainkit reads it, once the indexer has seen what the test expects. */
  async function read(s: Sent) {
    const want = s.delivery ? 'delivered' : 'pending';
    for (let i = 0; i < 400; i++) {
      const m = await sdk.data.icm.get({ messageId: s.id }, at()).catch(() => undefined);
      if (m && m.status === want && (!s.receiptDelivered || m.receiptDelivered)) return m;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`message ${s.name} was not indexed as ${want}`);
  }

  it('serves each message by id with its status, ends, receipts and transactions', async () => {
    for (const s of Object.values(sent)) {
      const m: any = await read(s);
      assert.equal(m.messageId, s.id);
      assert.equal(m.icmContractAddress, getAddress(messenger));
      assert.equal(m.sourceBlockchainId, s.from.blockchainId);
      assert.equal(m.destinationBlockchainId, s.to.blockchainId);
      assert.equal(m.sourceEvmChainId, String(s.from.evmChainId));
      assert.equal(m.destinationEvmChainId, String(s.to.evmChainId));
      assert.equal(m.messageNonce, String(s.nonce));
      assert.equal(m.from, getAddress(ewoq.address));
      assert.equal(m.to, getAddress(s.recipient));
      assert.equal(m.data, s.data);
      assert.equal(m.messageExecuted, s.executed, `${s.name} executed`);
      assert.equal(m.receiptDelivered, s.receiptDelivered ?? false, `${s.name} receipt`);
      assert.deepEqual(
        m.receipts,
        s.receipts.map((r) => ({ receivedMessageNonce: String(r.nonce), relayerRewardAddress: r.relayer })),
      );
      assert.deepEqual(m.rewardDetails, {
        address: '0x0000000000000000000000000000000000000000',
        name: '',
        symbol: '',
        decimals: 0,
        ercType: 'ERC-20',
        value: '0',
      });
      const sourceBlock = await s.from.client.getBlock({ blockNumber: s.receipt.blockNumber });
      assert.deepEqual(m.sourceTransaction, {
        txHash: s.receipt.transactionHash,
        timestamp: Number(sourceBlock.timestamp),
        gasSpent: String(s.receipt.gasUsed),
      });
      if (!s.delivery) {
        assert.equal(m.destinationTransaction, undefined);
        continue;
      }
      const block = await s.to.client.getBlock({ blockNumber: s.delivery.blockNumber });
      assert.deepEqual(m.destinationTransaction, {
        txHash: s.delivery.transactionHash,
        timestamp: Number(block.timestamp),
        gasSpent: String(s.delivery.gasUsed),
        rewardRedeemer: REWARD_TO,
        delivererAddress: getAddress(relayer.address),
      });
    }
    // With 0x, too.
    assert.equal((await sdk.data.icm.get({ messageId: '0x' + sent.a.id }, at())).messageId, sent.a.id);
  });

  it('lists every message once, newest first, page by page, with each filter', async () => {
    const ids = (names: string[]) => names.map((n) => sent[n].id).sort();
    const walk = async (request: Record<string, unknown>) => {
      const { items, pages } = await collectPages<any>(
        await sdk.data.icm.list({ pageSize: 2, ...request } as any, at()),
        'messages',
      );
      const seen = items.map((m) => m.messageId);
      assert.equal(new Set(seen).size, seen.length, 'each message once');
      const times = items.map((m) => m.sourceTransaction.timestamp);
      assert.deepEqual(
        times,
        [...times].sort((x, y) => y - x),
        'newest first',
      );
      return { ids: [...seen].sort(), pages };
    };
    const all = await walk({});
    assert.deepEqual(all.ids, ids(['a', 'b', 'c', 'd', 'e']));
    assert.equal(all.pages, 3);
    assert.deepEqual((await walk({ sourceBlockchainId: c.blockchainId })).ids, ids(['a', 'c', 'e']));
    assert.deepEqual((await walk({ destinationBlockchainId: String(C_CHAIN_ID) })).ids, ids(['b', 'd']));
    assert.deepEqual((await walk({ blockchainId: l1.blockchainId })).ids, ids(['a', 'b', 'c', 'd', 'e']));
    assert.deepEqual((await walk({ to: DROPBOX })).ids, ids(['c', 'd']));
    // ewoq deployed both inboxes at the same nonce: one address on both chains.
    assert.equal(inbox[c.blockchainId], inbox[l1.blockchainId]);
    assert.deepEqual(
      (await walk({ from: ewoq.address, to: inbox[c.blockchainId] })).ids,
      ids(['a', 'b', 'e']),
    );
    assert.deepEqual(
      (await walk({ to: inbox[c.blockchainId], destinationBlockchainId: l1.blockchainId })).ids,
      ids(['a', 'e']),
    );
    assert.deepEqual(
      (await walk({ sourceBlockchainId: l1.blockchainId, destinationBlockchainId: c.blockchainId })).ids,
      ids(['b', 'd']),
    );
    assert.deepEqual((await walk({ network: 'fuji' })).ids, ids(['a', 'b', 'c', 'd', 'e']));
    assert.deepEqual((await walk({ network: 'mainnet' })).ids, []);

    // chainkit reads this list one page at a time (no page iterator): follow nextPageToken.
    const byAddress = async (address: string, pageSize: number) => {
      const items: any[] = [];
      let pages = 0;
      let pageToken: string | undefined;
      do {
        const page = await sdk.data.icm.listByAddress({ address, pageSize, pageToken }, at());
        items.push(...page.messages);
        pages++;
        pageToken = page.nextPageToken;
      } while (pageToken);
      return { ids: items.map((m) => m.messageId).sort(), pages };
    };
    assert.deepEqual(await byAddress(inbox[l1.blockchainId], 1), { ids: ids(['a', 'b', 'e']), pages: 3 });
    assert.deepEqual(await byAddress(ewoq.address, 100), { ids: ids(['a', 'b', 'c', 'd', 'e']), pages: 1 });
    assert.deepEqual(await byAddress(DROPBOX, 100), { ids: ids(['c', 'd']), pages: 1 });
  });

  it('names the message in the detail of the transactions that sent and delivered it', async () => {
    const detail = (side: Side, txHash: Hex) =>
      sdk.data.evm.transactions.get({ chainId: String(side.evmChainId), txHash }, at());
    const a = sent.a;
    assert.deepEqual((await detail(c, a.receipt.transactionHash)).teleporterMessageInfo, {
      teleporterMessageId: a.id,
      direction: 'SOURCE_TRANSACTION',
      destinationChainId: l1.blockchainId,
    });
    assert.deepEqual((await detail(l1, a.delivery!.transactionHash)).teleporterMessageInfo, {
      teleporterMessageId: a.id,
      direction: 'DESTINATION_TRANSACTION',
      sourceChainId: c.blockchainId,
    });
    assert.equal(
      (await detail(c, sent.b.delivery!.transactionHash)).teleporterMessageInfo?.direction,
      'DESTINATION_TRANSACTION',
    );
    assert.equal((await detail(c, funding)).teleporterMessageInfo, undefined);
  });

  it('/openapi.json names the three routes as the real document does', async () => {
    const doc = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as any;
    assert.equal(doc.paths['/v1/icm/messages/{messageId}'].get.operationId, 'getIcmMessage');
    assert.equal(doc.paths['/v1/icm/messages'].get.operationId, 'listIcmMessages');
    assert.equal(
      doc.paths['/v1/icm/addresses/{address}/messages'].get.operationId,
      'listIcmMessagesByAddress',
    );
  });

  it('serves the same at the deprecated /v1/teleporter paths chainkit and glacier-sdk still call', async () => {
    // chainkit data.teleporter.* (zod-validated against its Teleporter schemas) ...
    // The Teleporter schemas name the contract teleporterContractAddress; every status parses.
    for (const s of Object.values(sent)) {
      const { icmContractAddress, ...viaIcm } = (await sdk.data.icm.get({ messageId: s.id }, at())) as any;
      const { teleporterContractAddress, ...viaTeleporter } = (await sdk.data.teleporter.getTeleporterMessage(
        { messageId: s.id },
        at(),
      )) as any;
      assert.equal(teleporterContractAddress, getAddress(messenger));
      assert.equal(icmContractAddress, getAddress(messenger));
      assert.deepEqual(JSON.parse(JSON.stringify(viaTeleporter)), JSON.parse(JSON.stringify(viaIcm)));
    }
    const walked = await collectPages<any>(
      await sdk.data.teleporter.listTeleporterMessages(
        { pageSize: 2, sourceBlockchainId: c.blockchainId },
        at(),
      ),
      'messages',
    );
    assert.deepEqual(walked.items.map((m) => m.messageId).sort(), [sent.a.id, sent.c.id, sent.e.id].sort());
    const byAddress = await sdk.data.teleporter.listTeleporterMessagesByAddress(
      { address: DROPBOX, pageSize: 100 },
      at(),
    );
    assert.deepEqual(byAddress.messages.map((m: any) => m.messageId).sort(), [sent.c.id, sent.d.id].sort());
    // ... and glacier-sdk's TeleporterService.
    const glacier = new Glacier({ BASE: stack.api.url });
    const one = await glacier.teleporter.getTeleporterMessage({ messageId: sent.b.id });
    assert.equal((one as any).messageId, sent.b.id);
    const list = await glacier.teleporter.listTeleporterMessages({ pageSize: 100, network: 'fuji' as any });
    assert.equal(list.messages.length, Object.keys(sent).length);
    // A page token of one path continues the same list at the other.
    const first = await sdk.data.icm.listByAddress({ address: ewoq.address, pageSize: 2 }, at());
    const rest = await glacier.teleporter.listTeleporterMessagesByAddress({
      address: ewoq.address,
      pageSize: 100,
      pageToken: first.nextPageToken,
    });
    assert.equal(first.messages.length + rest.messages.length, Object.keys(sent).length);
    const doc = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as any;
    for (const [path, operationId] of [
      ['/v1/teleporter/messages/{messageId}', 'getTeleporterMessage'],
      ['/v1/teleporter/messages', 'listTeleporterMessages'],
      ['/v1/teleporter/addresses/{address}/messages', 'listTeleporterMessagesByAddress'],
    ]) {
      assert.equal(doc.paths[path].get.operationId, operationId);
      assert.equal(doc.paths[path].get.deprecated, true);
    }
    const bad = await fetch(`${stack.api.url}/v1/teleporter/messages/xyz`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as any).statusCode, 400);
  });

  it('answers bad input with 400 and an unknown message with 404', async () => {
    const first = await (await fetch(`${stack.api.url}/v1/icm/messages?pageSize=1`)).json();
    const token = (first as any).nextPageToken as string;
    const cases: [string, number][] = [
      ['/v1/icm/messages/xyz', 400],
      [`/v1/icm/messages/${'ab'.repeat(31)}`, 400],
      [`/v1/icm/messages/${'0'.repeat(64)}`, 404],
      ['/v1/icm/addresses/0x1234/messages', 400],
      ['/v1/icm/addresses/not-an-address/messages', 400],
      ['/v1/icm/messages?sourceBlockchainId=notAnId', 400],
      ['/v1/icm/messages?destinationBlockchainId=2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByN', 400],
      ['/v1/icm/messages?blockchainId=0x12', 400],
      ['/v1/icm/messages?from=0x12', 400],
      ['/v1/icm/messages?to=abc', 400],
      ['/v1/icm/messages?pageSize=0', 400],
      ['/v1/icm/messages?pageSize=101', 400],
      ['/v1/icm/messages?pageToken=garbage', 400],
      [`/v1/icm/messages?pageToken=${token}&from=${ewoq.address}`, 400],
      [`/v1/icm/addresses/${ewoq.address}/messages?pageToken=${token}`, 400],
      ['/v1/icm/messages?network=devnet', 400],
      [`/v1/icm/addresses/${ewoq.address}/messages?network=moon`, 400],
      ['/v1/icm/messages?sourceBlockchainId=999999', 404],
    ];
    for (const [path, status] of cases) {
      const res = await fetch(`${stack.api.url}${path}`);
      const body = (await res.json()) as any;
      assert.equal(res.status, status, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.statusCode, status);
      assert.equal(typeof body.message, 'string');
      assert.equal(typeof body.error, 'string');
    }
  });

  it('counts the messages in the metrics service: ICM time series and summary through chainkit', async () => {
    // A day later, one more message from the C-chain (pending), so the series spans days.
    await call(`${stack.devnet.url}/ext/bc/P`, 'platform.advanceTime', { seconds: 86_400 });
    await send('f', c, l1, DROPBOX, toHex('a day later'));
    await read(sent.f);
    const metrics = await startMetricsService({ db: stack.database.db, host: '127.0.0.1', port: 0 });
    try {
      const opts = { serverURL: metrics.url };
      // What the chains say: each message at its send's block time.
      const msgs = await Promise.all(
        Object.values(sent).map(async (s) => ({
          src: s.from.blockchainId,
          dst: s.to.blockchainId,
          ts: Number((await s.from.client.getBlock({ blockNumber: s.receipt.blockNumber })).timestamp),
        })),
      );
      const HOUR = 3600;
      const DAY = 86_400;
      const expected = (
        span: number,
        keep: (m: (typeof msgs)[number]) => boolean,
        pair: (m: any) => string,
      ) => {
        const out = new Map<string, number>();
        for (const m of msgs.filter(keep)) {
          const k = `${m.ts - (m.ts % span)}|${pair(m)}`;
          out.set(k, (out.get(k) ?? 0) + 1);
        }
        return out;
      };
      /** Every entry of a series, following nextPageToken (chainkit has no iterator for it). */
      const walk = async (request: Record<string, unknown>) => {
        const items: {
          timestamp: number;
          value: number;
          srcBlockchainId: string;
          destBlockchainId: string;
        }[] = [];
        let pages = 0;
        let pageToken: string | undefined;
        do {
          const page = await sdk.metrics.chains.getICMTimeseries({ ...request, pageToken } as any, opts);
          items.push(...page.results);
          pages++;
          pageToken = page.nextPageToken;
        } while (pageToken);
        return { items, pages };
      };
      const hours = msgs.map((m) => m.ts - (m.ts % HOUR));
      const firstHour = Math.min(...hours);
      const lastHour = Math.max(...hours);
      assert.ok(lastHour - firstHour >= 24 * HOUR, 'the devnet clock moved the chains a day on');

      // The whole network by pair, per hour, one entry a page: every hour from the first message's
      // to the last's, newest first, each pair in each hour, values as the chains say.
      const pairs = [`${c.blockchainId}|${l1.blockchainId}`, `${l1.blockchainId}|${c.blockchainId}`].sort();
      const byPair = await walk({
        network: 'fuji',
        groupBy: 'srcBlockchainId,destBlockchainId',
        timeInterval: 'hour',
        pageSize: 7,
      });
      const want = expected(
        HOUR,
        () => true,
        (m) => `${m.src}|${m.dst}`,
      );
      const wantEntries: string[] = [];
      for (let h = lastHour; h >= firstHour; h -= HOUR)
        for (const p of pairs) wantEntries.push(`${h}|${p}|${want.get(`${h}|${p}`) ?? 0}`);
      assert.deepEqual(
        byPair.items.map((i) => `${i.timestamp}|${i.srcBlockchainId}|${i.destBlockchainId}|${i.value}`),
        wantEntries,
      );
      assert.equal(byPair.pages, Math.ceil(wantEntries.length / 7));
      assert.equal(
        byPair.items.reduce((s, i) => s + i.value, 0),
        msgs.length,
      );

      // From the C-chain, all destinations together, per day (the default interval).
      const fromC = await walk({ srcBlockchainId: c.blockchainId, pageSize: 1 });
      const wantC = expected(
        DAY,
        (m) => m.src === c.blockchainId,
        () => '',
      );
      const days = [...new Set(msgs.map((m) => m.ts - (m.ts % DAY)))].sort((x, y) => y - x);
      const allDays: number[] = [];
      for (let d = days[0]; d >= days[days.length - 1]; d -= DAY) allDays.push(d);
      assert.deepEqual(
        fromC.items,
        allDays.map((d) => ({
          timestamp: d,
          value: wantC.get(`${d}|`) ?? 0,
          srcBlockchainId: c.blockchainId,
          destBlockchainId: 'all',
        })),
      );
      assert.equal(fromC.pages, allDays.length);

      // Into the C-chain, by source, a week at a time; a window of hours.
      const toC = await walk({
        destBlockchainId: c.blockchainId,
        groupBy: 'srcBlockchainId',
        timeInterval: 'week',
      });
      assert.deepEqual(
        toC.items.map((i) => [i.srcBlockchainId, i.destBlockchainId]),
        toC.items.map(() => [l1.blockchainId, c.blockchainId]),
      );
      assert.equal(
        toC.items.reduce((s, i) => s + i.value, 0),
        msgs.filter((m) => m.dst === c.blockchainId).length,
      );
      const window = await walk({
        network: 'testnet',
        timeInterval: 'hour',
        startTimestamp: lastHour - 2 * HOUR,
        endTimestamp: lastHour - 1,
      });
      assert.deepEqual(
        window.items.map((i) => [i.timestamp, i.value]),
        [lastHour - HOUR, lastHour - 2 * HOUR].map((t) => [t, hours.filter((h) => h === t).length]),
      );
      // A network without indexed chains has no messages.
      assert.deepEqual(await walk({ network: 'mainnet' }), { items: [], pages: 1 });

      // The summary: rolling windows of whole hours ending with the newest message's (the devnet
      // clock runs a day ahead of the wall clock), and all time.
      const summary = await sdk.metrics.chains.getICMSummary({ network: 'fuji' }, opts);
      const since = (h: number) => msgs.filter((m) => m.ts >= lastHour - (h - 1) * HOUR).length;
      assert.deepEqual(summary.result, {
        lastHour: since(1),
        lastDay: since(24),
        lastWeek: since(168),
        lastMonth: since(720),
        last90Days: since(2160),
        lastYear: since(8760),
        allTime: msgs.length,
        srcBlockchainId: 'all',
        destBlockchainId: 'all',
      });
      assert.equal(summary.result.lastHour, 1, 'f alone in the last hour');
      assert.equal(summary.result.lastWeek, 6);
      const fromL1 = await sdk.metrics.chains.getICMSummary(
        { srcBlockchainId: l1.blockchainId, destBlockchainId: c.blockchainId, groupBy: 'srcBlockchainId' },
        opts,
      );
      assert.equal(fromL1.result.allTime, 2, 'b and d');
      assert.equal(fromL1.result.srcBlockchainId, l1.blockchainId);
      assert.equal(fromL1.result.destBlockchainId, c.blockchainId);
      const none = await sdk.metrics.chains.getICMSummary({ network: 'mainnet' }, opts);
      assert.equal(none.result.allTime, 0);
      // Without a filter: every message this service indexes (it indexes one network).
      const unfiltered = await sdk.metrics.chains.getICMSummary({}, opts);
      assert.deepEqual(unfiltered.result, summary.result);
      assert.deepEqual(await walk({}), await walk({ network: 'fuji' }));

      // Bad input: 400 in the metrics error shape, through chainkit's error class too.
      const first = (await (
        await fetch(`${metrics.url}/v2/icm/timeseries?network=fuji&pageSize=1`)
      ).json()) as any;
      assert.ok(first.nextPageToken);
      for (const query of [
        'timeseries?srcBlockchainId=notAnId',
        'summary?destBlockchainId=0x12',
        'timeseries?network=devnet',
        'timeseries?network=fuji&groupBy=chain',
        'timeseries?network=fuji&timeInterval=year',
        'timeseries?network=fuji&pageSize=0',
        'timeseries?network=fuji&pageSize=2161',
        'timeseries?network=fuji&pageToken=forged',
        `timeseries?network=fuji&groupBy=srcBlockchainId&pageToken=${first.nextPageToken}`,
        'timeseries?network=fuji&startTimestamp=10&endTimestamp=5',
      ]) {
        const res = await fetch(`${metrics.url}/v2/icm/${query}`);
        const body = (await res.json()) as any;
        assert.equal(res.status, 400, `${query}: ${JSON.stringify(body)}`);
        assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'], query);
        assert.ok(Array.isArray(body.message), query);
      }
      await assert.rejects(
        sdk.metrics.chains.getICMTimeseries({ srcBlockchainId: 'notAnId' }, opts),
        (err: any) => err.constructor.name === 'BadRequestError' && err.statusCode === 400,
      );
      // Metered as the reference weighs them (small: 20 compute units).
      const res = await fetch(`${metrics.url}/v2/icm/summary?network=fuji`);
      const again = await fetch(`${metrics.url}/v2/icm/summary?network=fuji`);
      assert.equal(
        Number(res.headers.get('ratelimit-remaining')) - Number(again.headers.get('ratelimit-remaining')),
        20,
      );
    } finally {
      await metrics.close();
    }
  });

  it('reads every chain as one under the metrics chainId total and testnet (mainnet: none) through chainkit', async () => {
    const metrics = await startMetricsService({ db: stack.database.db, host: '127.0.0.1', port: 0 });
    try {
      const opts = { serverURL: metrics.url };
      const series = async (chainId: string, metric: string, timeInterval: string) => {
        const out = new Map<number, number>();
        for await (const page of await sdk.metrics.chains.getMetrics(
          { chainId, metric, timeInterval, pageSize: 7 } as any,
          opts,
        ))
          for (const r of page.result.results) out.set(r.timestamp, r.value);
        return out;
      };
      const rolling = async (chainId: string, metric: string) =>
        (await sdk.metrics.chains.getRollingWindowMetrics({ chainId, metric } as any, opts)).result as any;
      // The devnet's C-chain and L1, both test networks as /v2/chains names them.
      const { chains } = (await sdk.metrics.chains.list({}, opts)).result;
      const ids = chains.map((ch) => String(ch.evmChainId)).sort();
      assert.deepEqual(ids, [String(c.evmChainId), String(l1.evmChainId)].sort());
      assert.ok(chains.every((ch) => ch.network === 'testnet'));
      /** A chain's value at a bucket; a cumulative one carries its last total past its last bucket. */
      const valueAt = (s: Map<number, number>, t: number, cumulative: boolean) => {
        if (s.has(t) || !cumulative) return s.get(t) ?? 0;
        const before = [...s.keys()].filter((k) => k < t);
        return before.length ? s.get(Math.max(...before))! : 0;
      };
      for (const timeInterval of ['hour', 'day']) {
        // Counts and totals add up, bucket by bucket; maxima are the larger chain's.
        for (const metric of [
          'txCount',
          'gasUsed',
          'contracts',
          'cumulativeTxCount',
          'cumulativeContracts',
          'maxTps',
        ]) {
          const each: Map<number, number>[] = await Promise.all(
            ids.map((id) => series(id, metric, timeInterval)),
          );
          const total = await series('total', metric, timeInterval);
          const times = new Set(each.flatMap((e) => [...e.keys()]));
          assert.deepEqual(
            [...total.keys()].sort(),
            [...times].sort(),
            `${metric} ${timeInterval}: every bucket`,
          );
          const cumulative = metric.startsWith('cumulative');
          for (const t of times) {
            const values = each.map((e) => valueAt(e, t, cumulative));
            const want = metric === 'maxTps' ? Math.max(...values) : values.reduce((a, b) => a + b, 0);
            assert.equal(total.get(t), want, `${metric} ${timeInterval} at ${t}`);
          }
          assert.deepEqual(
            await series('testnet', metric, timeInterval),
            total,
            `${metric}: testnet = total`,
          );
          assert.deepEqual(
            await series('mainnet', metric, timeInterval),
            new Map(),
            `${metric}: no mainnet chain`,
          );
        }
        // Distinct counts: an address active on both chains (ewoq, who funded both) counts once.
        for (const metric of [
          'activeAddresses',
          'activeSenders',
          'deployers',
          'cumulativeAddresses',
          'cumulativeDeployers',
        ]) {
          const each: Map<number, number>[] = await Promise.all(
            ids.map((id) => series(id, metric, timeInterval)),
          );
          const total = await series('total', metric, timeInterval);
          let shared = false;
          for (const [t, v] of total) {
            const values = each.map((e) => valueAt(e, t, metric.startsWith('cumulative')));
            assert.ok(
              v >= Math.max(...values) && v <= values[0] + values[1],
              `${metric} ${timeInterval} at ${t}`,
            );
            if (v < values[0] + values[1]) shared = true;
          }
          if (metric !== 'deployers' && metric !== 'cumulativeDeployers')
            assert.ok(shared, `${metric} ${timeInterval}: ewoq counted once`);
        }
      }
      // Rolling windows end with the network's current hour (each chain's own windows end with its
      // newest bucket, and the devnet clock moved the C-chain a day ahead): all time adds up.
      for (const metric of ['txCount', 'gasUsed', 'contracts', 'maxTps']) {
        const each: any[] = await Promise.all(ids.map((id) => rolling(id, metric)));
        const total = await rolling('total', metric);
        const values = each.map((e) => e.allTime);
        assert.equal(
          total.allTime,
          metric === 'maxTps' ? Math.max(...values) : values[0] + values[1],
          metric,
        );
        for (const w of Object.keys(total)) assert.ok(total[w] <= values[0] + values[1], `${metric} ${w}`);
        assert.deepEqual(await rolling('testnet', metric), total);
        assert.ok(
          Object.values(await rolling('mainnet', metric)).every((v) => v === 0),
          `${metric}: mainnet`,
        );
      }
      const addresses = await Promise.all(ids.map((id) => rolling(id, 'activeAddresses')));
      const all = (await rolling('total', 'activeAddresses')).allTime;
      assert.ok(all >= Math.max(addresses[0].allTime, addresses[1].allTime));
      assert.ok(all < addresses[0].allTime + addresses[1].allTime, 'ewoq counted once');
    } finally {
      await metrics.close();
    }
  });
});

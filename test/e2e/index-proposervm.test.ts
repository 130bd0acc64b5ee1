/**
 * The node's block indexes hold proposervm blocks, as a real AvalancheGo node's do: through the
 * public index API, every X, P and C block container parses as an unsigned proposervm block around the block `getBlock` serves, chained to the previous
 * container, carrying the block's time, the P-chain height it was built at
 * (`proposervm.getProposedHeight` before it) and the epoch `proposervm.getCurrentEpoch` names; the
 * P-chain's commit after a proposal block is an option; and the container id (the proposervm
 * block id) is what `getContainerByID`, `getIndex` and `isAccepted` take. No index holds a genesis
 * block (as on the reference, none was accepted through consensus): position n is height n + 1,
 * and the first container's parent is the genesis block.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addTxSignatures, avm, Context, pvm, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { blsKey, EWOQ_ADDR, EWOQ_KEY, signAndIssue, testNodeId } from './pchain-helpers.js';
import { unwrapContainer, type UnwrappedContainer } from './proposer-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const AVAX = 1_000_000_000n;
const EPOCH_SECONDS = 300n;
const EWOQ_HEX = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
/** Banff P-chain block type ids (the inner block's u32 after the codec version). */
const PROPOSAL = 29;
const ABORT = 30;
const COMMIT = 31;

interface Epoch {
  pChainHeight: string;
  number: string;
  startTime: string;
}

describe('proposervm blocks in the X, P and C block indexes', () => {
  let net: Devnet;
  let url: string;
  let ctx: Context.Context;
  let pApi: pvm.PVMApi;
  const ewoqP = () => utils.format('P', 'fuji', EWOQ_ADDR);
  const ewoqX = () => utils.format('X', 'fuji', EWOQ_ADDR);
  /** Per chain, the P-chain height proposed and the epoch current right after each block built. */
  const built = { X: new Map<number, Built>(), C: new Map<number, Built>() };
  interface Built {
    proposedHeight: bigint;
    epoch: Epoch;
  }

  const proposedHeight = async (chain: string) =>
    BigInt((await call(`${url}/ext/bc/${chain}/proposervm`, 'proposervm.getProposedHeight')).height);
  const currentEpoch = (chain: string): Promise<Epoch> =>
    call(`${url}/ext/bc/${chain}/proposervm`, 'proposervm.getCurrentEpoch');
  const containers = async (chain: 'X' | 'P' | 'C') => {
    const path = `${url}/ext/index/${chain}/block`;
    const last = await call(path, 'index.getLastAccepted', { encoding: 'hex' });
    return (
      await call(path, 'index.getContainerRange', {
        startIndex: 0,
        numToFetch: Number(last.index) + 1,
        encoding: 'hex',
      })
    ).containers as { id: string; bytes: string; index: string; timestamp: string }[];
  };

  async function xBlock(): Promise<void> {
    const proposed = await proposedHeight('X');
    const xApi = new avm.AVMApi(url);
    const { utxos } = await xApi.getUTXOs({ addresses: [ewoqX()] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [EWOQ_ADDR]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
    for (let i = 0; i < 200; i++) {
      if ((await call(`${url}/ext/bc/X`, 'avm.getTxStatus', { txID })).status === 'Accepted') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const height = Number((await call(`${url}/ext/bc/X`, 'avm.getHeight')).height);
    built.X.set(height, { proposedHeight: proposed, epoch: await currentEpoch('X') });
  }

  let cNonce = 0;
  async function cBlock(): Promise<void> {
    const proposed = await proposedHeight('C');
    const account = privateKeyToAccount(EWOQ_HEX);
    const raw = await account.signTransaction({
      to: account.address,
      value: 1n,
      gas: 21000n,
      nonce: cNonce++,
      chainId: 43113,
      type: 'eip1559',
      maxFeePerGas: parseGwei('100'),
      maxPriorityFeePerGas: 1n,
    });
    const rpcUrl = `${url}/ext/bc/C/rpc`;
    const hash = await call(rpcUrl, 'eth_sendRawTransaction', [raw]);
    let receipt: any;
    for (let i = 0; i < 200 && !receipt; i++) {
      receipt = await call(rpcUrl, 'eth_getTransactionReceipt', [hash]);
      if (!receipt) await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(receipt, 'the C-chain tx is mined');
    built.C.set(Number(receipt.blockNumber), { proposedHeight: proposed, epoch: await currentEpoch('C') });
  }

  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--network', 'fuji', '--min-stake-duration', '60'] });
    url = net.url;
    ctx = await Context.getContextFromURI(url);
    pApi = new pvm.PVMApi(url);
    await xBlock();
    await cBlock();
    // A P-chain standard block, then a staker whose reward comes as a proposal and its commit.
    const now = BigInt(Date.parse((await pApi.getTimestamp()).timestamp) / 1000);
    const key = blsKey('index-proposervm');
    await signAndIssue(
      pApi,
      pvm.newAddPermissionlessValidatorTx(
        {
          feeState: await pApi.getFeeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: (await pApi.getUTXOs({ addresses: [ewoqP()] })).utxos,
          nodeId: testNodeId(77),
          subnetId: PRIMARY,
          start: now,
          end: now + 90n,
          weight: 2_000n * AVAX,
          rewardAddresses: [EWOQ_ADDR],
          delegatorRewardsOwner: [EWOQ_ADDR],
          shares: 20_000,
          publicKey: key.publicKey,
          signature: key.pop,
        },
        ctx,
      ),
    );
    await xBlock();
    await cBlock();
    // Past the staker's end and into later epochs: reward proposal + commit, then a time block.
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 3600 });
    await xBlock();
    await cBlock();
  });
  after(async () => {
    await net?.stop();
  });

  /** Checks the index API answers container `c` by its proposervm id, and not by the inner id. */
  async function byProposerId(
    chain: 'X' | 'P' | 'C',
    c: { id: string; bytes: string; index: string },
    innerId: string,
  ) {
    const path = `${url}/ext/index/${chain}/block`;
    const got = await call(path, 'index.getContainerByID', { id: c.id, encoding: 'hex' });
    assert.deepEqual([got.id, got.bytes, got.index], [c.id, c.bytes, c.index]);
    assert.equal((await call(path, 'index.getIndex', { id: c.id })).index, c.index);
    assert.deepEqual(await call(path, 'index.isAccepted', { id: c.id }), { isAccepted: true });
    assert.deepEqual(await call(path, 'index.isAccepted', { id: innerId }), { isAccepted: false });
  }

  /** The wrapper's epoch: a 5-minute window holding its time, as getCurrentEpoch named it then. */
  function checkEpoch(w: UnwrappedContainer, current: Epoch | undefined, first: Epoch) {
    assert.equal(w.type, 2, 'a Granite proposervm block');
    assert.equal(w.certificate?.length, 0, 'unsigned: no certificate');
    assert.equal(w.signature?.length, 0, 'unsigned: no signature');
    const e = w.epoch!;
    assert.ok(e.startTime <= BigInt(w.timestamp!) && BigInt(w.timestamp!) < e.startTime + EPOCH_SECONDS);
    const sinceFirst = e.startTime - BigInt(first.startTime);
    assert.equal(sinceFirst % EPOCH_SECONDS, 0n);
    assert.equal(e.number, BigInt(first.number) + sinceFirst / EPOCH_SECONDS);
    if (current && BigInt(current.number) === e.number)
      assert.deepEqual(
        { pChainHeight: e.pChainHeight, startTime: e.startTime },
        { pChainHeight: BigInt(current.pChainHeight), startTime: BigInt(current.startTime) },
      );
  }

  let pBlocks: { height: bigint; time: bigint }[] = [];
  /** The P-chain height before `time`: the last P block accepted with an earlier time. */
  const pHeightBefore = (time: bigint) =>
    pBlocks.filter((b) => b.time < time).reduce((h, b) => (b.height > h ? b.height : h), 0n);

  /** The genesis block's id: the parent of the first container (the genesis is not indexed). */
  async function genesisId(chain: 'X' | 'P'): Promise<string> {
    const method = chain === 'X' ? 'avm.getBlockByHeight' : 'platform.getBlockByHeight';
    const { block } = await call(`${url}/ext/bc/${chain}`, method, { height: 0, encoding: 'json' });
    const path = `${url}/ext/index/${chain}/block`;
    assert.deepEqual(await call(path, 'index.isAccepted', { id: block.id }), { isAccepted: false });
    return block.id;
  }

  it('wraps every P-chain block, the commit after a proposal as an option', async () => {
    const list = await containers('P');
    assert.ok(list.length >= 4, 'the validator, proposal, commit, time block');
    const genesis = await genesisId('P');
    const first = await currentEpoch('P');
    let options = 0;
    let previousType = -1;
    pBlocks = [];
    const wrapped: UnwrappedContainer[] = [];
    for (const c of list) {
      const w = unwrapContainer(c.bytes);
      wrapped.push(w);
      const { block } = await call(`${url}/ext/bc/P`, 'platform.getBlock', {
        blockID: w.innerId,
        encoding: 'json',
      });
      assert.equal(block.height, Number(c.index) + 1, 'the inner block is the P-chain block at that height');
      if (block.time !== undefined) pBlocks.push({ height: BigInt(block.height), time: BigInt(block.time) });
    }
    pBlocks.unshift({ height: 0n, time: 0n });
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      const w = wrapped[i];
      const height = i + 1;
      assert.equal(c.id, w.id, 'the container id is the proposervm block id');
      assert.equal(w.parentId, i === 0 ? genesis : list[i - 1].id, 'the parent is the previous container');
      const hex = await call(`${url}/ext/bc/P`, 'platform.getBlockByHeight', { height, encoding: 'hex' });
      assert.deepEqual(Buffer.from(w.inner), Buffer.from(hex.block.slice(2, -8), 'hex'));
      const type = Buffer.from(w.inner).readUInt32BE(2);
      if (type === COMMIT || type === ABORT) {
        assert.equal(previousType, PROPOSAL, 'an option follows a proposal block');
        assert.equal(w.type, 1, 'a proposervm option');
        options++;
      } else {
        const { block } = await call(`${url}/ext/bc/P`, 'platform.getBlock', {
          blockID: w.innerId,
          encoding: 'json',
        });
        assert.equal(BigInt(w.timestamp!), BigInt(block.time), 'the block time');
        assert.equal(w.pChainHeight, BigInt(height - 1), 'built on the P-chain tip before it');
        checkEpoch(w, undefined, first);
        assert.equal(w.epoch!.pChainHeight, pHeightBefore(w.epoch!.startTime));
      }
      previousType = type;
      await byProposerId('P', c, w.innerId);
    }
    assert.ok(options >= 1, 'the reward commit is an option');
    const epochs = new Set(wrapped.filter((w) => w.epoch).map((w) => w.epoch!.number));
    assert.ok(epochs.size >= 2, 'advanceTime moved the blocks into a later epoch');
  });

  it('wraps every X-chain block, at the P-chain height proposed when it was built', async () => {
    const list = await containers('X');
    assert.equal(list.length, 3, 'three blocks (the genesis is not indexed)');
    const genesis = await genesisId('X');
    const first = built.X.get(1)!.epoch;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      const height = i + 1;
      const w = unwrapContainer(c.bytes);
      assert.equal(c.id, w.id);
      assert.equal(w.parentId, i === 0 ? genesis : list[i - 1].id);
      const hex = await call(`${url}/ext/bc/X`, 'avm.getBlockByHeight', { height, encoding: 'hex' });
      assert.deepEqual(Buffer.from(w.inner), Buffer.from(hex.block.slice(2, -8), 'hex'));
      const { block } = await call(`${url}/ext/bc/X`, 'avm.getBlock', {
        blockID: w.innerId,
        encoding: 'json',
      });
      assert.equal(block.height, height);
      assert.equal(BigInt(w.timestamp!), BigInt(block.time));
      const b = built.X.get(height)!;
      assert.equal(w.pChainHeight, b.proposedHeight);
      checkEpoch(w, b.epoch, first);
      assert.equal(w.epoch!.pChainHeight, pHeightBefore(w.epoch!.startTime));
      await byProposerId('X', c, w.innerId);
    }
    assert.ok(built.X.get(3)!.proposedHeight > built.X.get(1)!.proposedHeight);
  });

  it('wraps every C-chain block, the first one on the genesis block', async () => {
    const list = await containers('C');
    assert.equal(list.length, 3);
    const rpcUrl = `${url}/ext/bc/C/rpc`;
    const genesis = await call(rpcUrl, 'eth_getBlockByNumber', ['0x0', false]);
    const first = built.C.get(1)!.epoch;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      const w = unwrapContainer(c.bytes);
      assert.equal(c.id, w.id);
      assert.equal(
        w.parentId,
        i === 0 ? utils.base58check.encode(utils.hexToBuffer(genesis.hash)) : list[i - 1].id,
      );
      const [header] = RLP.decode(w.inner) as any[];
      const number = Number(BigInt('0x' + Buffer.from(header[8]).toString('hex')));
      assert.equal(number, i + 1);
      const block = await call(rpcUrl, 'eth_getBlockByNumber', ['0x' + number.toString(16), false]);
      assert.equal(block.hash, '0x' + Buffer.from(keccak_256(RLP.encode(header))).toString('hex'));
      assert.equal(BigInt(w.timestamp!), BigInt(block.timestamp));
      const b = built.C.get(number)!;
      assert.equal(w.pChainHeight, b.proposedHeight);
      checkEpoch(w, b.epoch, first);
      assert.equal(w.epoch!.pChainHeight, pHeightBefore(w.epoch!.startTime));
      await byProposerId('C', c, utils.base58check.encode(utils.hexToBuffer(block.hash)));
    }
  });
});

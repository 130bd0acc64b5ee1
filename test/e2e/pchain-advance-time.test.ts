/**
 * The P-chain's visible time follows the devnet clock: after `platform.advanceTime` the node
 * accepts a block carrying the new time, so `platform.getTimestamp` answers it and a wallet
 * that computes a staking period from it (as avalanchejs callers do) is not refused. Checked
 * through avalanchejs, the index API and the data platform's indexer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context, pvm, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { blsKey, EWOQ_ADDR, signAndIssue, testNodeId } from './pchain-helpers.js';
import { innerHex, unwrapContainer } from './proposer-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const AVAX = 1_000_000_000n;
/** Banff standard block: codec version (2), type id (4), then the 8-byte time. */
const BANFF_STANDARD_TYPE = 32;

describe('P-chain time after platform.advanceTime', () => {
  let net: Devnet;
  let url: string;
  let data: string;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  const ewoqP = () => utils.format('P', 'fuji', EWOQ_ADDR);
  const seconds = (rfc3339: string) => BigInt(Date.parse(rfc3339) / 1000);
  const chainTime = async () => seconds((await api.getTimestamp()).timestamp);

  before(async () => {
    net = await startDevnet({ args: ['--network', 'fuji', '--min-stake-duration', '60'] });
    url = net.url;
    data = net.facts.urls.data;
    api = new pvm.PVMApi(url);
    ctx = await Context.getContextFromURI(url);
  });
  after(async () => {
    await net?.stop();
  });

  /** The index of the newest P block the data platform's indexer has written. */
  async function indexedThrough(index: number): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const health = (await (await fetch(`${data}/v1/health-check`)).json()) as any;
      if (health.details.indexer.checkpoints['P/block'] > index) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`the indexer did not pass P block index ${index}`);
  }

  let timeBlockIndex: number;
  it('accepts a block carrying the new time, seen by getTimestamp, getHeight, getBlock and the index', async () => {
    const height0 = BigInt((await api.getHeight()).height);
    const moved = await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 3600 });
    assert.equal((await api.getTimestamp()).timestamp, moved.timestamp);
    assert.equal(BigInt((await api.getHeight()).height), height0 + 1n);
    assert.equal(moved.height, String(height0 + 1n));

    const { block: hexBlock } = await call(`${url}/ext/bc/P`, 'platform.getBlockByHeight', {
      height: moved.height,
      encoding: 'hex',
    });
    // "hex" ends with a 4-byte checksum.
    const bytes = utils.hexToBuffer(hexBlock).slice(0, -4);
    const view = Buffer.from(bytes);
    assert.equal(view.readUInt32BE(2), BANFF_STANDARD_TYPE);
    assert.equal(view.readBigUInt64BE(6), seconds(moved.timestamp));
    assert.equal(view.readUInt32BE(view.length - 4), 0, 'no transactions');
    const id = utils.base58check.encode(sha256(bytes));

    const { block: jsonBlock } = await call(`${url}/ext/bc/P`, 'platform.getBlock', {
      blockID: id,
      encoding: 'json',
    });
    assert.equal(String(jsonBlock.height), moved.height);
    assert.equal(BigInt(jsonBlock.time), seconds(moved.timestamp));
    assert.deepEqual(jsonBlock.txs, []);

    const last = await call(`${url}/ext/index/P/block`, 'index.getLastAccepted', { encoding: 'hex' });
    // A proposervm block around the time block, named by its own id.
    const wrapped = unwrapContainer(last.bytes);
    assert.equal(last.id, wrapped.id);
    assert.equal(wrapped.innerId, id);
    assert.equal(innerHex(last), hexBlock);
    timeBlockIndex = Number(last.index);
    await indexedThrough(timeBlockIndex);
  });

  const nodeId = testNodeId(91);
  let validatorTx: string;
  it('accepts a staking period computed from getTimestamp plus a short duration', async () => {
    const now = await chainTime();
    const key = blsKey('advance-time');
    validatorTx = await signAndIssue(
      api,
      pvm.newAddPermissionlessValidatorTx(
        {
          feeState: await api.getFeeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: (await api.getUTXOs({ addresses: [ewoqP()] })).utxos,
          nodeId,
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
    assert.deepEqual(await api.getTxStatus({ txID: validatorTx }), { status: 'Committed' } as any);
    const { validators } = await api.getCurrentValidators({ nodeIDs: [nodeId] });
    assert.equal(validators.length, 1);
    assert.equal(BigInt(validators[0].endTime), now + 90n);
  });

  it('after the reward blocks of an ended period, the chain time is still the new clock time', async () => {
    const moved = await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 600 });
    assert.equal((await api.getTimestamp()).timestamp, moved.timestamp);
    assert.equal((await api.getCurrentValidators({ nodeIDs: [nodeId] })).validators.length, 0);
    assert.ok((await api.getRewardUTXOs({ txID: validatorTx })).utxos.length > 0);
    const last = await call(`${url}/ext/index/P/block`, 'index.getLastAccepted', { encoding: 'hex' });
    // proposal + commit for the reward, then the time block.
    assert.equal(Number(last.index), timeBlockIndex + 4);
    // Position n holds height n + 1: the genesis block is not indexed, as on the reference.
    assert.equal(BigInt(last.index) + 1n, BigInt(moved.height));
    await indexedThrough(Number(last.index));
    const res = await fetch(`${data}/v1/networks/fuji/validators/${nodeId}?validationStatus=completed`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as any;
    assert.deepEqual(
      body.validators.map((v: any) => v.txHash),
      [validatorTx],
    );
  });

  it('gives one block at the new time for each advance, even of a second', async () => {
    const before = await api.getHeight();
    const moved = await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 1 });
    assert.equal(BigInt(moved.height), BigInt(before.height) + 1n);
    assert.equal((await api.getTimestamp()).timestamp, moved.timestamp);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TOPIC_TRANSFER,
  TOPIC_TRANSFER_BATCH,
  TOPIC_TRANSFER_SINGLE,
  decodeStringReturn,
  checksumAddress,
} from '../../evm/abi.js';
import { decodeBatch, decodeBlock, type RawBlock, type RawReceipt } from './decode-block.js';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const T = '0x' + 'c'.repeat(40);
const F = '0x' + 'f'.repeat(40);
const topic = (addr: string) => '0x' + addr.slice(2).padStart(64, '0');
const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');

function block(txs: Partial<RawBlock['transactions'][number]>[]): RawBlock {
  return {
    number: '0x10',
    hash: '0x' + '1'.repeat(64),
    parentHash: '0x' + '0'.repeat(64),
    timestamp: '0x64',
    gasUsed: '0x5208',
    transactions: txs.map((t, i) => ({
      hash: '0x' + String(i + 2).repeat(64),
      from: A,
      to: B,
      value: '0x0',
      gas: '0x5208',
      nonce: '0x0',
      type: '0x2',
      input: '0x',
      transactionIndex: '0x' + i.toString(16),
      ...t,
    })),
  };
}

test('native transaction: one party row per distinct address, receipt fields and call type', () => {
  const b = block([{ value: '0x64' }, { from: A, to: A }]);
  const receipts: RawReceipt[] = b.transactions.map((t) => ({
    transactionHash: t.hash,
    transactionIndex: t.transactionIndex,
    status: '0x1',
    gasUsed: '0x5208',
    effectiveGasPrice: '0x3b9aca00',
    logs: [],
  }));
  const out = decodeBlock(43112, b, receipts, [null, null]);
  assert.equal(out.nativeTxs.length, 3, 'a self-transfer is listed once for its address');
  assert.deepEqual(
    {
      value: out.nativeTxs[0].value,
      gasPrice: out.nativeTxs[0].gas_price,
      type: out.nativeTxs[0].call_type,
      txType: out.nativeTxs[0].tx_type,
    },
    { value: '100', gasPrice: '1000000000', type: 'NATIVE_TRANSFER', txType: 2 },
  );
});

test('logs: ERC-20 (3 topics), ERC-721 (4 topics), ERC-1155 single and batch; failed transactions emit nothing', () => {
  const b = block([
    { to: T, input: '0xa9059cbb' },
    { to: T, input: '0xa9059cbb' },
  ]);
  const logs = [
    {
      address: T,
      topics: [TOPIC_TRANSFER, topic(A), topic(B)],
      data: '0x' + word(500),
      logIndex: '0x0',
      transactionHash: b.transactions[0].hash,
    },
    {
      address: F,
      topics: [TOPIC_TRANSFER, topic(A), topic(B), '0x' + word(7)],
      data: '0x',
      logIndex: '0x1',
      transactionHash: b.transactions[0].hash,
    },
    {
      address: T,
      topics: [TOPIC_TRANSFER_SINGLE, topic(A), topic(A), topic(B)],
      data: '0x' + word(9) + word(3),
      logIndex: '0x2',
      transactionHash: b.transactions[0].hash,
    },
    {
      address: T,
      topics: [TOPIC_TRANSFER_BATCH, topic(A), topic(A), topic(B)],
      data: '0x' + word(64) + word(160) + word(2) + word(1) + word(2) + word(2) + word(10) + word(20),
      logIndex: '0x3',
      transactionHash: b.transactions[0].hash,
    },
  ];
  const receipts: RawReceipt[] = [
    { transactionHash: b.transactions[0].hash, transactionIndex: '0x0', status: '0x1', gasUsed: '0x1', logs },
    { transactionHash: b.transactions[1].hash, transactionIndex: '0x1', status: '0x0', gasUsed: '0x1', logs },
  ];
  const out = decodeBlock(1, b, receipts, null);
  const kinds = out.tokenTransfers
    .filter((t) => t.address === B)
    .map((t) => [t.kind, t.value, t.token_id, t.sub_index]);
  assert.deepEqual(kinds, [
    ['erc20', '500', '', 0],
    ['erc721', '1', '7', 0],
    ['erc1155', '3', '9', 0],
    ['erc1155', '10', '1', 0],
    ['erc1155', '20', '2', 1],
  ]);
  assert.equal(out.tokens.get(F), 'ERC-721');
  assert.deepEqual(
    out.nfts.map((n) => [n.ercType, n.tokenId]),
    [
      ['ERC-721', 7n],
      ['ERC-1155', 9n],
      ['ERC-1155', 1n],
      ['ERC-1155', 2n],
    ],
  );
  assert.equal(
    out.tokenTransfers.length,
    10,
    'every transfer for both parties, none from the failed transaction',
  );
});

test('traces: only value calls and creations below the root; reverts propagate; factory deployments', () => {
  const b = block([{ to: F, value: '0x10', input: '0x12345678' }]);
  const receipts: RawReceipt[] = [
    {
      transactionHash: b.transactions[0].hash,
      transactionIndex: '0x0',
      status: '0x1',
      gasUsed: '0x1',
      logs: [],
    },
  ];
  const trace = {
    type: 'CALL',
    from: A,
    to: F,
    value: '0x10',
    calls: [
      { type: 'CREATE', from: F, to: T, value: '0x5', gas: '0x100', gasUsed: '0x80' },
      { type: 'STATICCALL', from: F, to: B },
      { type: 'CALL', from: F, to: B, value: '0x0' },
      { type: 'DELEGATECALL', from: F, to: B, value: '0x1' },
      {
        type: 'CALL',
        from: F,
        to: F,
        value: '0x3',
        error: 'execution reverted',
        calls: [{ type: 'CALL', from: F, to: B, value: '0x3' }],
      },
      { type: 'CREATE2', from: F, to: B, value: '0x0', error: 'out of gas' },
    ],
  };
  const out = decodeBlock(1, b, receipts, [trace]);
  const frames = [
    ...new Map(out.internalTxs.map((r) => [r.trace_index, [r.call_type, r.value, r.is_reverted]])).values(),
  ];
  assert.deepEqual(frames, [
    ['CREATE', '5', 0],
    ['CALL', '3', 1],
    ['CALL', '3', 1],
    ['CREATE2', '0', 1],
  ]);
  assert.deepEqual(
    out.deployments.map((d) => [d.address, d.deployer, d.deployerContract]),
    [[T, A, F]],
  );
});

test('TransferBatch with mismatched arrays is ignored; string returns decode, bytes32 too; EIP-55', () => {
  assert.equal(decodeBatch('0x' + word(64) + word(128) + word(1) + word(1) + word(2)), undefined);
  const abiString = '0x' + word(32) + word(3) + Buffer.from('ABC').toString('hex').padEnd(64, '0');
  assert.equal(decodeStringReturn(abiString), 'ABC');
  assert.equal(decodeStringReturn('0x' + Buffer.from('MKR').toString('hex').padEnd(64, '0')), 'MKR');
  assert.equal(decodeStringReturn('0x'), undefined);
  // A bytes32 turned string keeps its NUL padding on the chain; the store holds no NULs.
  const padded = Buffer.from('Pad\0ded').toString('hex').padEnd(64, '0');
  assert.equal(decodeStringReturn('0x' + word(32) + word(32) + padded), 'Padded');
  assert.equal(
    checksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'),
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  );
});

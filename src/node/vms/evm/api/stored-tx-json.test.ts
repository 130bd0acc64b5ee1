import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RLP } from '@ethereumjs/rlp';
import { createTx, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import secp from 'secp256k1';
import { hexToBytes } from '@ethereumjs/util';
import { createEvmCommon } from '../common.js';
import { keccak256 } from '../keccak.js';
import type { StoredTx } from '../state/chain-store.js';
import { h, txJson, type TxPosition } from './format.js';
import { storedTxJson } from './stored-tx-json.js';

const common = createEvmCommon(43112);
const key = hexToBytes('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const to = '0x00000000000000000000000000000000000abcde';
const accessList = [
  { address: to, storageKeys: ['0x' + '01'.padStart(64, '0'), '0x' + 'ff'.padStart(64, '0')] },
];

function stored(tx: TypedTransaction): StoredTx {
  return {
    hash: tx.hash(),
    blockNumber: 7n,
    index: 3,
    raw: tx.serialize(),
    sender: tx.getSenderAddress().bytes,
    status: 1,
    gasUsed: 21000n,
    cumulativeGasUsed: 42000n,
    contractAddress: null,
    effectiveGasPrice: 1n,
    firstLogIndex: 0,
  };
}

describe('storedTxJson', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['legacy, EIP-155', { type: 0, nonce: 5, gasPrice: 30n, gasLimit: 21000, to, value: 10n }],
    ['legacy creation with data', { type: 0, nonce: 0, gasPrice: 1n, gasLimit: 90000, data: '0x6000' }],
    ['EIP-2930', { type: 1, nonce: 1, gasPrice: 2n, gasLimit: 50000, to, accessList, data: '0xabcdef' }],
    ['EIP-1559', { type: 2, nonce: 2, maxFeePerGas: 100n, maxPriorityFeePerGas: 3n, gasLimit: 21000, to }],
    [
      'EIP-1559 with access list, tip capped by the fee cap',
      { type: 2, nonce: 9, maxFeePerGas: 12n, maxPriorityFeePerGas: 11n, gasLimit: 60000, to, accessList },
    ],
    [
      'EIP-1559 creation',
      { type: 2, nonce: 0, maxFeePerGas: 5n, maxPriorityFeePerGas: 0n, gasLimit: 1e6, data: '0x00' },
    ],
  ];
  for (const [name, fields] of cases) {
    it(`answers as the engine's transaction does: ${name}`, () => {
      const tx = createTx(fields as any, { common }).sign(key);
      const s = stored(tx);
      const pos: TxPosition = {
        blockHash: new Uint8Array(32).fill(9),
        blockNumber: 7n,
        index: 3,
        baseFee: 2n,
      };
      const expected = txJson(tx, h(s.sender), pos, s.hash);
      const actual = storedTxJson(common, s, pos);
      assert.deepEqual(actual, expected);
      assert.equal(JSON.stringify(actual), JSON.stringify(expected));
    });
  }

  it('answers a pre-EIP-155 legacy transaction without a chain id', () => {
    const unsigned = [
      new Uint8Array(),
      Uint8Array.of(7),
      Uint8Array.of(0x52, 0x08),
      hexToBytes(to),
      Uint8Array.of(1),
      new Uint8Array(),
    ];
    const { signature, recid } = secp.ecdsaSign(keccak256(RLP.encode(unsigned)), key);
    const raw = RLP.encode([
      ...unsigned,
      Uint8Array.of(27 + recid),
      signature.subarray(0, 32),
      signature.subarray(32),
    ]);
    const tx = createTxFromRLP(raw, { common });
    const s = stored(tx);
    const pos: TxPosition = { blockHash: new Uint8Array(32), blockNumber: 1n, index: 0, baseFee: 1n };
    const actual = storedTxJson(common, s, pos);
    assert.deepEqual(actual, txJson(tx, h(s.sender), pos, s.hash));
    assert.equal(actual.v, '0x' + (27 + recid).toString(16));
    assert.equal(actual.chainId, undefined);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toCb58 } from '../../shared/encoding.js';
import { createDatabase } from '../store/database.js';
import { decodeIcmLog, TOPIC_ICM } from '../indexer/evm/icm-events.js';
import type { IcmLogFact } from '../indexer/evm/decode-block.js';
import { writeIcmRows } from '../indexer/evm/write-icm.js';
import { word } from './abi.js';
import { listIcmMessages, parseIcmMessageId, renderIcmMessages } from './icm.js';

const SRC = 'aa'.repeat(32);
const DST = 'bb'.repeat(32);
const ID = 'cd'.repeat(32);
const SENDER = '11'.repeat(20);
const RECIPIENT = '22'.repeat(20);
const RELAYER = '33'.repeat(20);
const addr = (a: string) => a.padStart(64, '0');

/** The ABI encoding of a TeleporterMessage tuple (nonce 7, one receipt, payload 0xbeef). */
function messageTuple(): string {
  const head = [
    word(7n),
    addr(SENDER),
    DST,
    addr(RECIPIENT),
    word(100_000n),
    word(256n), // allowedRelayerAddresses
    word(288n), // receipts
    word(384n), // message
  ];
  const relayers = [word(0n)];
  const receipts = [word(1n), word(3n), addr(RELAYER)];
  const message = [word(2n), 'beef'.padEnd(64, '0')];
  return [...head, ...relayers, ...receipts, ...message].join('');
}

const topics = (...words: string[]) => words.map((w) => '0x' + w);

test('decodes the messenger events and refuses malformed data', () => {
  const send = decodeIcmLog(
    topics(TOPIC_ICM.send.slice(2), ID, DST),
    '0x' + word(96n) + addr('44'.repeat(20)) + word(5n) + messageTuple(),
  );
  assert.deepEqual(send, {
    kind: 'send',
    messageId: ID,
    feeToken: '0x' + '44'.repeat(20),
    feeAmount: '5',
    message: {
      nonce: '7',
      from: '0x' + SENDER,
      destinationChain: DST,
      to: '0x' + RECIPIENT,
      requiredGasLimit: '100000',
      receipts: [{ nonce: '3', relayer: '0x' + RELAYER }],
      data: '0xbeef',
    },
  });
  const receive = decodeIcmLog(
    topics(TOPIC_ICM.receive.slice(2), ID, SRC, addr(RELAYER)),
    '0x' + addr(RELAYER) + word(64n) + messageTuple(),
  );
  assert.equal(receive?.kind, 'receive');
  // Cut short, an offset past the end, or a topic missing: not an ICM event.
  const cut = '0x' + word(96n) + addr('44'.repeat(20)) + word(5n) + messageTuple().slice(0, 64 * 10);
  assert.equal(decodeIcmLog(topics(TOPIC_ICM.send.slice(2), ID, DST), cut), undefined);
  assert.equal(decodeIcmLog(topics(TOPIC_ICM.send.slice(2), ID, DST), '0x' + word(1n << 40n)), undefined);
  assert.equal(decodeIcmLog(topics(TOPIC_ICM.executed.slice(2), ID), '0x'), undefined);
  assert.deepEqual(decodeIcmLog(topics(TOPIC_ICM.executed.slice(2), ID, SRC), '0x'), {
    kind: 'executed',
    messageId: ID,
  });
});

test('parses message ids with or without 0x', () => {
  assert.equal(parseIcmMessageId('0x' + ID.toUpperCase()), ID);
  assert.throws(() => parseIcmMessageId(ID.slice(2)), /invalid messageId/);
});

test('a receive indexed alone is delivered_source_not_indexed, then delivered once its send is', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-icm-'));
  const { db, close } = await createDatabase({ dataDir: dir });
  try {
    const source = toCb58(Buffer.from(SRC, 'hex'));
    const destination = toCb58(Buffer.from(DST, 'hex'));
    const fact = (event: IcmLogFact['event'], ts: number, tx: string): IcmLogFact => ({
      event,
      contract: '0x' + '55'.repeat(20),
      txHash: '0x' + tx.repeat(32),
      gasUsed: '21000',
      blockNumber: 1,
      timestamp: ts,
      logIndex: 0,
    });
    const sendData = '0x' + word(96n) + addr('0'.repeat(40)) + word(0n) + messageTuple();
    const receiveData = '0x' + addr(RELAYER) + word(64n) + messageTuple();
    const receive = decodeIcmLog(topics(TOPIC_ICM.receive.slice(2), ID, SRC, addr(RELAYER)), receiveData)!;
    const executed = decodeIcmLog(topics(TOPIC_ICM.executed.slice(2), ID, SRC), '0x')!;
    await db
      .transaction()
      .execute((trx) =>
        writeIcmRows(trx, destination, 2, [fact(receive, 200, 'd1'), fact(executed, 200, 'd1')]),
      );
    let [m] = await renderIcmMessages(db, (await listIcmMessages(db, { filters: {}, limit: 10 })).rows);
    assert.equal(m.status, 'delivered_source_not_indexed');
    assert.equal(m.sourceBlockchainId, source);
    assert.equal(m.sourceEvmChainId, '');
    assert.equal(m.messageExecuted, true);
    assert.equal('sourceTransaction' in m, false);
    assert.deepEqual(m.receipts, [
      { receivedMessageNonce: '3', relayerRewardAddress: '0x3333333333333333333333333333333333333333' },
    ]);

    const send = decodeIcmLog(topics(TOPIC_ICM.send.slice(2), ID, DST), sendData)!;
    await db.transaction().execute((trx) => writeIcmRows(trx, source, 1, [fact(send, 150, 'e1')]));
    const bySource = await listIcmMessages(db, { filters: { source }, after: [151, ''], limit: 10 });
    [m] = await renderIcmMessages(db, bySource.rows);
    assert.equal(m.status, 'delivered');
    assert.equal(m.messageExecuted, true);
    assert.deepEqual(m.sourceTransaction, {
      txHash: '0x' + 'e1'.repeat(32),
      timestamp: 150,
      gasSpent: '21000',
    });
    // Listed at the send's time now, under every key.
    assert.equal(
      (await listIcmMessages(db, { filters: { source }, after: [150, ID], limit: 10 })).rows.length,
      0,
    );
    assert.equal(
      (await listIcmMessages(db, { filters: { address: '0x' + RECIPIENT }, limit: 10 })).rows[0].sort_ts,
      150,
    );
  } finally {
    await close();
  }
});

/**
 * Two L1s messaging each other, their indexers writing at once: chain A's batch holds the send
 * of message 1 and the receive of message 2, chain B's the send of message 2 and the receive of
 * message 1. Both batches commit and both messages end whole, on SQLite and on PostgreSQL, where
 * each batch held one message's row and waited for the other's: a deadlock that aborted one.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { describeEachStore } from '../../../../test/helpers/each-store.js';
import { toCb58 } from '../../../shared/encoding.js';
import type { IcmLogFact } from './decode-block.js';
import type { IcmMessageBody } from './icm-events.js';
import { writeIcmRows } from './write-icm.js';

const A_WORD = 'aa'.repeat(32);
const B_WORD = 'bb'.repeat(32);
const A = toCb58(Buffer.from(A_WORD, 'hex'));
const B = toCb58(Buffer.from(B_WORD, 'hex'));
const MESSENGER = '0x253b2784c75e510dd0ff1da844684a1ac0aa5fcf';

function body(destinationChain: string): IcmMessageBody {
  return {
    nonce: '1',
    from: '0x' + '11'.repeat(20),
    destinationChain,
    to: '0x' + '22'.repeat(20),
    requiredGasLimit: '100000',
    receipts: [],
    data: '0xbeef',
  };
}

function fact(event: IcmLogFact['event'], blockNumber: number): IcmLogFact {
  return {
    event,
    contract: MESSENGER,
    txHash: '0x' + blockNumber.toString(16).padStart(64, '0'),
    gasUsed: '50000',
    blockNumber,
    timestamp: 1_700_000_000 + blockNumber,
    logIndex: 0,
  };
}

const zero = '0x' + '00'.repeat(20);
const send = (id: string, to: string, block: number) =>
  fact({ kind: 'send', messageId: id, message: body(to), feeToken: zero, feeAmount: '0' }, block);
const receive = (id: string, from: string, to: string, block: number) =>
  fact(
    {
      kind: 'receive',
      messageId: id,
      sourceChain: from,
      deliverer: zero,
      rewardRedeemer: zero,
      message: body(to),
    },
    block,
  );

const M1 = '01'.repeat(32); // A → B
const M2 = '02'.repeat(32); // B → A

describeEachStore(`two chains' indexers writing each other's messages at once`, 'icm', (store) => {
  it('commits both batches and leaves both messages whole', async () => {
    let aSent!: () => void;
    const aSentP = new Promise<void>((resolve) => (aSent = resolve));
    let bSent!: () => void;
    const bSentP = new Promise<void>((resolve) => (bSent = resolve));
    // Chain A's batch: sends message 1, then (once B's batch has had every chance to write
    // its send) receives message 2.
    const chainA = store()
      .db.transaction()
      .execute(async (trx) => {
        await writeIcmRows(trx, A, 1, [send(M1, B_WORD, 10)]);
        aSent();
        await Promise.race([bSentP, delay(300)]);
        await writeIcmRows(trx, A, 1, [receive(M2, B_WORD, A_WORD, 20)]);
      });
    // Chain B's batch: sends message 2, then receives message 1.
    const chainB = (async () => {
      await aSentP;
      return store()
        .db.transaction()
        .execute(async (trx) => {
          await writeIcmRows(trx, B, 2, [send(M2, A_WORD, 5)]);
          bSent();
          await writeIcmRows(trx, B, 2, [receive(M1, A_WORD, B_WORD, 15)]);
        });
    })();
    const outcomes = await Promise.allSettled([chainA, chainB]);
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : o.status)),
      ['fulfilled', 'fulfilled'],
    );

    const rows = await store()
      .db.selectFrom('evm_icm_messages')
      .select(['message_id', 'src_chain', 'dst_chain', 'src_ts', 'dst_ts', 'sort_ts'])
      .orderBy('message_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.message_id, Number(r.src_chain), Number(r.dst_chain), Number(r.sort_ts)]),
      [
        [M1, 1, 2, 1_700_000_010],
        [M2, 2, 1, 1_700_000_005],
      ],
    );
    const parties = await store()
      .db.selectFrom('evm_icm_parties')
      .select(['key', 'sort_ts'])
      .where('message_id', '=', M1)
      .where('key', '=', `src:${A}`)
      .executeTakeFirstOrThrow();
    assert.equal(Number(parties.sort_ts), 1_700_000_010);
  });
});

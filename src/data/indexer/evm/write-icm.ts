/**
 * Applies a range's ICM messenger events to the message rows, inside the batch's transaction.
 * A message's two ends are indexed by two chain indexers in either order: each writes its own
 * side's columns of the row keyed by message id (an upsert), so the row is whole once both ran.
 */
import type { Insertable, Transaction } from 'kysely';
import type { DataSchema } from '../../store/schema.js';
import type { EvmIcmMessageTable } from '../../store/schema-evm.js';
import { toCb58 } from '../../../shared/encoding.js';
import type { IcmLogFact } from './decode-block.js';
import type { IcmMessageBody } from './icm-events.js';
import { lockIcmWrites } from '../../store/cross-chain-lock.js';

function cb58OfWord(word: string): string {
  return toCb58(Buffer.from(word, 'hex'));
}

/** The list keys of a message (see EvmIcmPartyTable). */
export function icmPartyKeys(m: { source: string; destination: string; from: string; to: string }): string[] {
  return [
    ...new Set([
      `src:${m.source}`,
      `dst:${m.destination}`,
      `chain:${m.source}`,
      `chain:${m.destination}`,
      `from:${m.from}`,
      `to:${m.to}`,
      `addr:${m.from}`,
      `addr:${m.to}`,
    ]),
  ];
}

function messageColumns(
  f: IcmLogFact,
  body: IcmMessageBody,
  source: string,
  destination: string,
): Insertable<EvmIcmMessageTable> {
  return {
    message_id: f.event.messageId,
    contract: f.contract,
    source_blockchain_id: source,
    destination_blockchain_id: destination,
    message_nonce: body.nonce,
    from_addr: body.from,
    to_addr: body.to,
    data: body.data,
    required_gas_limit: body.requiredGasLimit,
    receipts: JSON.stringify(body.receipts.map((r) => [r.nonce, r.relayer])),
    fee_token: '0x0000000000000000000000000000000000000000',
    fee_amount: '0',
    sort_ts: f.timestamp,
    executed: 0,
    receipt_delivered: 0,
  };
}

/** Writes the events of `facts` (in chain order) of the chain `blockchainId` (EVM id `chain`). */
export async function writeIcmRows(
  trx: Transaction<DataSchema>,
  blockchainId: string,
  chain: number,
  facts: IcmLogFact[],
): Promise<void> {
  // The other end of these messages may be being written by another chain's indexer.
  if (facts.length > 0) await lockIcmWrites(trx);
  for (const f of facts) {
    const e = f.event;
    const id = e.messageId;
    if (e.kind === 'send' || e.kind === 'receive') {
      const source = e.kind === 'send' ? blockchainId : cb58OfWord(e.sourceChain);
      const destination = e.kind === 'send' ? cb58OfWord(e.message.destinationChain) : blockchainId;
      const side =
        e.kind === 'send'
          ? {
              src_chain: chain,
              src_tx_hash: f.txHash,
              src_block: f.blockNumber,
              src_ts: f.timestamp,
              src_gas: f.gasUsed,
              fee_token: e.feeToken,
              fee_amount: e.feeAmount,
              // A message lists at its send's time, also when its receive was indexed first.
              sort_ts: f.timestamp,
            }
          : {
              dst_chain: chain,
              dst_tx_hash: f.txHash,
              dst_block: f.blockNumber,
              dst_ts: f.timestamp,
              dst_gas: f.gasUsed,
              deliverer: e.deliverer,
              reward_redeemer: e.rewardRedeemer,
            };
      await trx
        .insertInto('evm_icm_messages')
        .values({ ...messageColumns(f, e.message, source, destination), ...side })
        .onConflict((oc) => oc.column('message_id').doUpdateSet(side))
        .execute();
      const row = await trx
        .selectFrom('evm_icm_messages')
        .select(['sort_ts', 'source_blockchain_id', 'destination_blockchain_id', 'from_addr', 'to_addr'])
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow();
      const sortTs = Number(row.sort_ts);
      const keys = icmPartyKeys({
        source: row.source_blockchain_id,
        destination: row.destination_blockchain_id,
        from: row.from_addr,
        to: row.to_addr,
      });
      await trx
        .insertInto('evm_icm_parties')
        .values(keys.map((key) => ({ key, sort_ts: sortTs, message_id: id })))
        .onConflict((oc) => oc.columns(['key', 'message_id']).doUpdateSet({ sort_ts: sortTs }))
        .execute();
    } else if (e.kind === 'executed') {
      await trx.updateTable('evm_icm_messages').set({ executed: 1 }).where('message_id', '=', id).execute();
    } else if (e.kind === 'receipt') {
      await trx
        .updateTable('evm_icm_messages')
        .set({ receipt_delivered: 1 })
        .where('message_id', '=', id)
        .execute();
    } else if (e.kind === 'addFee') {
      await trx
        .updateTable('evm_icm_messages')
        .set({ fee_token: e.feeToken, fee_amount: e.feeAmount })
        .where('message_id', '=', id)
        .execute();
    }
    // MessageExecutionFailed leaves the message received and not executed: nothing to write.
  }
}

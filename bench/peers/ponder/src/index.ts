/** Indexing functions: one row per block, transaction, native transfer, token transfer, deployment. */
import { ponder } from 'ponder:registry';
import { block, deployment, nativeTransfer, tokenTransfer, transaction } from 'ponder:schema';

ponder.on('Blocks:block', async ({ event, context }) => {
  const b = event.block;
  await context.db.insert(block).values({
    number: b.number,
    hash: b.hash,
    timestamp: b.timestamp,
    gasUsed: b.gasUsed,
    baseFeePerGas: b.baseFeePerGas ?? null,
    miner: b.miner,
  });
});

ponder.on('Senders:transaction:from', async ({ event, context }) => {
  const tx = event.transaction;
  const receipt = event.transactionReceipt;
  await context.db.insert(transaction).values({
    hash: tx.hash,
    blockNumber: event.block.number,
    index: tx.transactionIndex,
    from: tx.from,
    to: tx.to,
    value: tx.value,
    gasUsed: receipt?.gasUsed ?? null,
    status: receipt?.status ?? null,
  });
  if (receipt?.contractAddress)
    await context.db.insert(deployment).values({
      address: receipt.contractAddress,
      deployer: tx.from,
      txHash: tx.hash,
      blockNumber: event.block.number,
    });
});

ponder.on('Senders:transfer:from', async ({ event, context }) => {
  await context.db.insert(nativeTransfer).values({
    id: event.id,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
    from: event.transfer.from,
    to: event.transfer.to,
    value: event.transfer.value,
    internal: event.trace.traceIndex > 0,
  });
});

type Hex = `0x${string}`;

/** One token transfer row; an ERC-1155 batch makes one per id, with the index in its id. */
function transferRow(
  event: { id: string; log: { address: Hex }; transaction: { hash: Hex }; block: { number: bigint } },
  kind: 'erc20' | 'erc721' | 'erc1155',
  parties: { from: Hex; to: Hex },
  value: bigint,
  tokenId: bigint | null,
  part = '',
) {
  return {
    id: event.id + part,
    kind,
    token: event.log.address,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
    from: parties.from,
    to: parties.to,
    value,
    tokenId,
  };
}

ponder.on('Erc20:Transfer', async ({ event, context }) => {
  await context.db
    .insert(tokenTransfer)
    .values(transferRow(event, 'erc20', event.args, event.args.value, null));
});

ponder.on('Erc721:Transfer', async ({ event, context }) => {
  await context.db
    .insert(tokenTransfer)
    .values(transferRow(event, 'erc721', event.args, 1n, event.args.tokenId));
});

ponder.on('Erc1155:TransferSingle', async ({ event, context }) => {
  const { args } = event;
  await context.db.insert(tokenTransfer).values(transferRow(event, 'erc1155', args, args.value, args.id));
});

ponder.on('Erc1155:TransferBatch', async ({ event, context }) => {
  const { args } = event;
  await context.db
    .insert(tokenTransfer)
    .values(args.ids.map((id, i) => transferRow(event, 'erc1155', args, args.values[i]!, id, `-${i}`)));
});

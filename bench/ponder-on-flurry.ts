/**
 * Ponder against a real Flurry devnet's C-chain, as a third-party indexer would read it:
 * `node --import tsx bench/ponder-on-flurry.ts`. It deploys the EVM test contracts, sends transfers
 * of each kind, runs the bench's Ponder app over the C-chain RPC (backfill for the blocks Ponder
 * deems final, live sync for the newest 30) and checks each table against what was sent. Exits
 * non-zero, with Ponder's last warnings, when a row is missing or Ponder stops on a JSON-RPC answer.
 */
import assert from 'node:assert/strict';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  type Abi,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevnet } from '../test/helpers/devnet.js';
import { compileContracts } from '../test/helpers/evm-contracts.js';
import { ensurePonder, runPonder } from './ponder-peer.js';

const ROUNDS = 12; // 4 deployments + 5 txs per round: past Ponder's 30-block finality window

const missing = ensurePonder();
if (missing) {
  console.log(missing);
  process.exit(1);
}
const devnet = await startDevnet();
try {
  const facts = devnet.facts;
  const chain = defineChain({
    id: facts.chains.C.evmChainId!,
    name: 'Flurry C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [facts.urls.cChainRpc] } },
  });
  const account = privateKeyToAccount(facts.keys[0].privateKey as Hex);
  const wallet = createWalletClient({ chain, account, transport: http() });
  const pub = createPublicClient({ chain, transport: http() });
  const c = compileContracts();
  const mined = async (hash: Hex) => pub.waitForTransactionReceipt({ hash });
  const deploy = async (name: string, args: unknown[] = []) =>
    (
      await mined(
        await wallet.deployContract({ abi: c[name].abi as Abi, bytecode: c[name].bytecode as Hex, args }),
      )
    ).contractAddress!;
  const call = async (address: Hex, name: string, functionName: string, args: unknown[], value?: bigint) =>
    mined(await wallet.writeContract({ address, abi: c[name].abi as Abi, functionName, args, value }));

  const erc20 = await deploy('Token20', ['Test', 'TST', 18, 10n ** 24n]);
  const erc721 = await deploy('Nft721', ['Nft', 'NFT', 'ipfs://nft/']);
  const erc1155 = await deploy('Multi1155', ['ipfs://multi/{id}']);
  const factory = await deploy('Factory');
  const to = '0x00000000000000000000000000000000000000b1';
  for (let i = 0; i < ROUNDS; i++) {
    await mined(await wallet.sendTransaction({ to, value: parseEther('0.01') }));
    await call(erc20, 'Token20', 'transfer', [to, 5n]);
    await call(erc721, 'Nft721', 'mint', [to, BigInt(i)]);
    await call(erc1155, 'Multi1155', 'mint', [to, 1n, 3n]);
    // A value call that CREATEs a child with half the value, CREATE2s another, forwards the rest.
    await call(factory, 'Factory', 'deployAndForward', [to, `0x${i.toString(16).padStart(64, '0')}`], 7n);
  }
  const head = Number(await pub.getBlockNumber());
  const run = await runPonder({
    rpcUrl: facts.urls.cChainRpc,
    chainId: chain.id,
    endBlock: head,
    senders: [account.address, factory],
    firstRequestAt: () => undefined,
  });
  assert.deepEqual(run.counts, {
    block: head + 1,
    transaction: 4 + 5 * ROUNDS,
    // Per round: the native transfer, the factory call's value, its CREATE's value, the forward.
    nativeTransfer: 4 * ROUNDS,
    // The ERC-20 mint in its constructor, then a transfer, a mint and an ERC-1155 mint per round.
    tokenTransfer: 1 + 3 * ROUNDS,
    deployment: 4,
  });
  console.log(
    `Ponder indexed Flurry's C-chain to block ${head} in ${run.wallSeconds.toFixed(1)} s:`,
    run.counts,
  );
} finally {
  await devnet.stop();
}

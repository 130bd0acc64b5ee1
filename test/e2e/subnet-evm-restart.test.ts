/**
 * Issue 8: a Subnet-EVM chain survives `kill -9` of the node — after a restart on the same data
 * directory it is served again at its blockchain id with the same blocks, balances, precompile
 * state and fee config, and keeps producing blocks.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { rpc, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import {
  ALLOW_LIST_ABI,
  createSubnetEvmChain,
  EWOQ_EVM,
  EWOQ_EVM_KEY,
  evmClients,
  PRECOMPILES,
  waitForChain,
} from './subnet-evm-helpers.js';

const ETHER = 10n ** 18n;
const GWEI = 10n ** 9n;

describe('Subnet-EVM chain across a crash', () => {
  let net: Devnet | undefined;
  after(async () => {
    await net?.stop();
  });

  it('is served again after kill -9 with its state intact', async () => {
    const dataDir = tempDir();
    net = await startDevnet({ dataDir });
    const genesis = {
      config: {
        chainId: 77_003,
        feeConfig: { gasLimit: 12_000_000, minBaseFee: 30_000_000_000 },
        // A mint to an allocated address: the allocation, applied after, sets its balance.
        contractNativeMinterConfig: {
          blockTimestamp: 0,
          adminAddresses: [EWOQ_EVM],
          initialMint: { [EWOQ_EVM]: '0x1' },
        },
      },
      alloc: { [EWOQ_EVM]: { balance: '0x' + (1000n * ETHER).toString(16) } },
    };
    const { chainId } = await createSubnetEvmChain(net.url, genesis);
    const account = privateKeyToAccount(EWOQ_EVM_KEY);
    const to = privateKeyToAccount(('0x' + '42'.repeat(32)) as `0x${string}`).address;
    let c = evmClients(`${net.url}/ext/bc/${chainId}/rpc`, 77_003, account);
    const fees = { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI };
    // The genesis block carries the minimum base fee (as subnet-evm's does), so viem's own fee
    // estimate, read from it before any block is built, is one the chain accepts.
    assert.equal((await c.client.getBlock({ blockNumber: 0n })).baseFeePerGas, 30n * GWEI);
    // subnet-evm's Genesis.toBlock configures the precompiles, then SetBalance's the allocations.
    assert.equal(await c.client.getBalance({ address: EWOQ_EVM, blockNumber: 0n }), 1000n * ETHER);
    const receipt = await c.client.waitForTransactionReceipt({
      hash: await c.wallet.sendTransaction({ to, value: 3n * ETHER, chain: c.chain, account } as any),
    });
    assert.equal(receipt.status, 'success');
    // The minter active at genesis is configured in block 0: the first transaction is block 1.
    assert.equal(receipt.blockNumber, 1n);
    const head = await c.client.getBlock();
    await net.kill();
    // An upgrade file in the chain-config dir, read at the next start: disable the minter.
    const disableAt = Math.floor(Date.now() / 1000) + 1;
    const dir = path.join(dataDir, 'configs', 'chains', chainId);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'upgrade.json'),
      JSON.stringify({
        precompileUpgrades: [{ contractNativeMinterConfig: { blockTimestamp: disableAt, disable: true } }],
      }),
    );

    net = await startDevnet({ dataDir });
    await waitForChain(net.url, chainId);
    c = evmClients(`${net.url}/ext/bc/${chainId}/rpc`, 77_003, account);
    const again = await c.client.getBlock({ blockNumber: head.number });
    assert.equal(again.hash, head.hash);
    assert.equal(await c.client.getBalance({ address: to }), 3n * ETHER);
    assert.equal(
      await c.client.readContract({
        address: PRECOMPILES.minter,
        abi: ALLOW_LIST_ABI,
        functionName: 'readAllowList',
        args: [EWOQ_EVM],
      }),
      2n,
    );
    const { body } = await rpc(`${net.url}/ext/bc/${chainId}/rpc`, 'eth_feeConfig', []);
    assert.equal(body.result.feeConfig.minBaseFee, 30_000_000_000);
    // The restart can beat `disableAt`; the next block must come after it for the head to see
    // the minter disabled, so wait for the wall clock to pass it first.
    const untilDisabled = disableAt * 1000 - Date.now();
    if (untilDisabled > 0) await new Promise((r) => setTimeout(r, untilDisabled + 50));
    const next = await c.client.waitForTransactionReceipt({
      hash: await c.wallet.sendTransaction({ to, value: 1n, ...fees, chain: c.chain, account } as any),
    });
    assert.equal(next.blockNumber, head.number + 1n);
    const nextBlock = await c.client.getBlock({ blockNumber: next.blockNumber });
    assert.equal(nextBlock.gasLimit, 12_000_000n);
    assert.ok(nextBlock.timestamp >= BigInt(disableAt), 'the block after the restart follows the upgrade');
    const { body: cfg } = await rpc(`${net.url}/ext/bc/${chainId}/rpc`, 'eth_getChainConfig', []);
    assert.deepEqual(cfg.result.upgrades.precompileUpgrades, [
      { contractNativeMinterConfig: { blockTimestamp: disableAt, disable: true } },
    ]);
    const { body: rules } = await rpc(`${net.url}/ext/bc/${chainId}/rpc`, 'eth_getActiveRulesAt', []);
    assert.equal(rules.result.precompiles.contractNativeMinterConfig, undefined);
    assert.equal(await c.client.getCode({ address: PRECOMPILES.minter }), undefined);
  });
});

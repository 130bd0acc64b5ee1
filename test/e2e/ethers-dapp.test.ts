/**
 * A dapp developer's day through ethers v6 alone, on the C-chain and on a Subnet-EVM L1 (whose
 * 25 gwei minimum base fee makes fee caps matter): fee data, block tags, calls priced at zero,
 * fee caps below the base fee, the JSON-RPC messages ethers turns into its error codes, custom
 * errors and panics decoded from revert data, events through polling filters and WebSocket
 * subscriptions, and ENS on a chain without it. Each answer is what coreth/subnet-evm give.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ethers } from 'ethers';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  compile,
  createSubnetEvmChain,
  EWOQ_EVM,
  EWOQ_EVM_KEY,
  feeFloorGenesis,
} from './subnet-evm-helpers.js';

const L1_CHAIN_ID = 77_123;
const MIN_BASE_FEE = 25_000_000_000n;

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Shop {
  error SoldOut(uint256 item, string why);
  event Bought(address indexed buyer, uint256 item);
  uint256 public sold;
  function buy(uint256 item) external { require(item < 100, "no such item"); sold += 1; emit Bought(msg.sender, item); }
  function reserve(uint256 item) external pure { revert SoldOut(item, "gone"); }
  function share(uint256 n) external pure returns (uint256) { return 100 / n; }
}`;

describe('ethers v6 dapp on the C-chain and an L1', () => {
  let net: Devnet;
  let c: ethers.JsonRpcProvider;
  let l1: ethers.JsonRpcProvider;
  let l1Ws: string;

  before(async () => {
    net = await startDevnet();
    const { chainId } = await createSubnetEvmChain(net.url, feeFloorGenesis(L1_CHAIN_ID, MIN_BASE_FEE));
    // cacheTimeout -1: blocks come within milliseconds, faster than ethers' 250 ms cache (README).
    const options = { cacheTimeout: -1, pollingInterval: 50 };
    c = new ethers.JsonRpcProvider(net.facts.urls.cChainRpc, undefined, options);
    l1 = new ethers.JsonRpcProvider(`${net.url}/ext/bc/${chainId}/rpc`, undefined, options);
    l1Ws = `${net.url.replace('http', 'ws')}/ext/bc/${chainId}/ws`;
  });
  after(async () => {
    c?.destroy();
    l1?.destroy();
    await net?.stop();
  });

  it('runs calls and estimates whose fee fields are all zero as unpriced, as geth does', async () => {
    // geth skips the fee cap check when every fee field is zero, given or not (a call that
    // names gasPrice 0 is not refused for being below the base fee).
    for (const provider of [c, l1]) {
      const base = { from: EWOQ_EVM, to: ethers.Wallet.createRandom().address };
      assert.equal(await provider.estimateGas({ ...base, gasPrice: 0n }), 21_000n);
      assert.equal(
        await provider.estimateGas({ ...base, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }),
        21_000n,
      );
      assert.equal(await provider.call({ ...base, gasPrice: 0n }), '0x');
    }
  });

  it('refuses a fee cap below the base fee in geth’s words, naming the sender, for every tx type', async () => {
    const wallet = new ethers.Wallet(EWOQ_EVM_KEY, l1);
    const to = ethers.Wallet.createRandom().address;
    const cases = [
      { fees: { type: 0, gasPrice: 7n }, cap: 7n },
      { fees: { type: 1, gasPrice: 8n }, cap: 8n },
      { fees: { type: 2, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n }, cap: 9n },
    ];
    for (const { fees, cap } of cases) {
      // ethers estimates first: geth's estimator reports the refusal with the gas it tried (the
      // block's limit); a call runs with the RPC gas cap.
      const err: any = await wallet.sendTransaction({ to, value: 1n, ...fees }).catch((e) => e);
      assert.equal(err.code, 'CALL_EXCEPTION');
      assert.equal(
        err.info.error.message,
        `failed with 15000000 gas: max fee per gas less than block base fee: address ${EWOQ_EVM}, ` +
          `maxFeePerGas: ${cap}, baseFee: ${MIN_BASE_FEE}`,
      );
      const callErr: any = await l1.call({ from: EWOQ_EVM, to, ...fees }).catch((e) => e);
      assert.equal(
        callErr.info.error.message,
        `err: max fee per gas less than block base fee: address ${EWOQ_EVM}, maxFeePerGas: ${cap}, ` +
          `baseFee: ${MIN_BASE_FEE} (supplied gas 50000000)`,
      );
    }
  });

  it('answers fee data, block tags and the messages ethers maps to its error codes', async () => {
    const fee = await l1.getFeeData();
    const latest = (await l1.getBlock('latest'))!;
    assert.equal(latest.baseFeePerGas, MIN_BASE_FEE);
    assert.equal(fee.maxFeePerGas, latest.baseFeePerGas! * 2n + fee.maxPriorityFeePerGas!);
    for (const tag of ['pending', 'safe', 'finalized'])
      assert.equal((await l1.getBlock(tag))!.hash, latest.hash, tag);
    assert.equal((await l1.getBlock('earliest'))!.number, 0);
    assert.equal((await l1.getNetwork()).chainId, BigInt(L1_CHAIN_ID));

    const signer = new ethers.NonceManager(new ethers.Wallet(EWOQ_EVM_KEY, l1));
    const to = ethers.Wallet.createRandom().address;
    for (const type of [0, 1, 2]) {
      const tx = await signer.sendTransaction({ to, value: 1n, type });
      const receipt = (await tx.wait(1, 10_000))!;
      assert.equal(receipt.status, 1);
      assert.equal((await l1.getTransaction(tx.hash))!.type, type);
    }
    assert.equal(await l1.getBalance(to), 3n);
    await assert.rejects(l1.waitForTransaction(ethers.ZeroHash, 1, 200), { code: 'TIMEOUT' });

    const wallet = new ethers.Wallet(EWOQ_EVM_KEY, l1);
    await assert.rejects(wallet.sendTransaction({ to, value: 1n, nonce: 0 }), { code: 'NONCE_EXPIRED' });
    const poor = ethers.Wallet.createRandom().connect(l1);
    await assert.rejects(poor.sendTransaction({ to, value: 1n, gasLimit: 21_000n }), {
      code: 'INSUFFICIENT_FUNDS',
    });
    await assert.rejects(l1.resolveName('shop.eth'), { code: 'UNSUPPORTED_OPERATION' });
  });

  it('decodes reverts, custom errors and panics, and delivers events by filter and subscription', async () => {
    const { Shop } = compile(SOURCE);
    const signer = new ethers.NonceManager(new ethers.Wallet(EWOQ_EVM_KEY, l1));
    const shop = (await new ethers.ContractFactory(Shop.abi as any, Shop.bytecode, signer).deploy()) as any;
    await shop.waitForDeployment();

    await assert.rejects(shop.buy.staticCall(100), (e: any) => {
      assert.equal(e.code, 'CALL_EXCEPTION');
      assert.equal(e.reason, 'no such item');
      assert.equal(e.revert.name, 'Error');
      assert.equal(e.invocation.method, 'buy');
      return true;
    });
    await assert.rejects(shop.reserve.staticCall(4), (e: any) => {
      assert.equal(e.revert.name, 'SoldOut');
      assert.deepEqual([...e.revert.args], [4n, 'gone']);
      return true;
    });
    await assert.rejects(shop.share(0), (e: any) => {
      assert.deepEqual([e.revert.name, e.revert.args[0]], ['Panic', 0x12]);
      return true;
    });

    const ws = new ethers.WebSocketProvider(l1Ws);
    const polled: bigint[] = [];
    const pushed: bigint[] = [];
    await shop.on('Bought', (_buyer: string, item: bigint) => polled.push(item));
    await new ethers.Contract(await shop.getAddress(), Shop.abi as any, ws).on(
      'Bought',
      (_buyer: string, item: bigint) => pushed.push(item),
    );
    const start = await l1.getBlockNumber();
    for (const item of [1n, 2n, 3n]) await (await shop.buy(item)).wait();
    const deadline = Date.now() + 10_000;
    while ((polled.length < 3 || pushed.length < 3) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(polled, [1n, 2n, 3n]);
    assert.deepEqual(pushed, [1n, 2n, 3n]);
    const found = await shop.queryFilter(shop.filters.Bought(EWOQ_EVM), start + 1, 'latest');
    assert.deepEqual(
      found.map((e: any) => e.args.item),
      [1n, 2n, 3n],
    );
    await shop.removeAllListeners();
    await ws.destroy();
    // ethers uninstalls the polling filter without waiting for the answer: let it arrive.
    await new Promise((r) => setTimeout(r, 300));
  });

  it('suggests the tip coreth’s oracle does: the 40th percentile of the last 80 seconds’ tips', async () => {
    // Run last: it moves the devnet clock. The C-chain has carried no transaction before.
    const signer = new ethers.NonceManager(new ethers.Wallet(EWOQ_EVM_KEY, c));
    const send = async (tip: bigint) =>
      (await signer.sendTransaction({ to: EWOQ_EVM, maxPriorityFeePerGas: tip, maxFeePerGas: tip + 10n }))
        .wait()
        .then((r) => assert.equal(r!.status, 1));
    const GWEI = 1_000_000_000n;
    for (const tip of [1n, 1n, 2n * GWEI, 2n * GWEI, 2n * GWEI]) await send(tip);
    // Tips 1, 1, 2, 2, 2 gwei: the 40th percentile is the second (the 60th would be 2 gwei).
    assert.equal((await c.getFeeData()).maxPriorityFeePerGas, 1n);
    // Blocks more than 80 s old leave the window: only the newest block's tip is left.
    await call(net.facts.urls.pChain, 'platform.advanceTime', { seconds: 100 });
    await send(7n * GWEI);
    assert.equal((await c.getFeeData()).maxPriorityFeePerGas, 7n * GWEI);
    assert.equal(BigInt(await c.send('eth_maxPriorityFeePerGas', [])), 7n * GWEI);
  });
});

/**
 * A dapp and wallet developer's day through viem alone, on the C-chain and on a Subnet-EVM L1
 * (whose 25 gwei minimum base fee makes fee caps matter): the typed errors viem makes of the
 * node's words (it matches geth's message text), reverts decoded from the data in `error.data`,
 * the `eth_fillTransaction` path viem's transaction preparation takes first, signatures checked
 * by deployless calls (ERC-1271 and ERC-6492), and a replaced transaction seen by
 * `waitForTransactionReceipt`. Each answer is what coreth/subnet-evm give.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BaseError,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  keccak256,
  serializeErc6492Signature,
  serializeTransaction,
  type Abi,
  type Address,
  type Hex,
  type Chain,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { compile, createSubnetEvmChain, EWOQ_EVM_KEY, feeFloorGenesis } from './subnet-evm-helpers.js';

const L1_CHAIN_ID = 77_124;
const MIN_BASE_FEE = 25_000_000_000n;
const ewoq = privateKeyToAccount(EWOQ_EVM_KEY);

/** The names of an error and its causes, outermost first, as viem chains them. */
function causes(err: unknown): string[] {
  const out: string[] = [];
  for (let e = err as any; e; e = e.cause) out.push(e.name);
  return out;
}

function chainOf(id: number, url: string): Chain {
  return defineChain({
    id,
    name: `chain ${id}`,
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
}

describe('viem dapp on the C-chain and an L1', () => {
  let net: Devnet;
  let c: PublicClient;
  let l1: PublicClient;
  let chains: { c: Chain; l1: Chain };

  before(async () => {
    net = await startDevnet();
    const { chainId } = await createSubnetEvmChain(net.url, feeFloorGenesis(L1_CHAIN_ID, MIN_BASE_FEE));
    const l1Url = `${net.url}/ext/bc/${chainId}/rpc`;
    chains = { c: chainOf(43112, net.facts.urls.cChainRpc), l1: chainOf(L1_CHAIN_ID, l1Url) };
    const client = (chain: Chain) =>
      createPublicClient({ chain, transport: http(), cacheTime: 0, pollingInterval: 50 }) as PublicClient;
    c = client(chains.c);
    l1 = client(chains.l1);
  });
  after(async () => {
    await net?.stop();
  });

  it('refuses a call whose tip is above its fee cap in geth’s words, which viem types as TipAboveFeeCapError', async () => {
    for (const client of [c, l1]) {
      const to = privateKeyToAccount(generatePrivateKey()).address;
      // A tip alone: geth's ToMessage leaves the fee cap at 0, so the tip is above it. The
      // sender holds nothing: geth's preCheck refuses the fees before buyGas looks at funds.
      const poor = privateKeyToAccount(generatePrivateKey()).address;
      const err = await client.call({ account: poor, to, maxPriorityFeePerGas: 2n }).catch((e) => e);
      assert.deepEqual(causes(err).slice(0, 2), ['CallExecutionError', 'TipAboveFeeCapError']);
      assert.equal(
        (err as BaseError).details,
        `err: max priority fee per gas higher than max fee per gas: address ${poor}, maxPriorityFeePerGas: 2, maxFeePerGas: 0 (supplied gas 50000000)`,
      );
      // Both fees named (viem checks the pair itself, so ask the node directly).
      const base = { from: ewoq.address, to, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' };
      for (const [method, words] of [
        ['eth_call', 'err: %s (supplied gas 50000000)'],
        ['eth_estimateGas', `failed with ${client === c ? 50_000_000 : 15_000_000} gas: %s`],
      ] as const) {
        const refused = await client.request({ method, params: [base] } as any).catch((e) => e);
        assert.equal(
          refused.details,
          words.replace(
            '%s',
            `max priority fee per gas higher than max fee per gas: address ${ewoq.address}, maxPriorityFeePerGas: 2, maxFeePerGas: 1`,
          ),
          method,
        );
      }
    }
  });

  it('answers gasPrice beside EIP-1559 fees, and data beside a different input, as geth: -32000, and calls run input', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const both = { from: ewoq.address, to, gasPrice: '0x5', maxFeePerGas: '0x5' };
    const methods = ['eth_call', 'eth_estimateGas', 'eth_createAccessList', 'eth_fillTransaction'];
    for (const method of methods) {
      // Not a decoding error (-32602, InvalidParamsRpcError) but ToMessage's or setFeeDefaults'.
      const err = await c.request({ method, params: [both] } as any).catch((e) => e);
      assert.equal(err.name, 'InvalidInputRpcError', method);
      assert.equal(err.details, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    }
    // A call runs `input` (args.data()); only setDefaults refuses the pair, for what it completes.
    const pair = { from: ewoq.address, to, data: '0x01', input: '0x0202' };
    assert.equal(await c.request({ method: 'eth_estimateGas', params: [pair] } as any), '0x52cd');
    assert.equal(await c.request({ method: 'eth_call', params: [pair] } as any), '0x');
    for (const method of ['eth_createAccessList', 'eth_fillTransaction', 'eth_sendTransaction']) {
      const err = await c.request({ method, params: [pair] } as any).catch((e) => e);
      assert.equal(err.name, 'InvalidInputRpcError', method);
      assert.equal(
        err.details,
        'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
      );
    }
    // The same bytes written twice are one input.
    const same = { ...pair, data: '0xABCD', input: '0xabcd' };
    const filled: any = await c.request({ method: 'eth_fillTransaction', params: [same] } as any);
    assert.equal(filled.tx.input, '0xabcd');
  });

  it('completes eth_createAccessList as coreth’s setDefaults, and names a refused run by its transaction’s hash', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    const ask = (client: PublicClient, tx: Record<string, unknown>) =>
      client.request({ method: 'eth_createAccessList', params: [tx] } as any).catch((e) => e);
    // setFeeDefaults' checks, before anything runs.
    for (const [fees, words] of [
      [
        { maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' },
        'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)',
      ],
      [{ maxFeePerGas: '0x0', maxPriorityFeePerGas: '0x0' }, 'maxFeePerGas must be non-zero'],
      [{ gasPrice: '0x0' }, 'gasPrice must be non-zero after london fork'],
    ] as const) {
      const err = await ask(c, { from: poor, to, ...fees });
      assert.equal(err.details, words);
    }
    assert.equal((await ask(c, { from: poor })).details, 'contract creation without any data provided');
    assert.equal(
      (await ask(c, { from: poor, to, chainId: '0x1' })).details,
      "chainId does not match node's (have=1, want=43112)",
    );
    // A tip alone gets the fee cap tip + 2 × the head's base fee, so the run is priced: the
    // sender must hold 50M gas at that cap.
    const { baseFeePerGas } = await c.getBlock();
    const maxFeePerGas = 2n + 2n * baseFeePerGas!;
    const unsigned = serializeTransaction(
      {
        type: 'eip1559',
        chainId: 43112,
        nonce: 0,
        gas: 50_000_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: 2n,
        to,
        value: 0n,
        accessList: [],
      },
      { r: '0x0', s: '0x0', yParity: 0 },
    );
    assert.equal(
      (await ask(c, { from: poor, to, maxPriorityFeePerGas: '0x2' })).details,
      `failed to apply transaction: ${keccak256(unsigned)} err: insufficient funds for gas * price + value: address ${poor} have 0 want ${50_000_000n * maxFeePerGas}`,
    );
    // On the L1 a fee cap below its base fee reaches the run, which refuses it.
    const low = await ask(l1, { from: poor, to, maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' });
    assert.match(
      low.details,
      new RegExp(
        `^failed to apply transaction: 0x[0-9a-f]{64} err: max fee per gas less than block base fee: address ${poor}, maxFeePerGas: 1000000000, baseFee: ${MIN_BASE_FEE}$`,
      ),
    );
    // A request naming no fee runs unpriced, as a call (a deliberate difference).
    const list = await c.createAccessList({ account: poor, to });
    assert.equal(list.gasUsed, 21_000n);
  });

  it('pools no transaction offering a tip under 1 wei, as coreth and subnet-evm (tx-pool-price-limit)', async () => {
    for (const [client, chain] of [
      [c, chains.c],
      [l1, chains.l1],
    ] as const) {
      const wallet = createWalletClient({ account: ewoq, chain, transport: http() });
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const { baseFeePerGas } = await client.getBlock();
      const cap = 2n * baseFeePerGas! + 1n;
      for (const fees of [
        { maxFeePerGas: cap, maxPriorityFeePerGas: 0n },
        { gasPrice: 0n, type: 'legacy' as const },
      ]) {
        const err = await wallet.sendTransaction({ to, value: 1n, gas: 21_000n, ...fees }).catch((e) => e);
        assert.equal((err as BaseError).details, 'transaction underpriced: gas tip cap 0, minimum needed 1');
      }
      // One wei is enough.
      const hash = await wallet.sendTransaction({
        to,
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: cap,
        maxPriorityFeePerGas: 1n,
      });
      assert.equal((await client.waitForTransactionReceipt({ hash })).status, 'success');
    }
  });

  it('gives viem the words it types: nonce, funds, intrinsic gas, a fee cap under an L1’s base fee, and reverts with their data', async () => {
    const wallet = createWalletClient({ account: ewoq, chain: chains.l1, transport: http() });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const poor = createWalletClient({
      account: privateKeyToAccount(generatePrivateKey()),
      chain: chains.l1,
      transport: http(),
    });
    // Spend nonce 0 first, so a send naming it is stale.
    await l1.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, value: 1n }) });
    const cases: [() => Promise<unknown>, string][] = [
      [() => wallet.sendTransaction({ to, value: 1n, nonce: 0 }), 'NonceTooLowError'],
      [() => poor.sendTransaction({ to, value: 1n }), 'InsufficientFundsError'],
      [() => poor.sendTransaction({ to, value: 1n, gas: 21_000n }), 'InsufficientFundsError'],
      [() => wallet.sendTransaction({ to, value: 1n, gas: 20_000n }), 'IntrinsicGasTooLowError'],
      // The estimate that viem runs first meets the L1's 25 gwei base fee.
      [
        () => wallet.sendTransaction({ to, value: 1n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n }),
        'FeeCapTooLowError',
      ],
    ];
    for (const [send, name] of cases) {
      const err = await send().then(
        () => assert.fail(`${name}: sent`),
        (e) => e,
      );
      assert.equal(causes(err)[1], name, String(err.details));
    }
    // A revert keeps its data (code 3) through eth_fillTransaction, the estimate and the call.
    const revert = '0x08c379a0' + '20'.padStart(64, '0') + '02'.padStart(64, '0') + '6e6f'.padEnd(64, '0');
    // Runtime code storing Error("no")'s 100 bytes in four words and reverting with them, and a
    // creation that returns it (CODECOPY from just past its own 10 bytes).
    const words = [0, 1, 2, 3].map((i) => revert.slice(2 + 64 * i, 66 + 64 * i).padEnd(64, '0'));
    const runtime = `7f${words[0]}5f527f${words[1]}6020527f${words[2]}6040527f${words[3]}60605260645ffd`;
    const size = (runtime.length / 2).toString(16).padStart(2, '0');
    const init = `0x60${size}600a5f3960${size}5ff3${runtime}` as const;
    const deployed = await l1.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: [], bytecode: init }),
    });
    const target = deployed.contractAddress!;
    for (const attempt of [
      () => wallet.sendTransaction({ to: target }),
      () => l1.estimateGas({ account: ewoq, to: target }),
      () => l1.call({ account: ewoq, to: target }),
    ]) {
      const err = await attempt().then(
        () => assert.fail('ran'),
        (e) => e,
      );
      const reverted = (err as BaseError).walk((e: any) => e?.code === 3) as any;
      assert.equal(reverted?.data, revert);
      assert.equal(
        (err as BaseError).walk((e: any) => e?.name === 'ExecutionRevertedError')?.name,
        'ExecutionRevertedError',
      );
    }
  });

  it('checks ERC-1271 and counterfactual ERC-6492 signatures by deployless calls, and sees a queued tx repriced', async () => {
    const { Wallet, Factory } = compile(`
      // SPDX-License-Identifier: MIT
      pragma solidity ^0.8.20;
      contract Wallet {
        address owner;
        constructor(address o) { owner = o; }
        function isValidSignature(bytes32 h, bytes calldata s) external view returns (bytes4) {
          (bytes32 r, bytes32 ss) = abi.decode(s[:64], (bytes32, bytes32));
          return ecrecover(h, uint8(s[64]), r, ss) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
        }
      }
      contract Factory {
        function deploy(address o, bytes32 salt) external returns (address) { return address(new Wallet{salt: salt}(o)); }
        function predict(address o, bytes32 salt) external view returns (address) {
          bytes32 code = keccak256(abi.encodePacked(type(Wallet).creationCode, abi.encode(o)));
          return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, code)))));
        }
      }`);
    const wallet = createWalletClient({ account: ewoq, chain: chains.c, transport: http() });
    const deploy = async (bytecode: Hex, args: unknown[], abi: Abi) =>
      (await c.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode, args }) }))
        .contractAddress!;
    const owner = privateKeyToAccount(generatePrivateKey());
    const signature = await owner.signMessage({ message: 'gm' });
    // ERC-1271: a deployed contract wallet.
    const deployedWallet = await deploy(Wallet.bytecode, [owner.address], Wallet.abi);
    assert.equal(await c.verifyMessage({ address: deployedWallet, message: 'gm', signature }), true);
    assert.equal(await c.verifyMessage({ address: deployedWallet, message: 'gn', signature }), false);
    // ERC-6492: a wallet not deployed yet, its factory call wrapped around the signature.
    const factory = await deploy(Factory.bytecode, [], Factory.abi);
    const salt = `0x${'01'.repeat(32)}` as Hex;
    const predicted = (await c.readContract({
      address: factory,
      abi: Factory.abi,
      functionName: 'predict',
      args: [owner.address, salt],
    })) as Address;
    const wrapped = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi: Factory.abi, functionName: 'deploy', args: [owner.address, salt] }),
      signature,
    });
    assert.equal(await c.verifyMessage({ address: predicted, message: 'gm', signature: wrapped }), true);
    assert.equal(await c.verifyMessage({ address: predicted, message: 'gn', signature: wrapped }), false);
    assert.equal(await c.getCode({ address: predicted }), undefined);

    // A tx held behind a nonce gap, replaced at a higher fee while viem waits for it.
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const nonce = await c.getTransactionCount({ address: ewoq.address, blockTag: 'pending' });
    const sign = (maxFeePerGas: bigint) =>
      wallet.signTransaction({
        to,
        value: 1n,
        nonce: nonce + 1,
        gas: 21_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: 2n,
      });
    const first = await c.sendRawTransaction({ serializedTransaction: await sign(10n) });
    let reason: string | undefined;
    const waited = c.waitForTransactionReceipt({
      hash: first,
      onReplaced: (r) => (reason = r.reason),
      timeout: 20_000,
    });
    // viem reads the tx it waits for before the replacement comes.
    await new Promise((r) => setTimeout(r, 300));
    // Both caps must rise by 10%: the tip too (2 wei → 3 wei).
    const second = await c.sendRawTransaction({
      serializedTransaction: await wallet.signTransaction({
        to,
        value: 1n,
        nonce: nonce + 1,
        gas: 21_000n,
        maxFeePerGas: 20n,
        maxPriorityFeePerGas: 3n,
      }),
    });
    await wallet.sendTransaction({ to, value: 1n, nonce });
    const receipt = await waited;
    assert.equal(receipt.transactionHash, second);
    assert.equal(reason, 'repriced');
  });
});

/**
 * Multicall3 at its canonical address from genesis: viem's `avalancheFuji` chain, pointed at a
 * devnet that runs as fuji, batches reads through it without being told how (`multicall`), as it
 * does against the public network; the code there is what Multicall3's creation code deploys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, http, parseAbi, type Hex, type PublicClient } from 'viem';
import { avalancheFuji } from 'viem/chains';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { EWOQ } from '../helpers/cchain-clients.js';

/** Multicall3's creation code as viem ships it for deployless calls (not exported, so read). */
function multicall3CreationCode(): Hex {
  const viem = path.dirname(createRequire(import.meta.url).resolve('viem/package.json'));
  const text = fs.readFileSync(path.join(viem, '_esm/constants/contracts.js'), 'utf8');
  return text.match(/multicall3Bytecode = '(0x[0-9a-f]+)'/)![1] as Hex;
}

const abi = parseAbi([
  'function getChainId() view returns (uint256)',
  'function getEthBalance(address) view returns (uint256)',
  'function getBlockNumber() view returns (uint256)',
]);

describe('Multicall3 on the C-chain', () => {
  let net: Devnet;
  let client: PublicClient;
  before(async () => {
    net = await startDevnet({ args: ['--network', 'fuji'] });
    const url = net.facts.urls.cChainRpc;
    client = createPublicClient({
      chain: { ...avalancheFuji, rpcUrls: { default: { http: [url] } } },
      transport: http(url),
      cacheTime: 0,
    }) as PublicClient;
  });
  after(async () => {
    await net?.stop();
  });

  it("serves viem's batched reads at the address viem's fuji chain names", async () => {
    const address = avalancheFuji.contracts.multicall3.address;
    const [chainId, balance, height] = await client.multicall({
      contracts: [
        { address, abi, functionName: 'getChainId' },
        { address, abi, functionName: 'getEthBalance', args: [EWOQ] },
        { address, abi, functionName: 'getBlockNumber' },
      ],
      allowFailure: false,
    });
    assert.equal(chainId, 43113n);
    assert.equal(balance, await client.getBalance({ address: EWOQ }));
    assert.equal(height, await client.getBlockNumber());
  });

  it("holds exactly the code Multicall3's creation code deploys", async () => {
    const address = avalancheFuji.contracts.multicall3.address;
    const deployed = await client.call({ data: multicall3CreationCode() });
    assert.equal(await client.getCode({ address, blockNumber: 0n }), deployed.data);
  });
});

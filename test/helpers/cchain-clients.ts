/**
 * viem clients for a devnet's C-chain as a dapp makes them: the chain definition, a public
 * client that never caches (blocks come faster than viem's cache expires) and a wallet client
 * for the prefunded ewoq key.
 */
import { after, before } from 'node:test';
import { createPublicClient, createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevnet, type Devnet, type DevnetOptions } from './devnet.js';

export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
export const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

export function cChainClients(url: string) {
  const chain = defineChain({
    id: 43112,
    name: 'Flurry C',
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const account = privateKeyToAccount(EWOQ_KEY);
  return {
    chain,
    account,
    client: createPublicClient({ chain, transport: http(url), cacheTime: 0, pollingInterval: 50 }),
    wallet: createWalletClient({ account, chain, transport: http(url) }),
  };
}

/**
 * A devnet for one suite: started before its tests, stopped after them. The fields are set once
 * the suite's `before` has run.
 */
export function cChainSuite(options?: DevnetOptions) {
  const suite = {} as { net: Devnet; url: string } & ReturnType<typeof cChainClients>;
  before(async () => {
    suite.net = await startDevnet(options);
    suite.url = suite.net.facts.urls.cChainRpc;
    Object.assign(suite, cChainClients(suite.url));
  });
  after(async () => {
    await suite.net?.stop();
  });
  return suite;
}

/**
 * The chain-data and metrics services of a devnet started as `--network mainnet`, driven by
 * chainkit configured for mainnet (`network: 'mainnet'`, chain 43114), as code written for the
 * real mainnet services would: every answer names mainnet's network, prefix and chain ids, an
 * address with the test network's prefix is refused, and the test network's names (`fuji`,
 * `testnet`) are the clear 404 of a network the service does not index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { waitIndexed } from './data-helpers.js';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const X_CHAIN = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const PRIMARY = '11111111111111111111111111111111LpoYY';
const EWOQ_AVAX = 'avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5';
const EWOQ_FUJI = 'fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t';

describe('chain-data and metrics services of a mainnet devnet through chainkit', () => {
  let net: Devnet;
  const sdk = new Avalanche({
    network: 'mainnet',
    chainId: '43114',
    enableTelemetry: false,
    retryConfig: { strategy: 'none' },
  });
  const data = () => ({ serverURL: net.facts.urls.data });
  const metrics = () => ({ serverURL: net.facts.urls.metrics });
  /** The status and message of a refused chainkit call. */
  const refusal = async (p: Promise<unknown>): Promise<[number, string]> => {
    const e = (await p.then(
      () => assert.fail('expected a refusal'),
      (err: unknown) => err,
    )) as { statusCode: number; body: string };
    const { message } = JSON.parse(e.body) as { message: string | string[] };
    return [e.statusCode, ([] as string[]).concat(message).join(' ')];
  };

  before(async () => {
    net = await startDevnet({ args: ['--network', 'mainnet'] });
    assert.deepEqual([net.facts.network, net.facts.networkID, net.facts.hrp], ['mainnet', 1, 'avax']);
    await waitIndexed(net.url, net.facts.urls.data);
  });
  after(async () => {
    await net?.stop();
  });

  it("answers the primary-network routes with mainnet's names, prefix and chain ids", async () => {
    const pn = sdk.data.primaryNetwork;
    const balances = await pn.balances.listByAddresses(
      { blockchainId: 'p-chain', addresses: EWOQ_AVAX },
      data(),
    );
    assert.deepEqual(balances.chainInfo, { chainName: 'p-chain', network: 'mainnet' });
    const chains = await pn.getChainIdsForAddresses({ addresses: `X-${EWOQ_AVAX}` }, data());
    assert.deepEqual(chains.addresses, [{ address: EWOQ_AVAX, blockchainIds: [PRIMARY, X_CHAIN] }]);
    const c = await pn.getBlockchainById({ blockchainId: C_CHAIN }, data());
    assert.deepEqual([c.blockchainName, c.evmChainId], ['C-Chain', 43114]);
    const utxos = [];
    for await (const page of await pn.utxos.listByAddresses(
      { blockchainId: 'p-chain', addresses: EWOQ_AVAX },
      data(),
    ))
      utxos.push(...page.result.utxos);
    assert.ok(utxos.length > 0);
    assert.ok(utxos.every((u) => u.addresses.every((a) => a.startsWith('avax1'))));
  });

  it('refuses addresses with the test network prefix', async () => {
    assert.deepEqual(
      await refusal(
        sdk.data.primaryNetwork.balances.listByAddresses(
          { blockchainId: 'p-chain', addresses: EWOQ_FUJI },
          data(),
        ),
      ),
      [400, `address "${EWOQ_FUJI}" is not a mainnet address (prefix avax)`],
    );
  });

  it('answers the test network names with the 404 of a network it does not index', async () => {
    const fuji = new Avalanche({
      network: 'fuji',
      enableTelemetry: false,
      retryConfig: { strategy: 'none' },
    });
    for (const network of ['fuji', 'testnet'] as const) {
      const notIndexed = [404, `network "${network}" is not indexed by this service (it indexes mainnet)`];
      assert.deepEqual(
        await refusal(fuji.data.primaryNetwork.getNetworkDetails({ network }, data())),
        notIndexed,
      );
      assert.deepEqual(
        await refusal(
          fuji.data.primaryNetwork.balances.listByAddresses(
            { network, blockchainId: 'p-chain', addresses: EWOQ_FUJI },
            data(),
          ),
        ),
        notIndexed,
      );
      // The staking metrics too, naming the network as the request did.
      assert.deepEqual(
        await refusal(
          sdk.metrics.networks.getStakingMetrics({ network, metric: 'validatorCount' }, metrics()),
        ),
        notIndexed,
      );
    }
    assert.equal((await refusal(sdk.data.evm.chains.get({ chainId: '43113' }, data())))[0], 404);
  });

  it('lists the C-chain as 43114, not a testnet, in the data and metrics services', async () => {
    const { chains } = await sdk.data.evm.chains.list({}, data());
    assert.deepEqual(
      chains.map((ch) => [ch.chainId, ch.platformChainId, ch.isTestnet]),
      [['43114', C_CHAIN, false]],
    );
    assert.deepEqual((await sdk.data.evm.chains.list({ network: 'fuji' }, data())).chains, []);
    const listed = [];
    for await (const page of await sdk.metrics.chains.list({}, metrics())) listed.push(...page.result.chains);
    assert.deepEqual(
      listed.map((ch) => [ch.evmChainId, ch.blockchainId, ch.network]),
      [[43114, C_CHAIN, 'mainnet']],
    );
  });

  it('reads the C-chain under the metrics chain id mainnet, and staking metrics under network mainnet', async () => {
    const series = async (chainId: string) => {
      const values: number[] = [];
      for await (const page of await sdk.metrics.chains.getMetrics(
        { chainId, metric: 'cumulativeTxCount', timeInterval: 'day' },
        metrics(),
      ))
        values.push(...page.result.results.map((r) => r.value));
      return values;
    };
    assert.deepEqual(await series('mainnet'), await series('43114'));
    assert.deepEqual(await series('testnet'), []);
    const staking = [];
    for await (const page of await sdk.metrics.networks.getStakingMetrics(
      { network: 'mainnet', metric: 'validatorCount' },
      metrics(),
    ))
      staking.push(...page.result.results);
    assert.equal(staking[0]?.value, 5, 'the five genesis validators');
    // The mainnet-only BTC.b route answers (no bridgers on a devnet).
    const bridgers = [];
    for await (const page of await sdk.metrics.chains.listBTCbBridgersAboveThreshold(
      { threshold: '0' },
      metrics(),
    ))
      bridgers.push(...page.result.addresses);
    assert.deepEqual(bridgers, []);
  });
});

/**
 * The chain-data service of a default `flurry start` (network `local`) through the spec's
 * clients, which can only name mainnet, fuji or testnet (chainkit's network is a closed enum, in
 * the request and in `chainInfo`): the devnet answers the primary-network routes under `fuji` and
 * `testnet` as under `local`, takes the prefunded key's addresses with its own prefix or the test
 * network's, reports the name it was asked by, and still refuses `mainnet` with a 404. An API key
 * allowed only the `local` network may ask under `fuji`; one allowed only mainnet may not, nor
 * read the devnet's EVM chains.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { pvm, utils } from '@avalabs/avalanchejs';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { collectPages, waitIndexed } from './data-helpers.js';
import { EWOQ_ADDR } from './pchain-helpers.js';

const LOCAL_KEY = 'local-only-key';
const MAINNET_KEY = 'mainnet-only-key';

describe('chain-data service of a local devnet under the test network names', () => {
  let net: Devnet;
  let data: string;
  let nodeUtxoIds: string[];
  const sdk = (network: 'fuji' | 'testnet', apiKey?: string) =>
    new Avalanche({ network, apiKey, enableTelemetry: false, retryConfig: { strategy: 'none' } });
  // chainkit's data operations take their server per call: the SDK-wide serverURL does not reach them.
  const at = () => ({ serverURL: data });

  before(async () => {
    const dir = tempDir();
    const keys = path.join(dir, 'keys.json');
    fs.writeFileSync(
      keys,
      JSON.stringify({
        tiers: { dev: { cuPerMinute: 1_000_000 } },
        keys: [
          { key: LOCAL_KEY, tier: 'dev', networks: ['local'] },
          { key: MAINNET_KEY, tier: 'dev', networks: ['mainnet'] },
        ],
      }),
    );
    net = await startDevnet({ args: ['--api-keys-file', keys] });
    assert.equal(net.facts.network, 'local');
    data = net.facts.urls.data;
    await waitIndexed(net.url, data);
    const { utxos } = await new pvm.PVMApi(net.url).getUTXOs({
      addresses: [utils.format('P', 'local', EWOQ_ADDR)],
    });
    nodeUtxoIds = utxos.map((u) => u.ID()).sort();
    assert.ok(nodeUtxoIds.length > 0, 'the prefunded key holds P-chain UTXOs');
  });
  after(async () => {
    await net?.stop();
  });

  for (const network of ['fuji', 'testnet'] as const)
    for (const hrp of ['local', 'fuji'])
      it(`lists the prefunded key's P-chain UTXOs under ${network} with ${hrp} addresses`, async () => {
        const address = utils.format('P', hrp, EWOQ_ADDR);
        const walk = await sdk(network).data.primaryNetwork.utxos.listByAddressesV2(
          {
            blockchainId: 'p-chain',
            primaryNetworkAddressesBodyDto: { addresses: address },
            pageSize: 1,
          },
          at(),
        );
        const { items, pages } = await collectPages<any>(
          (async function* () {
            for await (const page of walk) {
              // chainkit has checked chainInfo against its closed enum; it names what was asked.
              assert.deepEqual(page.result.chainInfo, { chainName: 'p-chain', network });
              yield page;
            }
          })(),
          'utxos',
        );
        assert.equal(pages, items.length);
        // The node's UTXO set, plus the outputs staked by the five genesis validators.
        const unstaked = items.filter((u) => !u.staked);
        assert.deepEqual(unstaked.map((u) => u.utxoId).sort(), nodeUtxoIds);
        assert.equal(items.length - unstaked.length, 5);
        for (const u of items)
          assert.deepEqual(u.addresses, [utils.format('P', 'local', EWOQ_ADDR).slice(2)]);
      });

  it('answers balances and validators under fuji as under local', async () => {
    const address = utils.format('P', 'fuji', EWOQ_ADDR);
    const balances = await sdk('fuji').data.primaryNetwork.balances.listByAddresses(
      {
        blockchainId: 'p-chain',
        addresses: address,
      },
      at(),
    );
    assert.equal(balances.chainInfo.network, 'fuji');
    const local = (await (
      await fetch(`${data}/v1/networks/local/blockchains/p-chain/balances?addresses=${address}`)
    ).json()) as any;
    assert.equal(local.chainInfo.network, 'local');
    assert.deepEqual(balances.balances, local.balances);
    assert.ok(BigInt((balances.balances as any).unlockedUnstaked[0].amount) > 0n);

    const validators = await sdk('testnet').data.primaryNetwork.listValidators({ pageSize: 100 }, at());
    const fromLocal = (await (
      await fetch(`${data}/v1/networks/local/validators?pageSize=100`)
    ).json()) as any;
    assert.equal(validators.result.validators.length, 5, 'the five genesis validators');
    assert.deepEqual(
      validators.result.validators.map((v: any) => v.nodeId),
      fromLocal.validators.map((v: any) => v.nodeId),
    );
  });

  it('still refuses mainnet, and mainnet addresses, in the error shape', async () => {
    const mainnet = await fetch(`${data}/v1/networks/mainnet/blockchains/p-chain/utxos?addresses=P-local1x`);
    assert.equal(mainnet.status, 404);
    assert.deepEqual(Object.keys((await mainnet.json()) as object).sort(), [
      'error',
      'message',
      'statusCode',
    ]);
    const avaxAddress = utils.format('P', 'avax', EWOQ_ADDR);
    const res = await fetch(`${data}/v1/networks/fuji/blockchains/p-chain/utxos?addresses=${avaxAddress}`);
    assert.equal(res.status, 400);
    const body = (await res.json()) as any;
    assert.equal(body.statusCode, 400);
    // It names both prefixes the devnet takes.
    assert.match(body.message, /not a local address \(prefix local or fuji\)/);
  });

  it('checks an API key against the devnet, whatever name the request used', async () => {
    const address = utils.format('P', 'local', EWOQ_ADDR);
    const ok = await sdk('fuji', LOCAL_KEY).data.primaryNetwork.utxos.listByAddressesV2(
      {
        blockchainId: 'p-chain',
        primaryNetworkAddressesBodyDto: { addresses: address },
      },
      at(),
    );
    assert.ok(ok.result.utxos.length > 0);
    const refused = await fetch(`${data}/v1/networks/fuji/blockchains/p-chain/utxos?addresses=${address}`, {
      headers: { 'x-glacier-api-key': MAINNET_KEY },
    });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as any).error, 'Forbidden');
  });

  it("checks an API key against an EVM chain's network", async () => {
    const c = net.facts.chains.C;
    const evm = net.facts.keys[0].evmAddress;
    for (const chainId of [String(c.evmChainId), c.blockchainID]) {
      const path = `${data}/v1/chains/${chainId}/addresses/${evm}/balances:getNative`;
      const as = (key: string) => fetch(path, { headers: { 'x-data-api-key': key } });
      const allowed = await as(LOCAL_KEY);
      assert.equal(allowed.status, 200);
      assert.equal(((await allowed.json()) as any).nativeTokenBalance.chainId, String(c.evmChainId));
      const refused = await as(MAINNET_KEY);
      assert.equal(refused.status, 403);
      const body = (await refused.json()) as any;
      assert.deepEqual([body.statusCode, body.error], [403, 'Forbidden']);
      assert.match(body.message, /local network/);
    }
    // A chain nobody indexes is the route's 404, whatever the key.
    const unknown = await fetch(`${data}/v1/chains/999999/addresses/${evm}/balances:getNative`, {
      headers: { 'x-data-api-key': MAINNET_KEY },
    });
    assert.equal(unknown.status, 404);
  });
});

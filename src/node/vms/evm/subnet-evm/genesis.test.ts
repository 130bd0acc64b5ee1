import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decayWindow, DEFAULT_FEE_CONFIG, nextBaseFee, parseFeeConfig } from './fee-config.js';
import { parseSubnetEvmGenesis, SubnetEvmGenesisError } from './genesis.js';
import { PrecompileRegistry } from '../precompiles/registry.js';

const ctx = { networkID: 12345, blockchainID: new Uint8Array(32).fill(1) };
const parse = (json: unknown) => parseSubnetEvmGenesis(new TextEncoder().encode(JSON.stringify(json)), ctx);
const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';

describe('Subnet-EVM genesis', () => {
  it('reads chain id, partial fee config, alloc without 0x and precompile activations', () => {
    const g = parse({
      config: {
        chainId: 99,
        feeConfig: { gasLimit: 20_000_000 },
        feeManagerConfig: { blockTimestamp: 0, adminAddresses: [ADMIN] },
        upgrades: {
          precompileUpgrades: [
            { feeManagerConfig: { blockTimestamp: 100, disable: true } },
            { feeManagerConfig: { blockTimestamp: 200, adminAddresses: [] } },
          ],
        },
      },
      alloc: { [ADMIN.slice(2)]: { balance: '0x10' } },
      gasLimit: '0x1000',
    });
    assert.equal(g.chainId, 99);
    assert.equal(g.feeConfig.gasLimit, 20_000_000n);
    assert.equal(g.feeConfig.minBaseFee, DEFAULT_FEE_CONFIG.minBaseFee);
    assert.equal(g.alloc.get(ADMIN)?.balance, 16n);
    assert.equal(g.gasLimit, 0x1000n);
    const registry = new PrecompileRegistry(g.precompiles);
    assert.equal(registry.activeAt(50).length, 1);
    assert.equal(registry.activeAt(150).length, 0);
    assert.equal(registry.activeAt(250)[0].activation, 200);
  });

  it('starts the base fee at the fee config minimum unless the genesis sets baseFeePerGas', () => {
    assert.equal(parse({ config: { chainId: 1 } }).baseFeePerGas, DEFAULT_FEE_CONFIG.minBaseFee);
    const min = 7_000_000_000;
    assert.equal(
      parse({ config: { chainId: 1, feeConfig: { minBaseFee: min } } }).baseFeePerGas,
      BigInt(min),
    );
    assert.equal(
      parse({ config: { chainId: 1 }, baseFeePerGas: '0x3b9aca00' }).baseFeePerGas,
      1_000_000_000n,
    );
  });

  it('names the offending field of a bad genesis', () => {
    const cases: [unknown, RegExp][] = [
      ['nope', /not valid JSON/],
      [[1, 2], /JSON object/],
      [{}, /config is required/],
      [{ config: { chainId: 0 } }, /chainId/],
      [{ config: { chainId: 1, feeConfig: { gasLimit: 0 } } }, /gasLimit = 0/],
      [
        { config: { chainId: 1, txAllowListConfig: { adminAddresses: [ADMIN] } } },
        /blockTimestamp is required/,
      ],
      [
        { config: { chainId: 1, txAllowListConfig: { blockTimestamp: 0, adminAddresses: ['0x12'] } } },
        /array of 0x addresses/,
      ],
      [
        {
          config: {
            chainId: 1,
            upgrades: { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 5, disable: true } }] },
          },
        },
        /not enabled/,
      ],
      [
        { config: { chainId: 1, warpConfig: { blockTimestamp: 0, quorumNumerator: 20 } } },
        /between 33 and 100/,
      ],
      [{ config: { chainId: 1 }, alloc: { xyz: {} } }, /not an address/],
      [{ config: { chainId: 1 }, baseFeePerGas: 'cheap' }, /baseFeePerGas/],
    ];
    for (const [json, pattern] of cases) {
      assert.throws(
        () =>
          typeof json === 'string' ? parseSubnetEvmGenesis(new TextEncoder().encode(json), ctx) : parse(json),
        (err: Error) => err instanceof SubnetEvmGenesisError && pattern.test(err.message),
        String(pattern),
      );
    }
  });
});

describe('Subnet-EVM base fee', () => {
  const c = parseFeeConfig({ minBaseFee: 100, targetGas: 1_000, baseFeeChangeDenominator: 10 });
  it('rises above the target, falls below it, never under the minimum', () => {
    assert.equal(nextBaseFee(c, 1_000n, 2_000n, 1n), 1_100n);
    assert.equal(nextBaseFee(c, 1_000n, 1_000n, 1n), 1_000n);
    assert.equal(nextBaseFee(c, 1_000n, 0n, 1n), 900n);
    assert.equal(nextBaseFee(c, 1_000n, 0n, 30n), 700n, 'one step per quiet window');
    assert.equal(nextBaseFee(c, 101n, 0n, 100n), 100n);
    assert.equal(nextBaseFee(c, 1n, 0n, 1n), 100n, 'a parent below the minimum starts from it');
  });
  it('forgets gas used more than ten seconds ago', () => {
    assert.equal(decayWindow(1_000n, 0n), 1_000n);
    assert.equal(decayWindow(1_000n, 5n), 500n);
    assert.equal(decayWindow(1_000n, 10n), 0n);
  });
});

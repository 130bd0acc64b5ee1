/**
 * `proposervm.*` at `/ext/bc/<chain>/proposervm` (added to the reference node with Granite):
 * `getProposedHeight`, the P-chain height this node would put in the next block of the chain,
 * and `getCurrentEpoch` (ACP-181), the epoch whose P-chain height blocks currently use.
 *
 * The devnet has no Snowman++ wrapper, so both derive from the P-chain itself: the proposed
 * height is its tip, and epochs are fixed windows of the reference's epoch duration counted from
 * genesis, each pinned to the P-chain height at its start. The reference seals an epoch with the
 * first block after its end instead; the numbers differ, the guarantee (one height per epoch) holds.
 */
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import type { ChainContext } from '../chains/chain.js';
import type { PlatformChain } from '../vms/platformvm/chain.js';

/** The reference's `GraniteEpochDuration` on mainnet and Fuji. */
export const EPOCH_SECONDS = 300;

export function createProposerVmEndpoint(ctx: ChainContext): AvalancheEndpoint {
  const platform = () => {
    const p = ctx.chain('P') as PlatformChain | undefined;
    if (!p) throw new Error('the P-chain is not running');
    return p;
  };
  return new AvalancheEndpoint('proposervm').registerAll('proposervm', {
    getProposedHeight: () => ({ height: platform().height().toString() }),
    getCurrentEpoch: () => {
      const genesis = ctx.genesis.startTime;
      const now = Math.max(ctx.clock.nowSeconds(), genesis);
      const index = Math.floor((now - genesis) / EPOCH_SECONDS);
      const startTime = genesis + index * EPOCH_SECONDS;
      return {
        number: String(index + 1),
        startTime: String(startTime),
        pChainHeight: platform().vm.state.heightAtTime(startTime).toString(),
      };
    },
  });
}

/** Mounts the endpoint under every name of a chain (`/ext/bc/<alias>/proposervm`). */
export function mountProposerVm(ctx: ChainContext, aliases: readonly string[]): void {
  ctx.router.mountChain(aliases, 'proposervm', {
    kind: 'avalanche',
    endpoint: createProposerVmEndpoint(ctx),
  });
}

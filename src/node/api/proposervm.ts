/**
 * `proposervm.*` at `/ext/bc/<chain>/proposervm` (added to the reference node with Granite):
 * `getProposedHeight`, the P-chain height this node would put in the next block of the chain,
 * and `getCurrentEpoch` (ACP-181), the epoch whose P-chain height blocks currently use.
 *
 * The devnet has no Snowman++ wrapper, so both derive from the P-chain itself: the proposed
 * height is its tip, and epochs are fixed windows of the reference's epoch duration counted from
 * genesis, each pinned to the P-chain height reached before it began. The reference seals an epoch with the
 * first block after its end instead; the numbers differ, the guarantee (one height per epoch) holds.
 * The proposervm blocks of the block indexes carry the same epochs (`proposerWrapAt`).
 */
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import type { ChainContext } from '../chains/chain.js';
import type { PlatformChain } from '../vms/platformvm/chain.js';
import { epochAt, type ProposerEpoch, type ProposerWrap } from '../index/proposer-block.js';

function platformOf(ctx: ChainContext): PlatformChain {
  const p = ctx.chain('P') as PlatformChain | undefined;
  if (!p) throw new Error('the P-chain is not running');
  return p;
}

/** The epoch of `time` (Unix s), as `getCurrentEpoch` answers while the clock is in it. */
export function epochOf(ctx: ChainContext, time: number): ProposerEpoch {
  const state = platformOf(ctx).vm.state;
  return epochAt(ctx.genesis.startTime, time, (t) => state.heightAtTime(t));
}

/** The P-chain height at `time` (Unix s): the height a block built then was proposed at. */
export function pChainHeightAt(ctx: ChainContext, time: number): bigint {
  return platformOf(ctx).vm.state.heightAtTime(time);
}

/**
 * The proposervm wrapper of a block with time `time` built now: the P-chain height is
 * `pChainHeight`, by default the P-chain tip (`getProposedHeight`), and the epoch that of `time`.
 */
export function proposerWrapAt(ctx: ChainContext, time: number, pChainHeight?: bigint): ProposerWrap {
  return {
    kind: 'block',
    timestamp: BigInt(time),
    pChainHeight: pChainHeight ?? platformOf(ctx).height(),
    epoch: epochOf(ctx, time),
  };
}

export function createProposerVmEndpoint(ctx: ChainContext): AvalancheEndpoint {
  const platform = () => platformOf(ctx);
  return new AvalancheEndpoint('proposervm').registerAll('proposervm', {
    getProposedHeight: () => ({ height: platform().height().toString() }),
    getCurrentEpoch: () => {
      const epoch = epochOf(ctx, ctx.clock.nowSeconds());
      return {
        number: epoch.number.toString(),
        startTime: epoch.startTime.toString(),
        pChainHeight: epoch.pChainHeight.toString(),
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

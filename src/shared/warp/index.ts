/** Warp (ICM) signatures shared by the node (precompile, P-chain, signers) and the aggregator. */
export {
  canonicalValidatorSet,
  type CanonicalValidator,
  type CanonicalValidatorSet,
  type WarpValidatorInput,
} from './validator-set.js';
export { encodeSigners, decodeSigners, BitSetError } from './bitset.js';
export {
  hasQuorum,
  requiredWeight,
  WARP_DEFAULT_QUORUM_NUMERATOR,
  WARP_QUORUM_DENOMINATOR,
} from './quorum.js';
export {
  aggregateSignatures,
  verifyBitSetSignature,
  WarpVerifyError,
  type BitSetSignature,
} from './signature.js';

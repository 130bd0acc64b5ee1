/**
 * Collects validator signatures for one message. Every validator is asked at once; answers are
 * checked optimistically: once the answered weight reaches the target, the candidates' signatures
 * are aggregated and verified in one pairing check (with PoP-registered keys this is sound); only
 * when that fails is each candidate verified alone, and the liars dropped. So the BLS cost is one
 * verification in the common case instead of one per validator. Likewise the subgroup check
 * (about twice the cost of decompressing an answer): it is made on the aggregate being verified,
 * and on each candidate alone only when that fails.
 */
import blst from '@chainsafe/blst';
import { sha256 } from '@noble/hashes/sha2.js';
import type { CanonicalValidatorSet } from '../../shared/warp/index.js';
import { postJson } from '../internal/http-post.js';

export interface ValidatorAnswer {
  index: number;
  /** The signature, verified against the validator's key (alone or within a verified aggregate). */
  signature: blst.Signature;
}

export interface CollectOptions {
  set: CanonicalValidatorSet;
  /** nodeID → base URL of its signature endpoint. */
  addresses: ReadonlyMap<string, string>;
  message: Uint8Array;
  justification: Uint8Array;
  /** Stop once the verified weight reaches this. */
  target: bigint;
  timeoutMs: number;
  /**
   * Signatures earlier aggregations accepted. One accepted within a verified aggregate is not
   * proven valid alone (two answers may cancel each other's error), so a cached signature is a
   * candidate like a fresh answer: it enters the aggregate verified for this message, never the
   * result unchecked.
   */
  cache: ReadonlyMap<string, blst.Signature>;
  remember(key: string, signature: blst.Signature): void;
  /** Drops a cached signature that failed verification on its own. */
  forget(key: string): void;
}

interface Candidate {
  index: number;
  signature: blst.Signature;
  cacheKey: string;
}

/** How long answers still out when the target is reached may take before they are cancelled. */
const STRAGGLER_GRACE_MS = 1_000;

export function collectSignatures(o: CollectOptions): Promise<ValidatorAnswer[]> {
  const messageKey = Buffer.from(sha256(o.message)).toString('hex');
  const controller = new AbortController();
  const verified: ValidatorAnswer[] = [];
  let verifiedWeight = 0n;
  let candidates: Candidate[] = [];
  let candidateWeight = 0n;
  // Every validator gets the same request body: encoded once.
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'acp118.signatureRequest',
    params: {
      message: '0x' + Buffer.from(o.message).toString('hex'),
      justification: '0x' + Buffer.from(o.justification).toString('hex'),
    },
  });
  const weightOf = (index: number) => o.set.validators[index].weight;
  const keyOf = (index: number) => o.set.validators[index].key;

  const accept = (c: Candidate) => {
    verified.push({ index: c.index, signature: c.signature });
    verifiedWeight += weightOf(c.index);
    o.remember(c.cacheKey, c.signature);
  };

  /** Verifies the pending candidates: all at once, or one by one when the batch fails. */
  const verifyCandidates = () => {
    const batch = candidates;
    candidates = [];
    candidateWeight = 0n;
    if (batch.length === 0) return;
    const aggregate = blst.aggregateSignatures(
      batch.map((c) => c.signature),
      false,
    );
    const keys = batch.map((c) => keyOf(c.index));
    if (blst.fastAggregateVerify(o.message, keys, aggregate, true)) {
      batch.forEach(accept);
      return;
    }
    for (const [i, c] of batch.entries()) {
      if (blst.verify(o.message, keys[i], c.signature, false, true)) accept(c);
      else o.forget(c.cacheKey);
    }
  };

  return new Promise((resolve) => {
    let outstanding = o.set.validators.length;
    let done = false;
    let cancel: NodeJS.Timeout | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      // Requests still out are cancelled only if they are not answered soon: cancelling closes
      // their kept-alive connections, and the next aggregation would pay to open them again.
      if (outstanding > 0) cancel = setTimeout(() => controller.abort(), STRAGGLER_GRACE_MS).unref();
      resolve(verified);
    };
    const settle = () => {
      outstanding--;
      if (done) {
        if (outstanding === 0) clearTimeout(cancel);
        return;
      }
      if (verifiedWeight + candidateWeight >= o.target || outstanding === 0) verifyCandidates();
      if (verifiedWeight >= o.target || outstanding === 0) finish();
    };
    if (outstanding === 0) return finish();
    o.set.validators.forEach((validator, index) => {
      const cacheKey = messageKey + ':' + Buffer.from(validator.publicKey).toString('hex');
      const cached = o.cache.get(cacheKey);
      if (cached) {
        candidates.push({ index, signature: cached, cacheKey });
        candidateWeight += validator.weight;
        queueMicrotask(settle);
        return;
      }
      const url = validator.nodeIDs.map((id) => o.addresses.get(id)).find((u) => u !== undefined);
      if (!url) {
        queueMicrotask(settle);
        return;
      }
      requestSignature(url, body, o.timeoutMs, controller.signal)
        .then((bytes) => {
          if (!bytes || done) return;
          let signature: blst.Signature;
          try {
            // Decompression (a point on the curve): a malformed answer is dropped here.
            signature = blst.Signature.fromBytes(bytes, false);
          } catch {
            return;
          }
          candidates.push({ index, signature, cacheKey });
          candidateWeight += validator.weight;
        })
        .catch(() => undefined)
        .finally(settle);
    });
  });
}

/** Asks one validator (`body`: the acp118.signatureRequest call) for its signature. */
async function requestSignature(
  baseUrl: string,
  body: string,
  timeoutMs: number,
  cancel: AbortSignal,
): Promise<Uint8Array | undefined> {
  const res = await postJson(`${baseUrl}/ext/acp118`, body, { timeoutMs, signal: cancel });
  const answer = JSON.parse(res.text) as { result?: { signature?: string } };
  const hex = answer.result?.signature;
  if (!hex) return undefined;
  const bytes = Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
  // An all-zero or empty signature means "not seen yet" to the reference aggregator.
  return bytes.length === 96 && bytes.some((b) => b !== 0) ? bytes : undefined;
}

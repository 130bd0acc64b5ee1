/**
 * Collects validator signatures for one message. Every validator is asked at once; answers are
 * checked optimistically: once the answered weight reaches the target, the candidates' signatures
 * are aggregated and verified in one pairing check (with PoP-registered keys this is sound); only
 * when that fails is each candidate verified alone, and the liars dropped. So the BLS cost is one
 * verification in the common case instead of one per validator.
 */
import blst from '@chainsafe/blst';
import { sha256 } from '@noble/hashes/sha2.js';
import type { CanonicalValidatorSet } from '../../shared/warp/index.js';
import { postJson } from '../internal/http-post.js';

export interface ValidatorAnswer {
  index: number;
  /** 96-byte compressed signature, verified against the validator's key. */
  signature: Uint8Array;
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
  cache: ReadonlyMap<string, Uint8Array>;
  remember(key: string, signature: Uint8Array): void;
}

interface Candidate {
  index: number;
  bytes: Uint8Array;
  signature: blst.Signature;
  cacheKey: string;
}

export function collectSignatures(o: CollectOptions): Promise<ValidatorAnswer[]> {
  const messageKey = Buffer.from(sha256(o.message)).toString('hex');
  const controller = new AbortController();
  const verified: ValidatorAnswer[] = [];
  let verifiedWeight = 0n;
  let candidates: Candidate[] = [];
  let candidateWeight = 0n;
  const messageHex = '0x' + Buffer.from(o.message).toString('hex');
  const justificationHex = '0x' + Buffer.from(o.justification).toString('hex');
  const weightOf = (index: number) => o.set.validators[index].weight;
  const keyOf = (index: number) => o.set.validators[index].key;

  const accept = (c: Candidate) => {
    verified.push({ index: c.index, signature: c.bytes });
    verifiedWeight += weightOf(c.index);
    o.remember(c.cacheKey, c.bytes);
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
    if (
      blst.fastAggregateVerify(
        o.message,
        batch.map((c) => keyOf(c.index)),
        aggregate,
      )
    ) {
      batch.forEach(accept);
      return;
    }
    for (const c of batch) if (blst.verify(o.message, keyOf(c.index), c.signature)) accept(c);
  };

  return new Promise((resolve) => {
    let outstanding = o.set.validators.length;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      controller.abort();
      resolve(verified);
    };
    const settle = () => {
      outstanding--;
      if (done) return;
      if (verifiedWeight + candidateWeight >= o.target || outstanding === 0) verifyCandidates();
      if (verifiedWeight >= o.target || outstanding === 0) finish();
    };
    if (outstanding === 0) return finish();
    o.set.validators.forEach((validator, index) => {
      const cacheKey = messageKey + ':' + Buffer.from(validator.publicKey).toString('hex');
      const cached = o.cache.get(cacheKey);
      if (cached) {
        verified.push({ index, signature: cached });
        verifiedWeight += validator.weight;
        queueMicrotask(settle);
        return;
      }
      const url = validator.nodeIDs.map((id) => o.addresses.get(id)).find((u) => u !== undefined);
      if (!url) {
        queueMicrotask(settle);
        return;
      }
      requestSignature(url, messageHex, justificationHex, o.timeoutMs, controller.signal)
        .then((bytes) => {
          if (!bytes || done) return;
          let signature: blst.Signature;
          try {
            // Decompression with the subgroup check: a malformed answer is dropped here.
            signature = blst.Signature.fromBytes(bytes, true);
          } catch {
            return;
          }
          candidates.push({ index, bytes, signature, cacheKey });
          candidateWeight += validator.weight;
        })
        .catch(() => undefined)
        .finally(settle);
    });
  });
}

async function requestSignature(
  baseUrl: string,
  message: string,
  justification: string,
  timeoutMs: number,
  cancel: AbortSignal,
): Promise<Uint8Array | undefined> {
  const res = await postJson(
    `${baseUrl}/ext/acp118`,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'acp118.signatureRequest',
      params: { message, justification },
    }),
    { timeoutMs, signal: cancel },
  );
  const body = JSON.parse(res.text) as { result?: { signature?: string } };
  const hex = body.result?.signature;
  if (!hex) return undefined;
  const bytes = Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
  // An all-zero or empty signature means "not seen yet" to the reference aggregator.
  return bytes.length === 96 && bytes.some((b) => b !== 0) ? bytes : undefined;
}

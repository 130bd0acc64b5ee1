/**
 * The index API (`/ext/index/<chain>/<kind>`): lookups of accepted containers by id and by
 * position, with the spec's rules for `getContainerRange`.
 */
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import { fail } from '../rpc/errors.js';
import { ParamsShapeError, type Params } from '../rpc/params.js';
import { toCheckedHex } from '../../shared/encoding.js';
import type { Container, ContainerIndex } from './container-index.js';

/** An id the index does not hold: the reference passes on its database's error unwrapped. */
const NOT_FOUND = 'not found';

/** Most containers one range call returns. */
export const MAX_FETCH_ITEMS = 1024;

export function formatContainer(c: Container): Record<string, string> {
  return {
    id: c.id,
    bytes: toCheckedHex(c.bytes),
    timestamp: rfc3339Nano(c.timestampMs),
    encoding: 'hex',
    index: c.index.toString(),
  };
}

/** RFC 3339 with the fractional seconds Go's time.RFC3339Nano prints (trailing zeros trimmed). */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-01T00:00:00.123Z
  return iso.replace(/\.(\d+)Z$/, (_m, frac: string) => {
    const trimmed = frac.replace(/0+$/, '');
    return trimmed ? `.${trimmed}Z` : 'Z';
  });
}

function checkEncoding(params: Params): void {
  const encoding = params.optionalString('encoding');
  if (encoding !== undefined && encoding !== '' && encoding.toLowerCase() !== 'hex') {
    fail(`unsupported encoding "${encoding}": the index serves hex only`);
  }
}

/** The `id` param: a malformed or missing one is refused, not reported as "not found". */
function idOf(params: Params): string {
  const id = params.optionalId('id');
  if (id === undefined) throw new ParamsShapeError('id: missing');
  return id;
}

export function createIndexEndpoint(index: ContainerIndex): AvalancheEndpoint {
  const endpoint = new AvalancheEndpoint(`index/${index.name}`);
  endpoint.registerAll('index', {
    getLastAccepted: (params) => {
      checkEncoding(params);
      if (index.size === 0n) fail('no containers have been accepted');
      return formatContainer(index.byIndex(index.size - 1n)!);
    },
    getContainerByIndex: (params) => {
      checkEncoding(params);
      const at = params.uint64('index');
      const c = index.byIndex(at);
      if (!c) fail(`no container at index ${at}`);
      return formatContainer(c);
    },
    getContainerByID: (params) => {
      checkEncoding(params);
      const c = index.byId(idOf(params));
      if (!c) fail(NOT_FOUND);
      return formatContainer(c);
    },
    getContainerRange: (params) => {
      checkEncoding(params);
      const start = params.uint64('startIndex');
      const wanted = params.uint64('numToFetch');
      if (wanted > BigInt(MAX_FETCH_ITEMS))
        fail(`numToFetch must be in [0,${MAX_FETCH_ITEMS}] but is ${wanted}`);
      if (wanted === 0n) return { containers: [] };
      if (index.size === 0n) fail('no containers have been accepted');
      const last = index.size - 1n;
      if (start > last) fail(`start index (${start}) > last accepted index (${last})`);
      return { containers: index.range(start, Number(wanted)).map(formatContainer) };
    },
    getIndex: (params) => {
      checkEncoding(params);
      const c = index.byId(idOf(params));
      if (!c) fail(NOT_FOUND);
      return { index: c.index.toString() };
    },
    isAccepted: (params) => {
      checkEncoding(params);
      return { isAccepted: index.byId(idOf(params)) !== undefined };
    },
  });
  return endpoint;
}

/** What `flurry start` tells its user: every URL, chain id and prefunded key. */
import { chainAddress } from '../shared/crypto/keys.js';
import type { RunningNode } from '../node/node.js';
import type { RunningDataService } from '../data/service.js';

export interface ReadyFacts {
  event: 'ready';
  network: string;
  networkID: number;
  hrp: string;
  nodeID: string;
  dataDir: string;
  startupMs: number;
  urls: Record<string, string>;
  chains: Record<string, { blockchainID: string; evmChainId?: number; rpc: string }>;
  avaxAssetID: string;
  keys: {
    privateKey: string;
    privateKeyCb58: string;
    evmAddress: string;
    xAddress: string;
    pAddress: string;
    cAddress: string;
  }[];
}

export function readyFacts(node: RunningNode, startupMs: number, data?: RunningDataService): ReadyFacts {
  const { network } = node.config;
  const base = node.url;
  const ws = base.replace(/^http/, 'ws');
  return {
    event: 'ready',
    network: network.name,
    networkID: network.networkID,
    hrp: network.hrp,
    nodeID: node.nodeID,
    dataDir: node.config.dataDir,
    startupMs,
    urls: {
      node: base,
      info: `${base}/ext/info`,
      health: `${base}/ext/health`,
      xChain: `${base}/ext/bc/X`,
      pChain: `${base}/ext/bc/P`,
      cChainRpc: `${base}/ext/bc/C/rpc`,
      cChainWs: `${ws}/ext/bc/C/ws`,
      cChainAtomic: `${base}/ext/bc/C/avax`,
      ...(data?.url ? { data: data.url, dataDocs: data.docsUrl! } : {}),
      ...(data?.metricsUrl ? { metrics: data.metricsUrl, metricsDocs: `${data.metricsUrl}/docs` } : {}),
    },
    chains: {
      X: { blockchainID: network.xChainID, rpc: `${base}/ext/bc/X` },
      P: { blockchainID: network.pChainID, rpc: `${base}/ext/bc/P` },
      C: { blockchainID: network.cChainID, evmChainId: network.evmChainID, rpc: `${base}/ext/bc/C/rpc` },
    },
    avaxAssetID: network.avaxAssetID,
    keys: node.genesis.prefunded.map((k) => ({
      privateKey: k.privateKeyHex,
      privateKeyCb58: k.privateKeyCb58,
      evmAddress: k.evmAddress,
      xAddress: chainAddress('X', network.hrp, k.shortAddress),
      pAddress: chainAddress('P', network.hrp, k.shortAddress),
      cAddress: chainAddress('C', network.hrp, k.shortAddress),
    })),
  };
}

export function formatBanner(facts: ReadyFacts): string {
  const lines = [
    '',
    `  Flurry devnet — ${facts.network} (network ID ${facts.networkID}), ready in ${facts.startupMs} ms`,
    `  Node ${facts.nodeID}   data: ${facts.dataDir}`,
    '',
    '  Endpoints',
    ...Object.entries(facts.urls).map(([k, v]) => `    ${k.padEnd(14)} ${v}`),
    '',
    '  Chains',
    ...Object.entries(facts.chains).map(
      ([alias, c]) =>
        `    ${alias}  ${c.blockchainID}${c.evmChainId ? `  (EVM chain ID ${c.evmChainId})` : ''}`,
    ),
    `    native asset  ${facts.avaxAssetID}`,
    '',
    '  Prefunded keys (X, P and C)',
    ...facts.keys.flatMap((k, i) => [
      `    (${i}) ${k.privateKey}`,
      `        ${k.privateKeyCb58}`,
      `        ${k.evmAddress}  ${k.xAddress}`,
    ]),
    '',
    '  Ctrl-C stops the network; state stays in the data dir.',
    '',
  ];
  return lines.join('\n');
}

/** The ready line of the `indexer` and `api` roles (no node in the process). */
export interface DataReadyFacts {
  event: 'ready';
  role: string;
  network: string;
  networkID: number;
  database: string;
  startupMs: number;
  urls: Record<string, string>;
  /** `api --workers N`: processes serving these URLs together. */
  workers?: number;
}

export function dataReadyFacts(role: string, data: RunningDataService, startupMs: number): DataReadyFacts {
  return {
    event: 'ready',
    role,
    network: data.network.name,
    networkID: data.network.networkID,
    database: data.database.location,
    startupMs,
    urls: {
      ...(data.url ? { data: data.url, dataDocs: data.docsUrl! } : {}),
      ...(data.metricsUrl ? { metrics: data.metricsUrl, metricsDocs: `${data.metricsUrl}/docs` } : {}),
    },
  };
}

export function formatDataBanner(facts: DataReadyFacts): string {
  return [
    '',
    `  Flurry ${facts.role} — ${facts.network} (network ID ${facts.networkID}), ready in ${facts.startupMs} ms`,
    `  Store ${facts.database}`,
    ...(facts.workers ? [`  ${facts.workers} worker processes share the ports below`] : []),
    ...Object.entries(facts.urls).map(([k, v]) => `    ${k.padEnd(14)} ${v}`),
    '',
  ].join('\n');
}

/**
 * `npm run bench`: every performance figure the issues name, printed side by side with the peer
 * where one runs here. Each suite is a module exporting `run(): Promise<BenchResult[]>`.
 */
import { startupBench } from './startup.js';
import { xchainBench } from './xchain.js';
import { pchainBench } from './pchain.js';
import { aggregatorBench } from './aggregator.js';
import { evmDataBench } from './evm-data.js';
import { dataBench } from './data.js';
import { evmBench } from './evm.js';
import { warpBench } from './warp.js';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Target from the issue, when one is named. */
  target?: string;
  /** Peer figures measured in the same run, for ratios. */
  peers?: { name: string; value: number }[];
  note?: string;
}

const suites: { name: string; run: () => Promise<BenchResult[]> }[] = [
  { name: 'startup', run: startupBench },
  { name: 'xchain', run: xchainBench },
  { name: 'pchain', run: pchainBench },
  { name: 'aggregator', run: aggregatorBench },
  { name: 'evm-data', run: evmDataBench },
  { name: 'data', run: dataBench },
  { name: 'evm', run: evmBench },
  { name: 'warp', run: warpBench },
];

function print(r: BenchResult): void {
  const peers = (r.peers ?? [])
    .map((p) => `${p.name} ${p.value.toFixed(1)} (ratio ${(r.value / p.value).toFixed(2)}x)`)
    .join(', ');
  console.log(
    `  ${r.name.padEnd(58)} ${r.value.toFixed(1).padStart(10)} ${r.unit.padEnd(8)}${r.target ? ` target ${r.target}` : ''}${peers ? `  vs ${peers}` : ''}${r.note ? `  (${r.note})` : ''}`,
  );
}

const wanted = process.argv.slice(2);
for (const suite of suites) {
  if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
  console.log(`\n${suite.name}`);
  for (const r of await suite.run()) print(r);
}

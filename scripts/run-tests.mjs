// `npm test`: builds the CLI and its bundle (end-to-end tests start the real `flurry` binary),
// then runs every unit test (src/**/*.test.ts) and end-to-end test (test/**/*.test.ts) with
// node's test runner.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const build = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);
const bundle = spawnSync(process.execPath, [path.join(root, 'scripts/bundle.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (bundle.status !== 0) process.exit(bundle.status ?? 1);

function find(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) find(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(path.relative(root, full));
  }
  return out;
}
const only = process.argv.slice(2);
const files =
  only.length > 0 ? only : [...find(path.join(root, 'src')), ...find(path.join(root, 'test'))].sort();
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    '--test-timeout=600000',
    '--test-force-exit',
    ...files,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FLURRY_LOG_LEVEL: process.env.FLURRY_LOG_LEVEL ?? 'warn' },
  },
);
process.exit(run.status ?? 1);

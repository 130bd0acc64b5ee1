#!/usr/bin/env node
// Runs the compiled CLI (built by `npm install` through the `prepare` script): the bundle that
// `npm run build` makes (dist/bundle/, a fraction of the unbundled start-up), or dist/ as tsc
// compiled it when that is newer (a build without the bundling step).
import fs from 'node:fs';

const mtime = (file) => {
  try {
    return fs.statSync(new URL(file, import.meta.url)).mtimeMs;
  } catch {
    return -1;
  }
};
if (mtime('../dist/bundle/main.js') < 0 && mtime('../dist/cli/main.js') < 0) {
  // A checkout that was never built (cloned, then run; or installed with --ignore-scripts):
  // say what to do rather than fail on a module that does not exist.
  process.stderr.write(
    'flurry: not built yet: run `npm install` (or `npm run build`) in the checkout first\n',
  );
  process.exit(1);
}
const bundled = mtime('../dist/bundle/main.js') >= mtime('../dist/cli/main.js');
const { main } = await import(bundled ? '../dist/bundle/main.js' : '../dist/cli/main.js');

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`flurry: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);

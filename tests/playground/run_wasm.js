// SPDX-License-Identifier: MIT
/*
 * Runs the WebAssembly kfsim (kfsim.js + kfsim.wasm, the module the playground embeds) once per
 * argument vector, in Node, as the page does (src/playground/kfsim_run.js), and prints one JSON
 * array: [{args, status, stdout, stderr, files}] in the order given.
 *
 *   node run_wasm.js KFSIM_JS KFSIM_WASM KFSIM_RUN_JS < requests.json
 * requests.json: [{"args": [...], "read": ["/file", ...]}, ...]
 */
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [kfsimJs, kfsimWasm, runnerJs] = process.argv.slice(2);
  const factory = require(path.resolve(kfsimJs));
  const KfsimRunner = require(path.resolve(runnerJs));
  const requests = JSON.parse(fs.readFileSync(0, 'utf8'));
  const kfsim = await KfsimRunner.create(factory, fs.readFileSync(kfsimWasm));
  const results = [];
  for (const req of requests) {
    const r = await kfsim.run(req.args, {read: req.read || []});
    results.push({args: req.args, status: r.status, stdout: r.stdout, stderr: r.stderr,
                  files: r.files, ms: r.ms});
  }
  process.stdout.write(JSON.stringify(results));
}

main().catch((e) => {
  console.error('run_wasm.js: ' + (e && e.stack || e));
  process.exit(1);
});

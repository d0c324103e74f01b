// SPDX-License-Identifier: MIT
/*
 * Running kfsim's WebAssembly module: one call is one run of the kfsim program, as a process on
 * the native side is.  The module (kfsim.wasm) is compiled once; every call instantiates it anew,
 * so no state of one run (the --kver in force, debug_locks, the printk ring) reaches the next,
 * and main() runs with the call's arguments.  Shared by the playground page and the Node test.
 *
 *   const kfsim = await KfsimRunner.create(kfsimModule, wasmBytes);
 *   const r = await kfsim.run(['rbtree', '--insert', '5,1,3', '--json'], {read: ['/out.svg']});
 *   // r = {status, stdout, stderr, files: {'/out.svg': '<svg...'}, ms}
 */
(function (root) {
  'use strict';

  class KfsimRunner {
    constructor(factory, compiled) {
      this.factory = factory;
      this.compiled = compiled;
    }

    static async create(factory, wasmBytes) {
      return new KfsimRunner(factory, await WebAssembly.compile(wasmBytes));
    }

    /* args: kfsim's argv after the program name; opts.read: files the run writes, to return */
    async run(args, opts = {}) {
      const out = [], err = [];
      let status = null;
      const t0 = (typeof performance !== 'undefined' ? performance : Date).now();
      const compiled = this.compiled;
      const files = {};
      await new Promise((resolve, reject) => {
        this.factory({
          arguments: args.map(String),
          print: (line) => out.push(line),
          printErr: (line) => err.push(line),
          instantiateWasm: (imports, done) => {
            WebAssembly.instantiate(compiled, imports).then((inst) => done(inst), reject);
            return {};
          },
          preRun: [(mod) => {
            for (const [path, text] of Object.entries(opts.write || {}))
              mod.FS.writeFile(path, text);
          }],
          onExit: (code) => {
            status = code;
          },
          quit: (code) => {
            status = code;
          },
        }).then((mod) => {
          for (const path of opts.read || []) {
            try {
              files[path] = mod.FS.readFile(path, {encoding: 'utf8'});
            } catch (e) {
              files[path] = null;
            }
          }
          resolve();
        }, reject);
      });
      const t1 = (typeof performance !== 'undefined' ? performance : Date).now();
      return {status: status === null ? 0 : status, stdout: out.join('\n') + (out.length ? '\n' : ''),
              stderr: err.join('\n') + (err.length ? '\n' : ''), files, ms: t1 - t0};
    }
  }

  if (typeof module !== 'undefined' && module.exports)
    module.exports = KfsimRunner;
  else
    root.KfsimRunner = KfsimRunner;
})(this);

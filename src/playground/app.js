// SPDX-License-Identifier: MIT
/*
 * The playground's panels.  Every number and every decision drawn here comes from a run of the
 * kfsim program compiled to WebAssembly (kfsim_run.js), with the arguments printed under each
 * picture: the page only lays out what kfsim printed (its --json and its Perfetto traces).
 * Between two steps of an insert or an erase, the tree drawn is the one kfsim prints after
 * that step (its "after"), with the checker's verdict on it.
 *
 * For the browser test: window.kfsimPlayground has ready (and readyMs, when it became so, from
 * the page's start), errors, runs, timings ({panel, what, ms} per
 * interaction, from the event to the redrawn picture) and settled() (a promise that resolves when
 * no update is pending).
 */
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const SVGNS = 'http://www.w3.org/2000/svg';
  const pg = window.kfsimPlayground = {ready: false, runs: 0, timings: [], errors: []};
  let pending = Promise.resolve();
  pg.settled = () => pending;

  function el(parent, tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {}))
      e.setAttribute(k, v);
    if (text !== undefined)
      e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  function clear(svg) {
    while (svg.firstChild)
      svg.removeChild(svg.firstChild);
  }

  function status(id, text, kind) {
    const s = $(id);
    s.textContent = text;
    s.className = 'status' + (kind ? ' ' + kind : '');
  }

  function fmt(v, digits) {
    return Number(v).toFixed(digits === undefined ? 1 : digits);
  }

  let kfsim = null;

  async function run(args, opts) {
    pg.runs++;
    return kfsim.run(args, opts);
  }

  async function runJson(args, opts) {
    const r = await run(args, opts);
    if (r.status !== 0)
      throw new Error(r.stderr.trim() || ('kfsim exited ' + r.status));
    return {json: JSON.parse(r.stdout), files: r.files, ms: r.ms};
  }

  /* One update at a time per page; each is timed from the event to the redrawn picture. */
  function interaction(panel, what, fn) {
    const t0 = performance.now();
    pending = pending.then(fn).then(() => {
      pg.timings.push({panel, what, ms: performance.now() - t0});
    }, (e) => {
      pg.errors.push(panel + ': ' + e.message);
      status(panel + '-status', e.message, 'bad');
    });
    return pending;
  }

  function cmdLine(id, args) {
    $(id).textContent = 'kfsim ' + args.map((a) => (/[ ,;]/.test(a) && !a.startsWith('--') ? "'" + a + "'" : a)).join(' ');
  }

  /* A bar chart: groups of bars with a legend; values must be finite and >= 0. */
  function barChart(svg, title, groups, series, unit) {
    clear(svg);
    const W = 540, H = 300, left = 56, right = 12, top = 44, bottom = 40;
    const max = Math.max(1e-9, ...groups.flatMap((g) => g.values));
    el(svg, 'text', {x: W / 2, y: 18, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 600}, title);
    series.forEach((s, i) => {
      const x = left + i * 150;
      el(svg, 'rect', {x, y: 26, width: 12, height: 10, fill: s.color});
      el(svg, 'text', {x: x + 16, y: 35, 'font-size': 11}, s.name);
    });
    const plotW = W - left - right, plotH = H - top - bottom;
    for (let t = 0; t <= 4; t++) {
      const y = top + plotH - (t / 4) * plotH;
      el(svg, 'line', {x1: left, x2: W - right, y1: y, y2: y, stroke: '#e3e6ea'});
      el(svg, 'text', {x: left - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 10}, fmt(max * t / 4, max < 10 ? 2 : 0));
    }
    el(svg, 'text', {x: 12, y: top + plotH / 2, 'font-size': 11, transform: `rotate(-90 12 ${top + plotH / 2})`, 'text-anchor': 'middle'}, unit);
    const gw = plotW / groups.length, bw = Math.max(1, (gw * 0.8) / series.length);
    const labelEvery = Math.ceil(groups.length / Math.floor(plotW / 28));
    groups.forEach((g, gi) => {
      g.values.forEach((v, si) => {
        const h = (v / max) * plotH;
        el(svg, 'rect', {x: left + gi * gw + gw * 0.1 + si * bw, y: top + plotH - h, width: bw, height: h,
          fill: series[si].color, 'data-value': v}).appendChild(document.createElementNS(SVGNS, 'title')).textContent = `${g.label} ${series[si].name}: ${fmt(v, 2)} ${unit}`;
      });
      if (gi % labelEvery === 0)
        el(svg, 'text', {x: left + gi * gw + gw / 2, y: H - bottom + 14, 'text-anchor': 'middle', 'font-size': 10}, g.label);
    });
  }

  /* ---------------------------------------------------------------- red-black tree */
  const rb = {inserts: [], erases: [], runs: new Map(), pos: null};

  function rbArgs(nrOps) {
    const ins = rb.inserts.slice(0, Math.min(nrOps, rb.inserts.length));
    const ers = rb.erases.slice(0, Math.max(0, nrOps - rb.inserts.length));
    const args = ['rbtree'];
    if (ins.length)
      args.push('--insert', ins.join(','));
    if (ers.length)
      args.push('--erase', ers.join(','));
    args.push('--steps', '--json');
    return args;
  }

  /* The tree after the first @nrOps operations, as kfsim prints it. */
  async function rbState(nrOps) {
    const key = rbArgs(nrOps).join(' ');
    if (!rb.runs.has(key))
      rb.runs.set(key, (await runJson(rbArgs(nrOps))).json);
    return rb.runs.get(key);
  }

  function treeFromPreorder(pre) {
    const nodes = pre.map((p) => ({key: p.key, red: p.color === 'red', left: null, right: null, parent: null}));
    pre.forEach((p, i) => {
      if (p.parent !== null) {
        nodes[i].parent = nodes[p.parent];
        nodes[p.parent][p.side] = nodes[i];
      }
    });
    return {root: nodes.length ? nodes[0] : null};
  }

  function inorder(t) {
    const out = [];
    const walk = (n, depth) => {
      if (!n) return;
      walk(n.left, depth + 1);
      out.push({n, depth});
      walk(n.right, depth + 1);
    };
    walk(t.root, 0);
    return out;
  }

  /* A step in the words of `kfsim rbtree --steps` (its text output). */
  function stepText(step) {
    if (step.kind === 'recolor') return `recolor ${step.node} ${step.color}`;
    if (step.kind === 'unlink')
      return `unlink ${step.node} ` + (step.other === undefined ? '(a leaf)' : `(${step.other} takes its place)`);
    return `${step.kind} at ${step.node} (${step.other} rises)`;
  }

  /* @leftmost: the key of rb_first_cached() as kfsim printed it (null: NULL), ringed. */
  function drawTree(svg, t, highlight, leftmost, caption) {
    clear(svg);
    const W = 1100, H = 420;
    const order = inorder(t);
    const depth = Math.max(1, ...order.map((e) => e.depth + 1));
    const dx = Math.min(70, (W - 60) / Math.max(1, order.length));
    const x0 = (W - dx * (order.length - 1)) / 2;
    const dy = Math.min(80, (H - 90) / depth);
    const pos = new Map();
    order.forEach((e, i) => pos.set(e.n, {x: x0 + i * dx, y: 40 + e.depth * dy}));
    el(svg, 'text', {x: 12, y: H - 12, 'font-size': 14}, caption);
    for (const [n, p] of pos)
      for (const c of [n.left, n.right])
        if (c) el(svg, 'line', {x1: p.x, y1: p.y, x2: pos.get(c).x, y2: pos.get(c).y, stroke: '#6b7480', 'stroke-width': 2});
    const first = leftmost === null ? null : (order.find((e) => e.n.key === leftmost) || {n: null}).n;
    const r = Math.max(9, Math.min(17, dx / 2 - 2));
    for (const [n, p] of pos) {
      if (highlight.includes(n.key))
        el(svg, 'circle', {cx: p.x, cy: p.y, r: r + 6, fill: '#ffd54a'});
      if (n === first)
        el(svg, 'circle', {cx: p.x, cy: p.y, r: r + 3, fill: 'none', stroke: '#2e5685', 'stroke-width': 2, 'stroke-dasharray': '4 2'});
      el(svg, 'circle', {cx: p.x, cy: p.y, r, fill: n.red ? '#c62828' : '#212121', class: n.red ? 'rb-red' : 'rb-black'});
      el(svg, 'text', {x: p.x, y: p.y + 4, 'text-anchor': 'middle', 'font-size': r > 12 ? 12 : 9, fill: '#fff'}, String(n.key));
    }
  }

  async function rbShow() {
    const total = rb.inserts.length + rb.erases.length;
    const svg = $('rb-svg');
    if (!total) {
      clear(svg);
      el(svg, 'text', {x: 550, y: 200, 'text-anchor': 'middle', 'font-size': 16}, 'an empty rb_root_cached: insert some keys');
      status('rb-status', 'empty tree: rb_first_cached() is NULL');
      cmdLine('rb-cmd', ['rbtree', '--json']);
      return;
    }
    const {op: i, step: j} = rb.pos;
    const full = await rbState(total);
    const op = full.ops[i];
    const verdict = (s) => `checker: ${s.check}; ${s.nodes} nodes, height ${s.height}` +
      (s.black_height === null ? '' : `, black height ${s.black_height}`) + '; ' +
      `rb_first_cached() = ${s.leftmost === null ? 'NULL' : s.leftmost}`;
    const head = `${op.op} ${op.key} (operation ${i + 1} of ${total})`;
    if (j >= op.steps.length) {
      const afterState = await rbState(i + 1);
      drawTree(svg, treeFromPreorder(afterState.preorder), [op.key], afterState.leftmost, `${head}: done`);
      status('rb-status', verdict(afterState), afterState.valid ? 'good' : 'bad');
    } else {
      const step = op.steps[j];
      const what = `${head}, step ${j + 1} of ${op.steps.length}: ${stepText(step)}`;
      const mark = step.kind === 'unlink' ? [step.other] : [step.node];
      if (step.after) {
        drawTree(svg, treeFromPreorder(step.after.preorder), mark, step.after.leftmost, what);
        status('rb-status', `[${step.why}] ${verdict(step.after)}`, step.after.valid ? 'good' : 'mid');
      } else { /* kfsim gives the tree after each step only for trees of up to 256 nodes */
        const before = await rbState(i);
        drawTree(svg, treeFromPreorder(before.preorder), [step.node], before.leftmost, what);
        status('rb-status', `[${step.why}] (picture: the tree before the operation)`);
      }
    }
    cmdLine('rb-cmd', rbArgs(i + 1));
  }

  function rbMove(delta) {
    return interaction('rb', 'step', async () => {
      const total = rb.inserts.length + rb.erases.length;
      if (!total) return;
      const full = await rbState(total);
      let {op: i, step: j} = rb.pos;
      j += delta;
      if (j < 0) {
        if (i === 0) j = 0;
        else { i--; j = full.ops[i].steps.length; }
      } else if (j > full.ops[i].steps.length) {
        if (i === total - 1) j = full.ops[i].steps.length;
        else { i++; j = 0; }
      }
      rb.pos = {op: i, step: j};
      await rbShow();
    });
  }

  function rbKeys() {
    const text = $('rb-keys').value.trim();
    if (!/^\d+(\s*,\s*\d+)*$/.test(text))
      throw new Error('keys: comma-separated numbers, e.g. 5,1,3');
    return text.split(',').map((s) => Number(s.trim()));
  }

  async function rbChanged() {
    const total = rb.inserts.length + rb.erases.length;
    if (total) {
      const full = await rbState(total);
      rb.pos = {op: total - 1, step: full.ops[total - 1].steps.length};
    }
    await rbShow();
  }

  function rbInit() {
    $('rb-insert').onclick = () => interaction('rb', 'insert', async () => {
      const keys = rbKeys();
      if (rb.erases.length) /* kfsim rbtree inserts first, then erases: keep that order */
        throw new Error('kfsim rbtree inserts, then erases: clear to insert again');
      rb.inserts.push(...keys);
      await rbChanged();
    });
    $('rb-erase').onclick = () => interaction('rb', 'erase', async () => {
      const keys = rbKeys();
      const trial = rb.erases.concat(keys);
      const saved = rb.erases;
      rb.erases = trial;
      const r = await run(rbArgs(rb.inserts.length + trial.length));
      if (r.status !== 0) {
        rb.erases = saved;
        throw new Error(r.stderr.trim());
      }
      await rbChanged();
    });
    $('rb-random').onclick = () => interaction('rb', 'random', async () => {
      if (rb.erases.length) throw new Error('kfsim rbtree inserts, then erases: clear to insert again');
      for (let i = 0; i < 8; i++) rb.inserts.push(Math.floor(Math.random() * 100));
      await rbChanged();
    });
    $('rb-clear').onclick = () => interaction('rb', 'clear', async () => {
      rb.inserts = [];
      rb.erases = [];
      await rbChanged();
    });
    $('rb-fwd').onclick = () => rbMove(1);
    $('rb-back').onclick = () => rbMove(-1);
    return interaction('rb', 'load', async () => {
      rb.inserts = rbKeys();
      await rbChanged();
    });
  }

  /* ---------------------------------------------------------------- BPF */
  const bpf = {events: null, call: 0, messages: []};

  function bpfParse(trace) {
    const ev = trace.traceEvents || trace;
    const calls = ev.filter((e) => e.ph === 'X' && e.cat === 'call').sort((a, b) => a.ts - b.ts);
    const locks = ev.filter((e) => e.ph === 'X' && e.cat === 'lock');
    const names = new Map(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.tid >= 10).map((e) => [e.tid, e.args.name]));
    const refs = ev.filter((e) => e.ph === 'X' && e.cat === 'bpf');
    const broken = ev.filter((e) => e.ph === 'i' && e.cat === 'violation').map((e) => e.ts);
    return {calls, locks, names, refs, broken};
  }

  function bpfDraw() {
    const svg = $('bpf-svg');
    clear(svg);
    const t = bpf.events;
    const W = 1100, left = 150, top = 120;
    const n = t.calls.length;
    const cw = (W - left - 110) / Math.max(1, n); /* room on the right for the slanted names */
    const tids = [...t.names.keys()].sort((a, b) => a - b);
    const rowH = 34;
    const H = top + (tids.length + 1) * rowH + 30;
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const xOf = (ts) => left + (ts - 1) * cw;
    t.calls.forEach((c, i) => {
      const x = xOf(c.ts) + cw / 2;
      const current = i === bpf.call;
      el(svg, 'text', {x, y: top - 8, 'font-size': 11, transform: `rotate(-50 ${x} ${top - 8})`,
        'font-weight': current ? 700 : 400, fill: t.broken.includes(c.ts) ? '#b3261e' : '#1d232b'}, c.name.replace(/_impl$/, ''));
    });
    el(svg, 'text', {x: 8, y: top + rowH / 2 + 4, 'font-size': 12}, 'lock held');
    for (const l of t.locks)
      el(svg, 'rect', {x: xOf(l.ts), y: top + 6, width: l.dur * cw, height: rowH - 12, fill: '#cfd8e3'});
    tids.forEach((tid, r) => {
      const y = top + (r + 1) * rowH;
      el(svg, 'text', {x: 8, y: y + rowH / 2 + 4, 'font-size': 12}, t.names.get(tid));
      for (const s of t.refs.filter((e) => e.tid === tid))
        el(svg, 'rect', {x: xOf(s.ts), y: y + 6, width: s.dur * cw, height: rowH - 12,
          fill: s.name === 'owning' ? '#2e7d32' : '#fff', stroke: '#2e7d32', 'stroke-width': 2,
          'stroke-dasharray': s.name === 'owning' ? '' : '5 3', class: 'ref-' + s.name});
    });
    for (const b of t.broken)
      el(svg, 'text', {x: xOf(b) + cw / 2, y: H - 8, 'text-anchor': 'middle', 'font-size': 12, fill: '#b3261e', 'font-weight': 700}, 'rule broken');
    if (n) {
      const c = t.calls[bpf.call];
      el(svg, 'rect', {x: xOf(c.ts), y: top, width: cw, height: (tids.length + 1) * rowH, fill: 'none', stroke: '#f9a825', 'stroke-width': 3, id: 'bpf-cursor'});
    }
    el(svg, 'text', {x: left, y: 16, 'font-size': 12}, 'owning: solid;  non-owning: dashed (valid only while the lock is held)');
  }

  function bpfStatus() {
    const t = bpf.events;
    const c = t.calls[bpf.call];
    const held = t.locks.some((l) => c.ts >= l.ts && c.ts < l.ts + l.dur);
    const live = t.refs.filter((e) => c.ts >= e.ts && c.ts < e.ts + e.dur).map((e) => `${t.names.get(e.tid)} ${e.name}`);
    const broke = t.broken.includes(c.ts);
    status('bpf-status', `call ${bpf.call + 1} of ${t.calls.length}: ${c.name}; lock ${held ? 'held' : 'not held'}; ` +
      `references: ${live.length ? live.join(', ') : 'none'}` + (broke ? ` -- verifier: ${bpf.messages.join('; ')}` : ''),
      broke ? 'bad' : '');
  }

  async function bpfLoad() {
    const broken = $('bpf-prog').value === 'broken';
    const args = ['bpf', 'demo', '--rounds', '1', '--json', '--trace', '/bpf.json'].concat(broken ? ['--broken'] : []);
    const r = await runJson(args, {read: ['/bpf.json']});
    bpf.events = bpfParse(JSON.parse(r.files['/bpf.json']));
    bpf.messages = r.json.examples[0].messages || [];
    bpf.call = broken && bpf.events.broken.length
      ? bpf.events.calls.findIndex((c) => c.ts === bpf.events.broken[0]) : bpf.events.calls.length - 1;
    bpfDraw();
    bpfStatus();
    cmdLine('bpf-cmd', args);
  }

  function bpfInit() {
    $('bpf-prog').onchange = () => interaction('bpf', 'program', bpfLoad);
    const move = (d) => interaction('bpf', 'step', async () => {
      bpf.call = Math.max(0, Math.min(bpf.events.calls.length - 1, bpf.call + d));
      bpfDraw();
      bpfStatus();
    });
    $('bpf-fwd').onclick = () => move(1);
    $('bpf-back').onclick = () => move(-1);
    return interaction('bpf', 'load', bpfLoad);
  }

  /* ---------------------------------------------------------------- PLCA */
  const plcaIds = ['nodes', 'to', 'burst', 'btmr', 'frame'];
  let plcaAnim = null;

  function plcaArgs(mode) {
    const v = (id) => $('plca-' + id).value;
    const args = ['plca', 'sim', '--mode', mode, '--nodes', v('nodes'), '--frame', v('frame'),
      '--load', $('plca-load').value, '--duration', '20ms', '--quiet', '--json'];
    if (mode === 'plca')
      args.push('--to-tmr', v('to'), '--burst-cnt', v('burst'), '--burst-tmr', v('btmr'));
    return args;
  }

  function plcaCycle(trace) {
    const svg = $('plca-cycle-svg');
    clear(svg);
    const ev = trace.traceEvents || trace;
    const beacons = ev.filter((e) => e.ph === 'X' && e.tid === 0 && e.name === 'BEACON').sort((a, b) => a.ts - b.ts);
    const W = 1100, H = 260, left = 90, right = 20;
    if (beacons.length < 2) {
      el(svg, 'text', {x: 20, y: 40, 'font-size': 14},
        'no whole cycle in the 20 ms simulated: lower the load, the frame size or the burst count');
      return;
    }
    /* the second cycle when there is one (the first starts from empty queues) */
    const c = beacons.length > 2 ? 1 : 0;
    const t0 = beacons[c].ts, t1 = beacons[c + 1].ts + beacons[c + 1].dur;
    const xOf = (ts) => left + ((ts - t0) / (t1 - t0)) * (W - left - right);
    el(svg, 'text', {x: 8, y: 18, 'font-size': 13, 'font-weight': 600}, `one PLCA cycle: ${fmt(t1 - t0, 1)} µs`);
    const tos = ev.filter((e) => e.ph === 'X' && e.tid === 0 && e.ts >= t0 && e.ts < t1);
    el(svg, 'text', {x: 8, y: 56, 'font-size': 12}, 'coordinator');
    for (const e of tos) {
      const x = xOf(e.ts), w = Math.max(1, xOf(e.ts + e.dur) - x);
      el(svg, 'rect', {x, y: 40, width: w, height: 24, fill: e.name === 'BEACON' ? '#1d3a5f' : '#90a4ae', stroke: '#fff', class: 'to'});
      if (w > 34)
        el(svg, 'text', {x: x + w / 2, y: 56, 'text-anchor': 'middle', 'font-size': 10, fill: '#fff'}, e.name === 'BEACON' ? 'B' : e.name.replace('TO ', ''));
    }
    const frames = ev.filter((e) => e.ph === 'X' && e.tid > 0 && e.name === 'frame' && e.ts >= t0 && e.ts < t1);
    const nodes = [...new Set(frames.map((e) => e.tid))].sort((a, b) => a - b).slice(0, 6);
    nodes.forEach((tid, r) => {
      const y = 80 + r * 26;
      el(svg, 'text', {x: 8, y: y + 15, 'font-size': 11}, `node ${tid - 1}`);
      for (const e of frames.filter((f) => f.tid === tid)) {
        const x = xOf(e.ts);
        el(svg, 'rect', {x, y, width: Math.max(1, xOf(e.ts + e.dur) - x), height: 20, fill: e.args && e.args.collided ? '#c62828' : '#2e7d32'});
      }
    });
    const cursor = el(svg, 'line', {x1: left, x2: left, y1: 34, y2: H - 10, stroke: '#f9a825', 'stroke-width': 3, id: 'plca-cursor'});
    if (plcaAnim) cancelAnimationFrame(plcaAnim);
    const start = performance.now();
    const tick = (now) => { /* the cycle replayed in 3 s, again and again */
      const f = ((now - start) % 3000) / 3000;
      const x = left + f * (W - left - right);
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
      plcaAnim = requestAnimationFrame(tick);
    };
    plcaAnim = requestAnimationFrame(tick);
  }

  async function plcaUpdate() {
    for (const id of plcaIds)
      $('plca-' + id + '-out').textContent = $('plca-' + id).value;
    const pArgs = plcaArgs('plca').concat(['--trace', '/plca.json']);
    const p = await runJson(pArgs, {read: ['/plca.json']});
    const c = await runJson(plcaArgs('csma'));
    const groups = p.json.nodes.map((n, i) => ({label: String(i), values: [n.throughput_mbps, c.json.nodes[i].throughput_mbps]}));
    const series = [{name: 'PLCA', color: '#1565c0'}, {name: 'CSMA/CD', color: '#ef6c00'}];
    barChart($('plca-svg'), `throughput per node (Jain: PLCA ${fmt(p.json.total.jain, 3)}, CSMA/CD ${fmt(c.json.total.jain, 3)})`, groups, series, 'Mb/s');
    barChart($('plca-lat-svg'), 'latency (µs)', [
      {label: 'mean', values: [p.json.total.lat_mean_us, c.json.total.lat_mean_us]},
      {label: 'p99', values: [p.json.total.lat_p99_us, c.json.total.lat_p99_us]},
      {label: 'max', values: [p.json.total.lat_max_us, c.json.total.lat_max_us]}], series, 'µs');
    plcaCycle(JSON.parse(p.files['/plca.json']));
    status('plca-status', `PLCA ${fmt(p.json.total.throughput_mbps, 2)} Mb/s in all, ${p.json.total.collisions} logical collisions; ` +
      `CSMA/CD ${fmt(c.json.total.throughput_mbps, 2)} Mb/s, ${c.json.total.phys_collisions} physical collisions` +
      (p.json.misconfig.length ? '; misconfigured: ' + p.json.misconfig.join(', ') : ''));
    cmdLine('plca-cmd', pArgs);
  }

  function plcaInit() {
    for (const id of plcaIds)
      $('plca-' + id).oninput = () => interaction('plca', id, plcaUpdate);
    $('plca-load').onchange = () => interaction('plca', 'load', plcaUpdate);
    return interaction('plca', 'load', plcaUpdate);
  }

  /* ---------------------------------------------------------------- BFQ */
  function bfqArgs(sched) {
    const readers = Number($('bfq-readers').value), bs = $('bfq-bs').value, rw = $('bfq-rw').value;
    const args = ['bfq', 'sim', '--sched', sched, '--disk', 'dual', '--duration', '300ms', '--quiet', '--json'];
    for (let i = 0; i < readers; i++) {
      const half = i % 2, slots = Math.ceil((readers - half) / 2), k = Math.floor(i / 2);
      /* whole percentages: fio takes "16.67%" as 16 bytes, and --job refuses a fraction */
      const size = Math.floor(50 / slots), offset = half * 50 + k * size;
      args.push('--job', `name=${String.fromCharCode(97 + i)},rw=${rw},bs=${bs},iodepth=1,offset=${offset}%,size=${size}%` +
        (i === 0 ? `,weight=${$('bfq-weight').value}` : ''));
    }
    return args;
  }

  function bfqDraw(svg, title, res, trace) {
    clear(svg);
    const W = 540, H = 320, left = 90, right = 12;
    el(svg, 'text', {x: W / 2, y: 18, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 600},
      `${title}: ${fmt(res.mb_s, 1)} MB/s`);
    /* a request served from its queue, or injected into another queue's service (drawn lighter) */
    const ev = (trace.traceEvents || trace).filter((e) => e.ph === 'X' &&
      (e.cat === 'dispatched' || e.cat === 'injected'));
    const end = Math.max(1, ...ev.map((e) => e.ts + e.dur));
    const xOf = (ts) => left + (ts / end) * (W - left - right);
    const colors = ['#1565c0', '#ef6c00', '#2e7d32', '#6a1b9a', '#00838f', '#ad1457'];
    res.actuator.forEach((a, i) => {
      const y = 40 + i * 46;
      el(svg, 'text', {x: 6, y: y + 14, 'font-size': 11}, `actuator ${i}`);
      el(svg, 'text', {x: 6, y: y + 28, 'font-size': 10}, `${fmt(a.utilisation * 100, 0)} % busy`);
      el(svg, 'rect', {x: left, y, width: W - left - right, height: 32, fill: '#f1f3f5'});
      for (const e of ev.filter((d) => d.tid === i + 1)) {
        const x = xOf(e.ts);
        el(svg, 'rect', {x, y: y + 2, width: Math.max(0.5, xOf(e.ts + e.dur) - x), height: 28,
          fill: colors[(e.name.charCodeAt(0) - 97) % colors.length], class: 'dispatch',
          'fill-opacity': e.cat === 'injected' ? 0.55 : 1});
      }
    });
    const y0 = 40 + res.actuator.length * 46 + 10;
    el(svg, 'text', {x: 6, y: y0 + 12, 'font-size': 12, 'font-weight': 600}, 'per reader (MB/s)');
    const max = Math.max(1e-9, ...res.jobs.map((j) => j.mb_s));
    res.jobs.forEach((j, i) => {
      const y = y0 + 22 + i * 18;
      el(svg, 'text', {x: 6, y: y + 11, 'font-size': 11}, `${j.name} (w ${j.weight})`);
      el(svg, 'rect', {x: left, y, width: (j.mb_s / max) * (W - left - right - 60), height: 13, fill: colors[i % colors.length]});
      el(svg, 'text', {x: left + (j.mb_s / max) * (W - left - right - 60) + 4, y: y + 11, 'font-size': 10}, fmt(j.mb_s, 1));
    });
    svg.setAttribute('viewBox', `0 0 ${W} ${Math.max(H, y0 + 30 + res.jobs.length * 18)}`);
  }

  async function bfqUpdate() {
    for (const id of ['readers', 'weight'])
      $('bfq-' + id + '-out').textContent = $('bfq-' + id).value;
    const shown = [];
    for (const [sched, id] of [['bfq-6.2', 'bfq-62-svg'], ['bfq', 'bfq-63-svg']]) {
      const args = bfqArgs(sched).concat(['--trace', '/bfq.json', '--trace-window', '300ms']);
      const r = await runJson(args, {read: ['/bfq.json']});
      bfqDraw($(id), sched === 'bfq' ? 'BFQ, Linux 6.3' : 'BFQ, Linux 6.2', r.json, JSON.parse(r.files['/bfq.json']));
      shown.push(args);
    }
    status('bfq-status', 'each bar is one request on an actuator, coloured by reader (lighter: ' +
      'injected into another queue\'s service); the same workload left and right');
    cmdLine('bfq-cmd', shown[1]);
  }

  function bfqInit() {
    for (const id of ['readers', 'weight'])
      $('bfq-' + id).oninput = () => interaction('bfq', id, bfqUpdate);
    for (const id of ['bs', 'rw'])
      $('bfq-' + id).onchange = () => interaction('bfq', id, bfqUpdate);
    return interaction('bfq', 'load', bfqUpdate);
  }

  /* ---------------------------------------------------------------- the page */
  /* A panel runs kfsim when it is first shown: the page is usable as soon as the first one is. */
  const inits = {rbtree: rbInit, bpf: bpfInit, plca: plcaInit, bfq: bfqInit};
  const started = new Set();

  function show(name) {
    for (const o of document.querySelectorAll('nav button'))
      o.setAttribute('aria-selected', String(o.dataset.panel === name));
    for (const p of document.querySelectorAll('.panel'))
      p.classList.toggle('shown', p.id === 'panel-' + name);
    if (started.has(name))
      return pending;
    started.add(name);
    return inits[name]();
  }

  async function start() {
    const bytes = Uint8Array.from(atob(KFSIM_WASM_BASE64), (c) => c.charCodeAt(0));
    kfsim = await KfsimRunner.create(kfsimModule, bytes);
    for (const b of document.querySelectorAll('nav button'))
      b.onclick = () => {
        history.replaceState(null, '', '#' + b.dataset.panel);
        return show(b.dataset.panel);
      };
    /* playground.html#plca opens on that panel: the tour's and the teaching pages' links */
    const first = location.hash.slice(1);
    window.addEventListener('hashchange', () => inits[location.hash.slice(1)] && show(location.hash.slice(1)));
    await show(inits[first] ? first : 'rbtree');
    pg.readyMs = performance.now();
    pg.ready = pg.errors.length === 0;
  }

  start().catch((e) => {
    pg.errors.push(String(e));
    document.body.insertAdjacentHTML('afterbegin', '<p class="status bad">' + String(e) + '</p>');
  });
})();

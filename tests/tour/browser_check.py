#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tour's page and every SVG kfsim draws, rendered by a real browser (headless Chromium).

Runs `kfsim tour --out OUT`, then drives one Chromium over the DevTools protocol
(--remote-debugging-pipe: no port, no network) and, for OUT/index.html and each SVG (the tour's
and docs/img's), checks in the page itself:
  - every <text> element's bounding box lies inside its <svg> canvas (nothing cut), and no two
    unrotated labels overlap;
  - the page is no wider than a laptop window (1280 px, and 1024 px) and every <svg> has a size;
  - no console error, no uncaught exception, no request other than file: and data:;
and writes a full-page PNG of each to OUT/browser/ (and the page printed, OUT/browser/tour.pdf).

Usage: browser_check.py KFSIM OUT SVG_DIR...      Exit 0 ok, 1 a check failed, 77 no Chromium.
KFSIM "-" checks only the SVG_DIRs' pictures (no tour run, no page).
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from tour_pictures import tour_pictures  # noqa: E402

TIMEOUT = 60.0  # for each answer of the browser

# Runs in the page: the boxes of all text against the boxes of their canvases, in CSS px after
# every transform and scaling (getBoundingClientRect), with a quarter-pixel tolerance.
CHECK_JS = r"""
(() => {
  const problems = [];
  const svgs = [...document.querySelectorAll('svg')].filter(s => !(s.parentElement && s.parentElement.closest('svg')));
  svgs.forEach((svg, i) => {
    const c = svg.getBoundingClientRect();
    const where = (svg.closest('figure') && svg.closest('figure').querySelector('figcaption'))
      ? svg.closest('figure').querySelector('figcaption').textContent : 'svg #' + i;
    if (c.width < 10 || c.height < 10)
      problems.push(where + ': canvas ' + c.width + 'x' + c.height);
    const boxes = [];
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const b = t.getBoundingClientRect();
      const m = t.getCTM();
      if (m && Math.abs(m.b) < 1e-6 && Math.abs(m.c) < 1e-6)
        boxes.push([t.textContent, b]);   /* rotated labels' boxes are not their glyphs */
      if (b.left < c.left - 0.25 || b.top < c.top - 0.25 ||
          b.right > c.right + 0.25 || b.bottom > c.bottom + 0.25)
        problems.push(where + ': "' + t.textContent + '" at [' + [b.left, b.top, b.right,
          b.bottom].map(v => v.toFixed(1)) + '] outside canvas [' + [c.left, c.top, c.right,
          c.bottom].map(v => v.toFixed(1)) + ']');
    }
    /* two labels on top of each other do not read either */
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [ta, a] = boxes[i], [tb, b] = boxes[j];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        const smaller = Math.min(a.width * a.height, b.width * b.height);
        if (w > 0 && h > 0 && w * h > 0.2 * smaller)
          problems.push(where + ': "' + ta + '" and "' + tb + '" overlap');
      }
  });
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1)
    problems.push('page is ' + doc.scrollWidth + ' px wide in a ' + window.innerWidth +
                  ' px window');
  return {svgs: svgs.length, texts: document.querySelectorAll('svg text').length, problems};
})()
"""


class Browser:
    """One headless Chromium spoken to over a pipe (fd 3 commands in, fd 4 replies out)."""

    def __init__(self, exe, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            # above 4 first: dup2 onto the same number would keep the pipe's close-on-exec
            high_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
                 '--no-first-run', '--disable-background-networking',
                 '--disable-component-update', '--disable-sync', '--disable-extensions',
                 '--hide-scrollbars', '--disable-dev-shm-usage', '--remote-debugging-pipe',
                 '--user-data-dir=' + profile, 'about:blank']
        self.proc = subprocess.Popen([exe] + flags, preexec_fn=fds, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.next_id = 0
        self.buf = b''
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT

    def _read(self):
        left = self.deadline - time.monotonic()
        if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
            raise TimeoutError('Chromium did not answer within %.0f s' % TIMEOUT)
        chunk = os.read(self.from_chrome, 1 << 20)
        if not chunk:
            raise EOFError('Chromium closed the pipe')
        self.buf += chunk

    def _message(self):
        while b'\0' not in self.buf:
            self._read()
        raw, self.buf = self.buf.split(b'\0', 1)
        return json.loads(raw)

    def send(self, method, params=None, session=None):
        self.deadline = time.monotonic() + TIMEOUT
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b'\0')
        while True:
            reply = self._message()
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError('%s: %s' % (method, reply['error']))
                return reply.get('result', {})
            self.events.append(reply)

    def wait_event(self, method):
        self.deadline = time.monotonic() + TIMEOUT
        while True:
            for i, ev in enumerate(self.events):
                if ev.get('method') == method:
                    return self.events.pop(i)
            self.events.append(self._message())

    def new_page(self, width, height):
        """A blank page of @width x @height CSS px, its events (Page, Runtime, Log, Network)
        on; returns its session."""
        target = self.send('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = self.send('Target.attachToTarget',
                            {'targetId': target, 'flatten': True})['sessionId']
        for domain in ('Page', 'Runtime', 'Log', 'Network'):
            self.send(domain + '.enable', {}, session)
        self.send('Emulation.setDeviceMetricsOverride', {
            'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False}, session)
        return session

    def close(self):
        try:
            self.send('Browser.close')
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def page_problems(events):
    """Console errors, exceptions and non-local requests among the events seen so far."""
    problems = []
    for ev in events:
        method, p = ev.get('method'), ev.get('params', {})
        if method == 'Runtime.exceptionThrown':
            problems.append('exception: ' + p['exceptionDetails'].get('text', ''))
        elif method == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
            problems.append('console.%s: %s' % (p['type'], [a.get('value') for a in p['args']]))
        elif method == 'Log.entryAdded' and p['entry'].get('level') == 'error':
            problems.append('log: ' + p['entry'].get('text', ''))
        elif method == 'Network.requestWillBeSent':
            url = p['request']['url']
            if not url.startswith(('file:', 'data:', 'about:')):
                problems.append('network request: ' + url)
    return problems


def check(browser, session, path, png, pdf=None):
    browser.events.clear()
    browser.send('Page.navigate', {'url': 'file://' + os.path.abspath(path)}, session)
    browser.wait_event('Page.loadEventFired')
    result = browser.send('Runtime.evaluate', {'expression': CHECK_JS, 'returnByValue': True},
                          session)
    if 'exceptionDetails' in result:
        details = result['exceptionDetails']
        return ['check script failed: %s' % details.get('exception', details).get('description')]
    value = result['result']['value']
    problems = value['problems'] + page_problems(browser.events)
    if pdf:
        # a smaller laptop: pictures scale down, nothing spills out sideways
        browser.send('Emulation.setDeviceMetricsOverride', {
            'width': 1024, 'height': 700, 'deviceScaleFactor': 1, 'mobile': False}, session)
        narrow = browser.send('Runtime.evaluate', {'expression': CHECK_JS,
                                                   'returnByValue': True}, session)
        problems += ['at 1024 px: ' + p for p in narrow['result']['value']['problems']]
        browser.send('Emulation.setDeviceMetricsOverride', {
            'width': 1280, 'height': 800, 'deviceScaleFactor': 1, 'mobile': False}, session)
    if not value['svgs']:
        problems.append('no <svg> in the page')
    size = browser.send('Page.getLayoutMetrics', {}, session)['cssContentSize']
    shot = browser.send('Page.captureScreenshot', {
        'format': 'png', 'captureBeyondViewport': True,
        'clip': {'x': 0, 'y': 0, 'width': size['width'], 'height': size['height'], 'scale': 1}},
        session)
    with open(png, 'wb') as f:
        f.write(base64.b64decode(shot['data']))
    if pdf:
        printed = browser.send('Page.printToPDF', {'printBackground': True}, session)
        data = base64.b64decode(printed['data'])
        with open(pdf, 'wb') as f:
            f.write(data)
        if not data.startswith(b'%PDF') or len(data) < 20000:
            problems.append('printed PDF is %d bytes' % len(data))
    print('%s: %d svg, %d text elements, %dx%d px, %s' % (
        os.path.basename(path), value['svgs'], value['texts'], size['width'], size['height'],
        'ok' if not problems else '%d problem(s)' % len(problems)))
    return problems


def main():
    kfsim, out = sys.argv[1], sys.argv[2]
    svg_dirs = sys.argv[3:]
    exe = shutil.which('chromium') or shutil.which('chromium-browser')
    if not exe:
        print('skipped: chromium is not installed')
        return 77
    pages = tour_pictures(kfsim, out, svg_dirs)
    if pages is None:
        return 1
    if kfsim != '-':
        pages.insert(0, os.path.join(out, 'index.html'))
    shots = os.path.join(out, 'browser')
    os.makedirs(shots, exist_ok=True)

    failures = []
    with tempfile.TemporaryDirectory(prefix='kfsim-chromium-') as profile:
        browser = Browser(exe, profile)
        try:
            session = browser.new_page(1280, 800)
            for page in pages:
                name = os.path.basename(os.path.dirname(page)) + '-' + os.path.basename(page)
                png = os.path.join(shots, name.rsplit('.', 1)[0] + '.png')
                pdf = os.path.join(shots, 'tour.pdf') if page.endswith('.html') else None
                for p in check(browser, session, page, png, pdf):
                    failures.append('%s: %s' % (page, p))
        finally:
            browser.close()
    for f in failures:
        print('FAIL ' + f)
    print('%d pages checked, %d problem(s); screenshots in %s' % (len(pages), len(failures),
                                                                  shots))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

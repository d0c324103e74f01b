#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every SVG kfsim draws, rasterised by librsvg (rsvg-convert): the right size and not blank.

Runs `kfsim tour --out OUT`, converts OUT/*.svg and each SVG_DIR/*.svg to PNG (OUT/rsvg/), and
checks that rsvg-convert accepts each file, that the PNG has the size the SVG declares (px, or
pt at 96 dpi as Graphviz writes), and that between 0.5 % and 90 % of its pixels are not white
(a blank canvas, or a canvas flooded with one colour, fails).  The PNG reader is the standard
library's zlib and the five PNG row filters; with --png-ink, the same in C (png_ink.c), quicker.

Usage: svg_raster_check.py KFSIM OUT [--png-ink EXE] SVG_DIR...
KFSIM "-" checks only the SVG_DIRs' pictures (no tour run).
Exit 0 ok, 1 a check failed, 77 no rsvg-convert.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from tour_pictures import tour_pictures  # noqa: E402


def png_read(path):
    """(width, height, channels, rows): 8-bit grey/RGB/grey+alpha/RGBA PNG, rows of bytes."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, header = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or not channels or interlace:
        raise ValueError('unsupported PNG (depth %d, colour type %d)' % (depth, colour))
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, up_left = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xff
            elif kind == 2:
                line[x] = (line[x] + up) & 0xff
            elif kind == 3:
                line[x] = (line[x] + ((left + up) >> 1)) & 0xff
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                line[x] = (line[x] + pred) & 0xff
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def non_white_fraction(width, height, channels, rows):
    """Pixels that differ visibly from white once composited on white."""
    count = 0
    for row in rows:
        for x in range(0, width * channels, channels):
            px = row[x:x + channels]
            alpha = px[-1] / 255 if channels in (2, 4) else 1.0
            colour = px[:3] if channels >= 3 else px[:1]
            if any(c * alpha + 255 * (1 - alpha) < 235 for c in colour):
                count += 1
    return count / (width * height)


def declared_size(svg_path):
    """The width and height the root <svg> declares, in px (pt converted at 96 dpi)."""
    with open(svg_path, encoding='utf-8') as f:
        text = f.read()
    root = re.search(r'<svg\b[^>]*>', text, re.S).group(0)

    def attr(name):
        m = re.search(r'\b%s\s*=\s*["\']([0-9.]+)(px|pt)?["\']' % name, root)
        if not m:
            return None
        return float(m.group(1)) * (96 / 72 if m.group(2) == 'pt' else 1)
    return attr('width'), attr('height')


def png_ink(helper, png):
    """(width, height, fraction not white) of @png."""
    if helper:
        w, h, ink = subprocess.run([helper, png], stdout=subprocess.PIPE, text=True,
                                   check=True).stdout.split()
        return int(w), int(h), float(ink)
    width, height, channels, rows = png_read(png)
    return width, height, non_white_fraction(width, height, channels, rows)


def main():
    kfsim, out, dirs, helper = sys.argv[1], sys.argv[2], sys.argv[3:], None
    if dirs[:1] == ['--png-ink']:
        helper, dirs = dirs[1], dirs[2:]
    rsvg = shutil.which('rsvg-convert')
    if not rsvg:
        print('skipped: rsvg-convert (librsvg2-bin) is not installed')
        return 77
    svgs = tour_pictures(kfsim, out, dirs)
    if svgs is None:
        return 1
    pngs = os.path.join(out, 'rsvg')
    os.makedirs(pngs, exist_ok=True)
    failures = []
    for svg in svgs:
        name = os.path.basename(os.path.dirname(svg)) + '-' + os.path.basename(svg)
        png = os.path.join(pngs, name[:-4] + '.png')
        conv = subprocess.run([rsvg, svg, '-o', png], stderr=subprocess.PIPE, text=True)
        if conv.returncode:
            failures.append('%s: rsvg-convert failed: %s' % (svg, conv.stderr.strip()))
            continue
        width, height, ink = png_ink(helper, png)
        want_w, want_h = declared_size(svg)
        print('%s: %dx%d px (declared %sx%s), %.1f %% not white' % (
            svg, width, height, want_w, want_h, 100 * ink))
        if want_w and want_h and (abs(width - want_w) > 1.01 or abs(height - want_h) > 1.01):
            failures.append('%s: PNG %dx%d, SVG declares %gx%g' % (svg, width, height,
                                                                   want_w, want_h))
        if width < 100 or height < 60:
            failures.append('%s: only %dx%d px' % (svg, width, height))
        if not 0.005 <= ink <= 0.9:
            failures.append('%s: %.2f %% of the pixels are not white' % (svg, 100 * ink))
    for f in failures:
        print('FAIL ' + f)
    print('%d SVGs rasterised, %d problem(s); PNGs in %s' % (len(svgs), len(failures), pngs))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

# SPDX-License-Identifier: MIT
"""What the picture checkers look at: a fresh `kfsim tour` run's SVGs, and those of other dirs."""
import glob
import os
import shutil
import subprocess


def tour_pictures(kfsim, out, dirs):
    """Run `kfsim tour --out OUT` (unless KFSIM is "-") and list OUT/*.svg, then DIRS' *.svg.

    Return: the list of paths, or None (after printing why) when the tour failed."""
    shutil.rmtree(out, ignore_errors=True)
    svgs = []
    if kfsim != '-':
        run = subprocess.run([kfsim, 'tour', '--out', out], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        if run.returncode:
            print('kfsim tour failed (%d):\n%s' % (run.returncode, run.stderr))
            return None
        svgs = sorted(glob.glob(os.path.join(out, '*.svg')))
    for d in dirs:
        svgs += sorted(glob.glob(os.path.join(d, '*.svg')))
    return svgs

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Assemble the playground page: page.html with style.css, the emscripten loader (kfsim.js),
the runner (kfsim_run.js), the module (kfsim.wasm, base64) and app.js put inline, so that the one file opens from file://
with no network and no server.

Usage: make_page.py KFSIM_JS KFSIM_WASM OUT_HTML        (run by cmake/kfsim_wasm.cmake)
"""
import base64
import os
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: make_page.py KFSIM_JS KFSIM_WASM OUT_HTML")
    kfsim_js, kfsim_wasm, out = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))

    def read(name):
        with open(os.path.join(here, name), encoding="utf-8") as f:
            return f.read()

    with open(kfsim_js, encoding="utf-8") as f:
        loader = f.read()
    with open(kfsim_wasm, "rb") as f:
        wasm = base64.b64encode(f.read()).decode("ascii")
    page = read("page.html")
    # "</script" inside an inline script would end it early; the loader and app never say it,
    # but check rather than trust.
    for name, text in (("kfsim.js", loader), ("kfsim_run.js", read("kfsim_run.js")),
                       ("app.js", read("app.js"))):
        if "</script" in text.lower():
            sys.exit(f"make_page.py: {name} contains '</script': cannot be inlined")
    parts = {
        "@STYLE@": read("style.css"),
        "@LOADER@": loader,
        "@RUNNER@": read("kfsim_run.js"),
        "@WASM_BASE64@": wasm,
        "@APP@": read("app.js"),
    }
    for key, value in parts.items():
        if page.count(key) != 1:
            sys.exit(f"make_page.py: page.html must hold {key} exactly once")
        page = page.replace(key, value)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()

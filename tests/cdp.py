# SPDX-License-Identifier: GPL-3.0-or-later
"""cdp.py - load a page in headless Chromium and look at it through the
DevTools protocol over a pipe (--remote-debugging-pipe: no port, no
network): how long it took to render, a full-page screenshot, and what a
JavaScript expression (run by DevTools, outside the page's
Content-Security-Policy, which forbids the page any script) finds in the
DOM as laid out, e.g. the bounding boxes of the plots' labels.

  python3 cdp.py CHROMIUM PAGE.html OUT.json [SHOT.png [SELECTOR]] < EXPR.js

EXPR.js is one JavaScript expression whose value is JSON-able; OUT.json
gets {"load_ms": ..., "value": ...}.  SHOT.png is the whole page, or the
first element SELECTOR matches.  Exit 0, or 1 with a message.  The
browser runs in a session of its own and is killed on every exit path,
after at most 60 s.
"""
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import time


def child_fds(rfd, wfd):
    """In the child: its own session, the pipe's ends as fds 3 and 4
    (kept by pass_fds, which closes the rest after this)."""
    os.setsid()
    w = os.dup(wfd)  # rfd or wfd may be 3 or 4 themselves
    r = os.dup(rfd)
    os.dup2(r, 3)
    os.dup2(w, 4)


def main():
    chromium, page, out = sys.argv[1:4]
    shot = sys.argv[4] if len(sys.argv) > 4 else None
    sel = sys.argv[5] if len(sys.argv) > 5 else None
    expr = sys.stdin.read()
    to_chr_r, to_chr_w = os.pipe()
    from_chr_r, from_chr_w = os.pipe()
    prof = tempfile.mkdtemp(prefix="cdp-")
    proc = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-quic", "--no-first-run", "--disable-extensions",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--hide-scrollbars", "--window-size=1400,900",
         "--user-data-dir=" + prof, "--remote-debugging-pipe",
         "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(prof, "stderr"), "w"),
        pass_fds=(3, 4),
        preexec_fn=lambda: child_fds(to_chr_r, from_chr_w))
    os.close(to_chr_r)
    os.close(from_chr_w)
    signal.signal(signal.SIGALRM, lambda *a: sys.exit("cdp: timed out"))
    # stopped from outside: the browser goes too (the finally below)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *a: sys.exit("cdp: stopped"))
    signal.alarm(60)
    wr = os.fdopen(to_chr_w, "wb", buffering=0)
    rd = os.fdopen(from_chr_r, "rb", buffering=0)
    buf = b""
    seq = [0]
    events = []

    def recv():
        nonlocal buf
        while b"\0" not in buf:
            chunk = rd.read(1 << 16)
            if not chunk:
                sys.exit("cdp: Chromium closed the pipe")
            buf += chunk
        msg, buf = buf.split(b"\0", 1)
        return json.loads(msg)

    def call(method, params=None, session=None):
        seq[0] += 1
        m = {"id": seq[0], "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        wr.write(json.dumps(m).encode() + b"\0")
        while True:
            r = recv()
            if r.get("id") == seq[0]:
                if "error" in r:
                    sys.exit("cdp: %s: %s" % (method, r["error"]))
                return r["result"]
            events.append(r)

    def wait_event(name):
        while True:
            for i, e in enumerate(events):
                if e.get("method") == name:
                    return events.pop(i)
            events.append(recv())

    try:
        targets = call("Target.getTargets")["targetInfos"]
        tid = [t for t in targets if t["type"] == "page"][0]["targetId"]
        sid = call("Target.attachToTarget",
                   {"targetId": tid, "flatten": True})["sessionId"]
        call("Page.enable", session=sid)
        call("Emulation.setDeviceMetricsOverride",
             {"width": 1400, "height": 900, "deviceScaleFactor": 1,
              "mobile": False}, session=sid)
        t0 = time.monotonic()
        call("Page.navigate", {"url": "file://" + os.path.abspath(page)},
             session=sid)
        wait_event("Page.loadEventFired")
        # a layout and a frame after the load: what a reader sees
        call("Runtime.evaluate", {
            "expression": "new Promise(r => requestAnimationFrame(() => "
                          "requestAnimationFrame(() => r(1))))",
            "awaitPromise": True}, session=sid)
        load_ms = (time.monotonic() - t0) * 1e3
        r = call("Runtime.evaluate", {"expression": expr,
                                      "returnByValue": True,
                                      "awaitPromise": True}, session=sid)
        if "exceptionDetails" in r:
            sys.exit("cdp: the expression threw: %s" %
                     json.dumps(r["exceptionDetails"])[:400])
        value = r["result"].get("value")
        if shot:
            args = {"format": "png", "captureBeyondViewport": True}
            if sel:
                box = call("Runtime.evaluate", {
                    "expression": "(() => { const b = document."
                    "querySelector(%s).getBoundingClientRect(); return "
                    "[b.x + scrollX, b.y + scrollY, b.width, b.height] })()"
                    % json.dumps(sel), "returnByValue": True},
                    session=sid)["result"]["value"]
                args["clip"] = dict(zip(("x", "y", "width", "height"), box),
                                    scale=1)
            png = call("Page.captureScreenshot", args, session=sid)["data"]
            with open(shot, "wb") as f:
                f.write(base64.b64decode(png))
        with open(out, "w") as f:
            json.dump({"load_ms": round(load_ms, 1), "value": value}, f)
        try:
            call("Browser.close")
        except SystemExit:
            pass
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        subprocess.run(["rm", "-rf", prof])


if __name__ == "__main__":
    main()

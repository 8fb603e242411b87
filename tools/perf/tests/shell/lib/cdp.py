"""Drives a page in headless Chromium as a user does, for the page tests.

The browser is spoken to over the DevTools protocol on the pipe that
--remote-debugging-pipe opens: it reads our commands on its fd 3 and
writes its answers and events on its fd 4, each a JSON object ended by a
NUL byte.  One page target is attached in flat mode (the session id on
every message), and its Network, Runtime, Log and Page domains enabled,
so that every request the page makes and every error it reports is
recorded from the first byte of the page on.

Input goes through Input.dispatchMouseEvent and Input.insertText, the
path a real mouse and keyboard take (hit testing, focus, the events'
order), and the result is read back with Runtime.evaluate.  A state is
waited for by polling with a deadline, never by sleeping.

Every failure is one line on stderr, "FAIL: <step>: <condition>", and
exit status 1; an overall alarm ends a run that would hang, and the
browser's process group is killed however the script ends.
"""
import atexit
import base64
import fcntl
import json
import os
import select
import signal
import struct
import subprocess
import sys
import time
import zlib

# As lib/chromium.sh starts it: every host name unresolved, every proxied
# request sent to a closed port, so that a page can only show what it holds.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
         "--remote-debugging-pipe"]


def fail(step, condition):
    print("FAIL: %s: %s" % (step, condition), file=sys.stderr)
    sys.exit(1)


class Browser:
    """One headless Chromium, one page in it, and what the page did."""

    def __init__(self, width=1200, height=800, timeout=25):
        self.step = "start chromium"
        signal.signal(signal.SIGALRM, lambda *_: fail(self.step, "no end after %d s" % timeout))
        signal.alarm(timeout)
        signal.signal(signal.SIGTERM, lambda *_: fail(self.step, "terminated"))
        cmd_r, cmd_w = os.pipe()
        ev_r, ev_w = os.pipe()

        def at_3_and_4():
            # Out of the way first, a pipe end may already sit on 3 or 4;
            # dup2's copies alone are left open across exec.
            hi_r, hi_w = (fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 10),
                        fcntl.fcntl(ev_w, fcntl.F_DUPFD_CLOEXEC, 10))
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        profile = os.path.join(os.environ.get("TMPD", "."), "cdp-profile")
        self.proc = subprocess.Popen(
            [os.environ.get("CHROMIUM", "chromium")] + FLAGS +
            ["--user-data-dir=" + profile, "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(os.environ.get("TMPD", "."), "cdp.err"), "w"),
            preexec_fn=at_3_and_4, close_fds=False, start_new_session=True)
        atexit.register(self.kill)
        os.close(cmd_r)
        os.close(ev_w)
        self.out, self.inp, self.buf = cmd_w, ev_r, b""
        self.next_id, self.session = 0, None
        self.page_url, self.requests, self.errors = None, [], []
        self.attach()

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def message(self, deadline):
        """The browser's next message, or a failure at the deadline."""
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                fail(self.step, "no answer from chromium in time")
            if not select.select([self.inp], [], [], left)[0]:
                continue
            data = os.read(self.inp, 1 << 20)
            if not data:
                fail(self.step, "chromium closed its pipe (exit %r)" % self.proc.poll())
            self.buf += data
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def record(self, ev):
        """What the page asked for and what it reported as an error."""
        method, p = ev.get("method"), ev.get("params", {})
        if method == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if url != self.page_url and not url.startswith(("data:", "blob:")):
                self.requests.append(url)
        elif method == "Runtime.consoleAPICalled" and p.get("type") == "error":
            self.errors.append("console.error: %s" %
                               " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
        elif method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = d.get("exception", {}).get("description", d["text"])
            self.errors.append("exception: %s" % text.splitlines()[0])	# not its stack
        elif method == "Log.entryAdded" and p["entry"]["level"] == "error":
            self.errors.append("log: %s" % p["entry"]["text"])

    def call(self, method, session=True, timeout=10, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            ans = self.message(deadline)
            if ans.get("id") != self.next_id:
                self.record(ans)
                continue
            if "error" in ans:
                fail(self.step, "%s: %s" % (method, ans["error"].get("message")))
            return ans.get("result", {})

    def attach(self):
        self.step = "attach to the page"
        pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
        if not pages:
            fail(self.step, "chromium has no page target")
        self.session = self.call("Target.attachToTarget", targetId=pages[0]["targetId"],
                                 flatten=True)["sessionId"]
        for domain in ("Network", "Runtime", "Log", "Page"):
            self.call(domain + ".enable")

    def open(self, url, ready="document.body && document.body.dataset.rendered === '1'"):
        """Loads @url and waits until @ready holds in it."""
        self.step = "open " + url
        self.page_url = url.split("#")[0]
        err = self.call("Page.navigate", url=url).get("errorText")
        if err:
            fail(self.step, err)
        self.wait(self.step, ready)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            text = d.get("exception", {}).get("description", d["text"])
            fail(self.step, "%s threw %s" % (expr, text.splitlines()[0]))
        return r["result"].get("value")

    def wait(self, step, expr, timeout=10):
        """Polls @expr until it is true (its value), or fails @step at the deadline."""
        self.step = step
        deadline = time.monotonic() + timeout
        while True:
            v = self.eval(expr)
            if v:
                return v
            if time.monotonic() > deadline:
                self.eval("1")	# the events sent so far are read
                why = "; the page reported " + "; ".join(self.errors) if self.errors else ""
                fail(step, "%s was still %r after %d s%s" % (expr, v, timeout, why))
            # Let the page run before asking again: an empty round trip.
            self.call("Runtime.evaluate", expression="new Promise(r => setTimeout(r, 20))",
                      awaitPromise=True)

    def centre(self, step, expr):
        """The middle of the element @expr finds, in the window's pixels."""
        self.step = step
        r = self.eval("(() => { const e = %s; if (!e) return null;"
                      " e.scrollIntoView({block: 'nearest'});"
                      " const r = e.getBoundingClientRect();"
                      " return [r.left, r.top, r.width, r.height]; })()" % expr)
        if not r or r[2] < 1 or r[3] < 1:
            fail(step, "%s is not on the page (%r)" % (expr, r))
        return r[0] + r[2] / 2, r[1] + r[3] / 2, r

    def mouse(self, kind, x, y, buttons=0, **more):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, buttons=buttons, **more)

    def click(self, x, y):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y, buttons=1, button="left", clickCount=1)
        self.mouse("mouseReleased", x, y, button="left", clickCount=1)

    def drag(self, x0, y, x1, steps=5, held=None):
        """A drag from @x0 to @x1 along @y; @held() is called before the button is let go."""
        self.mouse("mouseMoved", x0, y)
        self.mouse("mousePressed", x0, y, buttons=1, button="left", clickCount=1)
        for i in range(1, steps + 1):
            self.mouse("mouseMoved", x0 + (x1 - x0) * i / steps, y, buttons=1, button="left")
        if held:
            held()
        self.mouse("mouseReleased", x1, y, button="left", clickCount=1)

    def type(self, text):
        """Text as a keyboard enters it into the focused element."""
        self.call("Input.insertText", text=text)

    def key(self, name, code):
        """One press of the key @name (its DOM key, "Backspace"), @code its Windows key code."""
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=name, code=name,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)

    def screenshot(self):
        """The whole page as a PNG, the window as tall as its content."""
        self.step = "screenshot"
        w, h = self.eval("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        self.call("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1,
                  mobile=False)
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])

    def clean(self, step):
        """The page made no request and reported no error."""
        self.step = step
        self.eval("1")	# the events sent so far are read
        if self.requests:
            fail(step, "the page asked for %s" % ", ".join(self.requests))
        if self.errors:
            fail(step, "the page reported %s" % "; ".join(self.errors))


def png_pixels(data):
    """A PNG's width, height and rows of RGB triples (8-bit RGB or RGBA only)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("screenshot", "not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        fail("screenshot", "an unexpected PNG layout: depth %d, colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, rows = bytearray(stride), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([bytes(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows

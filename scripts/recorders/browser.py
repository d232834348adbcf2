#!/usr/bin/env python3
"""Records a browser's cubic-bezier() easing as answers to the curves of
`kinetics verify --export-cases`, through the Web Animations API: per case
a paused animation with the case's `cubic-bezier()` easing, its currentTime
set to each x of the duration, its progress read back
(`getComputedTiming().progress`, the eased fraction).

    kinetics verify --suite bezier --grid full --export-cases cases.jsonl
    python3 scripts/recorders/browser.py firefox cases.jsonl answers.jsonl
    kinetics verify --suite bezier --grid full --results answers.jsonl --engine-name firefox

With --smil the curve is an SVG <animate calcMode="spline"> of a rect's x
from 0 to 1 instead (its keySplines; SVG accepts control points in [0, 1]
only, and keeps the value as a float), read through `x.animVal`.

BROWSER is firefox (Debian's firefox-esr, headless), webkitgtk (WebKitGTK
through python3-gi, under xvfb-run) or chromium (headless). The page is
served from 127.0.0.1 and asks for one case at a time; each answer is
posted back as it is made. The duration is 10^7 ms and each time is
rounded to the nanosecond before the browser sees it (Firefox keeps time
in whole nanoseconds, truncating, which moved x = 0.043 to 0.0429999999999),
so that every x of the grid comes back as the same double. A case that is not a curve is refused. The browser and its
version are printed on stderr. Exit 69 when the browser is not installed
(with what to install), 65 when it stops before answering every case."""
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

DURATION = 1e7

PAGE = """<!doctype html><html><body><div id="box"></div><script>
async function run() {
  const box = document.getElementById("box");
  for (let index = 0; ; index++) {
    const response = await fetch("/case?" + index);
    const item = await response.json();
    if (item === null) break;
    const values = location.search === "?smil" ? smil(item) : webAnimation(box, item);
    await fetch("/answer", {method: "POST", body: JSON.stringify({id: item.id, values})});
  }
  await fetch("/done", {method: "POST", body: navigator.userAgent});
  document.title = "done";
}
function webAnimation(box, item) {
  const easing = `cubic-bezier(${item.x1}, ${item.y1}, ${item.x2}, ${item.y2})`;
  const animation = box.animate([{opacity: 0}, {opacity: 1}], {duration: %(duration)s, easing, fill: "both"});
  animation.pause();
  const values = [];
  for (const x of item.x) {
    animation.currentTime = Math.round(x * %(duration)s * 1e6) / 1e6;
    values.push(animation.effect.getComputedTiming().progress);
  }
  animation.cancel();
  return values;
}
// SVG's <animate calcMode="spline"> of a rect's x from 0 to 1 over 1000 s
// (SMIL keeps whole milliseconds: x·10^6 ms is whole for the grid's x).
function smil(item) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const rect = document.createElementNS(ns, "rect");
  const animate = document.createElementNS(ns, "animate");
  const attributes = {
    attributeName: "x", from: "0", to: "1", dur: "1000s", calcMode: "spline", keyTimes: "0;1",
    keySplines: `${item.x1} ${item.y1} ${item.x2} ${item.y2}`, fill: "freeze",
  };
  for (const [name, value] of Object.entries(attributes)) animate.setAttribute(name, value);
  rect.appendChild(animate);
  svg.appendChild(rect);
  document.body.appendChild(svg);
  svg.pauseAnimations();
  const values = [];
  for (const x of item.x) {
    svg.setCurrentTime(x * 1000);
    values.push(rect.x.animVal.value);
  }
  svg.remove();
  return values;
}
run();
</script></body></html>""" % {"duration": repr(DURATION)}

# A launcher for WebKitGTK: a window (under Xvfb) that loads the page and
# quits when the page's title says it is done.
WEBKIT = """
import sys, gi
gi.require_version("Gtk", "3.0"); gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2
view = WebKit2.WebView()
view.connect("notify::title", lambda v, _: v.get_title() == "done" and Gtk.main_quit())
window = Gtk.Window(); window.add(view); window.show_all()
view.load_uri(sys.argv[1]); Gtk.main()
"""


def install_hint(browser):
    return {
        "firefox": "apt-get install firefox-esr",
        "chromium": "apt-get install chromium",
        "webkitgtk": "apt-get install gir1.2-webkit2-4.1 python3-gi xvfb",
    }[browser]


def launch(browser, url, profile):
    if browser == "firefox":
        version = subprocess.run(["firefox-esr", "--version"], capture_output=True, text=True).stdout.strip()
        command = ["firefox-esr", "--headless", "--no-remote", "--profile", profile, url]
    elif browser == "chromium":
        version = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()
        command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}", url]
    else:
        probe = "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2 as W; " \
            "print(f'WebKitGTK {W.get_major_version()}.{W.get_minor_version()}.{W.get_micro_version()}')"
        version = subprocess.run(["/usr/bin/python3", "-c", probe], capture_output=True, text=True).stdout.strip()
        command = ["xvfb-run", "-a", "/usr/bin/python3", "-c", WEBKIT, url]
    return version, subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def available(browser):
    if browser == "firefox":
        return shutil.which("firefox-esr") is not None
    if browser == "chromium":
        return shutil.which("chromium") is not None
    probe = "import gi; gi.require_version('WebKit2', '4.1')"
    return shutil.which("xvfb-run") is not None and subprocess.run(
        ["/usr/bin/python3", "-c", probe], capture_output=True).returncode == 0


def main():
    arguments = sys.argv[1:]
    smil = arguments[-1:] == ["--smil"]
    if smil:
        arguments = arguments[:-1]
    if len(arguments) != 3 or arguments[0] not in ("firefox", "chromium", "webkitgtk"):
        sys.stderr.write("usage: browser.py firefox|webkitgtk|chromium CASES ANSWERS [--smil]\n")
        sys.exit(64)
    browser, cases_path, answers_path = arguments
    if not available(browser):
        sys.stderr.write(f"browser.py: {browser} is not installed: {install_hint(browser)}\n")
        sys.exit(69)
    with open(cases_path) as lines:
        cases = [json.loads(line) for line in lines if line.strip()]
    curves = [case for case in cases if case["kind"] == "bezier"]
    answers = {}
    finished = threading.Event()
    agent = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, body, kind="application/json"):
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path.startswith("/case?"):
                index = int(self.path[6:])
                self.reply(json.dumps(curves[index] if index < len(curves) else None))
            else:
                self.reply(PAGE, "text/html")

        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            if self.path == "/answer":
                answer = json.loads(body)
                answers[answer["id"]] = answer
            else:
                agent.append(body)
                finished.set()
            self.reply("null")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="kinetics-browser-")
    page = f"http://127.0.0.1:{server.server_port}/" + ("?smil" if smil else "")
    version, process = launch(browser, page, profile)
    sys.stderr.write(f"browser.py: {version}\n")
    while not finished.wait(1):
        if process.poll() is not None:
            break
    process.terminate()
    process.wait()
    server.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
    if not finished.is_set():
        sys.stderr.write(f"browser.py: {browser} stopped after answering {len(answers)} of {len(curves)} curves\n")
        sys.exit(65)
    sys.stderr.write(f"browser.py: user agent {agent[0]}; {len(answers)} curves answered\n")
    with open(answers_path, "w") as out:
        for case in cases:
            if case["kind"] == "bezier":
                line = answers[case["id"]]
            else:
                line = {"id": case["id"], "error": f"{browser} records curves only: run with --suite bezier"}
            out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()

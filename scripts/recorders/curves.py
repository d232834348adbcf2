#!/usr/bin/env python3
"""Records a toolkit's cubic-bezier easing on the curves of the recorded
traces (data/traces/engines/TOOLKIT-bezier-NAME.csv, `x,y` at x = i/200),
for `kinetics compare bezier`: the curves Chromium was recorded on, and one
with its second control point at x = 1.

    python3 scripts/recorders/curves.py qt|firefox|webkitgtk|firefox-smil FOLDER

qt asks QEasingCurve (PySide6) in this process; the browsers are asked
through scripts/recorders/browser.py (the Web Animations API, or with
-smil SVG's spline animation, for the curves whose control points lie in
[0, 1]). y is printed with every digit (Python's repr)."""
import json
import os
import subprocess
import sys
import tempfile

CURVES = {
    "ease-in-out": (0.42, 0, 0.58, 1),
    "ease-out": (0, 0, 0.58, 1),
    "default": (0.25, 0.1, 0.25, 1),
    "steep": (0.9, 0, 0.1, 1),
    "overshoot": (0.3, -0.4, 0.6, 1.5),
    "x2-one": (0.666, 0, 1, 1),
}
XS = [i / 200 for i in range(201)]


def cases():
    return [
        {"id": f"bezier/{name}", "kind": "bezier", "protocol": 1, "x": XS, "x1": p[0], "y1": p[1], "x2": p[2],
         "y2": p[3]}
        for name, p in CURVES.items()
    ]


def answers_from_qt():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engines"))
    import qt
    import PySide6
    sys.stderr.write(f"curves.py: PySide6 {PySide6.__version__}, Qt {PySide6.QtCore.qVersion()}\n")
    return {case["id"]: qt.bezier(case)[0] for case in cases()}


def answers_from_browser(browser, smil=False):
    with tempfile.TemporaryDirectory() as folder:
        asked = os.path.join(folder, "cases.jsonl")
        answered = os.path.join(folder, "answers.jsonl")
        with open(asked, "w") as out:
            for case in cases():
                out.write(json.dumps(case) + "\n")
        script = os.path.join(os.path.dirname(__file__), "browser.py")
        status = subprocess.run([sys.executable, script, browser, asked, answered] + (["--smil"] if smil else [])).returncode
        if status != 0:
            sys.exit(status)
        with open(answered) as lines:
            return {answer["id"]: answer["values"] for answer in map(json.loads, lines)}


def main():
    toolkits = ("qt", "firefox", "webkitgtk", "firefox-smil")
    if len(sys.argv) != 3 or sys.argv[1] not in toolkits:
        sys.stderr.write("usage: curves.py " + "|".join(toolkits) + " FOLDER\n")
        sys.exit(64)
    toolkit, folder = sys.argv[1:]
    if toolkit == "qt":
        answers = answers_from_qt()
    else:
        answers = answers_from_browser(toolkit.split("-")[0], smil=toolkit.endswith("-smil"))
    for name, p in CURVES.items():
        if toolkit.endswith("-smil") and not (0 <= min(p[1], p[3]) and max(p[1], p[3]) <= 1):
            continue  # SVG's keySplines take control points in [0, 1] only
        with open(os.path.join(folder, f"{toolkit}-bezier-{name}.csv"), "w") as out:
            out.write("x,y\n")
            for x, y in zip(XS, answers[f"bezier/{name}"]):
                out.write(f"{x!r},{float(y)!r}\n")
    sys.stdout.flush()
    # See scripts/engines/qt.py: PySide6 may abort while Python finalizes.
    os._exit(0)


if __name__ == "__main__":
    main()

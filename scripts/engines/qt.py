#!/usr/bin/env python3
"""Qt's QEasingCurve (through PySide6) as an engine for `kinetics verify
--engine-command`: curves only. Each case's curve is one BezierSpline
segment, QEasingCurve.addCubicBezierSegment((x1, y1), (x2, y2), (1, 1)),
and each x is asked of valueForProgress, as a QPropertyAnimation asks it.

    python3 -m pip install PySide6
    kinetics verify --suite bezier --engine-command 'python3 scripts/engines/qt.py' --engine-name qt

Without PySide6 it says what to install and exits 69 (EX_UNAVAILABLE)."""
import os
import sys

try:
    import PySide6
    from PySide6.QtCore import QEasingCurve, QPointF
except ImportError:
    sys.stderr.write("qt.py: PySide6 is not installed: python3 -m pip install PySide6\n")
    sys.exit(69)

from protocol import serve


def bezier(case):
    curve = QEasingCurve(QEasingCurve.Type.BezierSpline)
    curve.addCubicBezierSegment(QPointF(case["x1"], case["y1"]), QPointF(case["x2"], case["y2"]), QPointF(1, 1))
    return [curve.valueForProgress(x) for x in case["x"]], None


if __name__ == "__main__":
    sys.stderr.write(f"qt.py: PySide6 {PySide6.__version__}, Qt {PySide6.QtCore.qVersion()}\n")
    serve("qt", bezier=bezier)
    # PySide6 6.12 under Python 3.11 aborts while the interpreter finalizes
    # after a full grid ("deallocating None"), though every answer is out:
    # leave without finalizing.
    sys.stdout.flush()
    os._exit(0)

#!/usr/bin/python3
"""Records GTK 4's CSS cubic-bezier() easing for `kinetics compare bezier`,
run with Debian's python3-gi under Xvfb (scripts/record-engines.sh):

    xvfb-run -a /usr/bin/python3 scripts/recorders/gtk_easing.py FOLDER
    xvfb-run -a /usr/bin/python3 scripts/recorders/gtk_easing.py --cases CASES FOLDER

For each curve, a new label's CSS color runs a 1 s transition from black
to white with `cubic-bezier(x1, y1, x2, y2)`; its red channel is the eased
fraction (GTK interpolates the color's floats linearly). The class that
starts the transition is added after a frame is painted, and GTK
validates the style, starting the transition, in the next frame's layout,
at that frame's time: x is each later frame's time less that one, over
1 s (frame times are the frame clock's whole microseconds, so x is exact
as printed). y is read after each frame is painted. A color's channels are
clamped to [0, 1], so a sample at 0 or 1 is kept only at x = 0 (where
the curve is 0): the rest may be clamped.

The first form writes gtk-bezier-NAME.csv for the curves of curves.py
whose y stays in [0, 1]; the second, one gtk-grid-N.csv per curve of
`kinetics verify --export-cases` (curves only) and gtk-grid.txt, a line
`FILE x1,y1,x2,y2` each, at GTK's frame times rather than the cases' x.
Exit 69 without GTK 4's introspection data."""
import json
import os
import sys

try:
    import gi

    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk
except (ImportError, ValueError):
    sys.stderr.write("gtk_easing.py: GTK 4 for python3-gi is missing: apt-get install python3-gi gir1.2-gtk-4.0\n")
    sys.exit(69)

sys.path.insert(0, os.path.dirname(__file__))
from curves import CURVES  # noqa: E402

DURATION_US = 1_000_000


def record(controls):
    """For each control-point tuple, the (x, y) of one transition along it,
    one curve after the other in one window."""
    results = []
    state = {}

    def activate(app):
        window = Gtk.ApplicationWindow(application=app)
        provider = Gtk.CssProvider()
        Gtk.StyleContext.add_provider_for_display(window.get_display(), provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

        def begin():
            control = controls[len(results)]
            points = ", ".join(repr(float(p)) for p in control)
            provider.load_from_data(
                (
                    "label { color: black; transition: color 1000ms cubic-bezier(%s); } label.on { color: white; }"
                    % points
                ).encode()
            )
            label = Gtk.Label(label="x")
            label.add_tick_callback(lambda *_: True)  # frames keep coming
            window.set_child(label)
            state.clear()
            state.update(label=label, painted=0, rows=[])

        def painted(clock):
            if not state:
                return
            time = clock.get_frame_time()
            if "class_added" not in state:
                state["painted"] += 1
                if state["painted"] == 3:
                    state["class_added"] = time
                    state["label"].add_css_class("on")
                return
            state.setdefault("start", time)
            x = (time - state["start"]) / DURATION_US
            state["rows"].append((x, state["label"].get_style_context().get_color().red))
            if x > 1:
                results.append([row for row in state["rows"] if row[0] <= 1])
                if len(results) == len(controls):
                    state.clear()
                    app.quit()
                else:
                    begin()

        window.present()
        window.get_frame_clock().connect("after-paint", painted)
        begin()

    app = Gtk.Application()
    app.connect("activate", activate)
    app.run([])
    return results


def write(path, rows):
    with open(path, "w") as out:
        out.write("x,y\n")
        for x, y in rows:
            if x == 0 or 0 < y < 1:
                out.write(f"{x!r},{y!r}\n")


def main():
    arguments = sys.argv[1:]
    if arguments[:1] == ["--cases"] and len(arguments) == 3:
        with open(arguments[1]) as lines:
            cases = [case for case in map(json.loads, lines) if case["kind"] == "bezier"]
        folder = arguments[2]
        controls = [(case["x1"], case["y1"], case["x2"], case["y2"]) for case in cases]
    elif len(arguments) == 1:
        folder = arguments[0]
        # A curve whose y leaves [0, 1] would lose most of its samples.
        named = {name: p for name, p in CURVES.items() if 0 <= min(p[1], p[3]) and max(p[1], p[3]) <= 1}
        controls = list(named.values())
    else:
        sys.stderr.write("usage: gtk_easing.py [--cases CASES] FOLDER\n")
        sys.exit(64)
    version = f"{Gtk.get_major_version()}.{Gtk.get_minor_version()}.{Gtk.get_micro_version()}"
    sys.stderr.write(f"gtk_easing.py: GTK {version}, {len(controls)} curves\n")
    recorded = record(controls)
    if arguments[0] == "--cases":
        with open(os.path.join(folder, "gtk-grid.txt"), "w") as index:
            for number, (control, rows) in enumerate(zip(controls, recorded)):
                name = f"gtk-grid-{number}.csv"
                write(os.path.join(folder, name), rows)
                index.write(f"{name} {','.join(repr(float(p)) for p in control)}\n")
    else:
        for name, rows in zip(named, recorded):
            write(os.path.join(folder, f"gtk-bezier-{name}.csv"), rows)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Records GTK 4's CSS cubic-bezier() easing for `kinetics compare bezier`,
run with Debian's python3-gi under Xvfb (scripts/record-engines.sh):

    xvfb-run -a /usr/bin/python3 scripts/recorders/gtk_easing.py FOLDER

For each curve of scripts/recorders/curves.py, a label's CSS color runs a
1 s transition from black to white with `cubic-bezier(x1, y1, x2, y2)`; its
red channel is the eased fraction (GTK interpolates the color's floats
linearly). The class that starts the transition is added after a frame is
painted, and GTK validates the style, starting the transition, in the next
frame's layout, at that frame's time: x is each later frame's time less
that one, over 1 s (frame times are the frame clock's whole microseconds,
so x is exact as printed). y is read after each frame is painted.
Writes gtk-bezier-NAME.csv for each curve whose y stays in [0, 1] (a
color's range); exit 69 without GTK 4's introspection data."""
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


def record(control):
    """(x, y) at each frame of one transition along `control`."""
    css = (
        "label { color: black; transition: color 1000ms cubic-bezier(%s); } label.on { color: white; }"
        % ", ".join(repr(float(p)) for p in control)
    )
    rows = []
    state = {"painted": 0}

    def activate(app):
        window = Gtk.ApplicationWindow(application=app)
        label = Gtk.Label(label="x")
        window.set_child(label)
        provider = Gtk.CssProvider()
        provider.load_from_data(css.encode())
        Gtk.StyleContext.add_provider_for_display(
            label.get_display(), provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION
        )

        def painted(clock):
            time = clock.get_frame_time()
            if "class_added" not in state:
                state["painted"] += 1
                if state["painted"] == 3:
                    state["class_added"] = time
                    label.add_css_class("on")
                return
            if "start" not in state:
                state["start"] = time
            x = (time - state["start"]) / DURATION_US
            rows.append((x, label.get_style_context().get_color().red))
            if x > 1:
                app.quit()

        def mapped(_widget):
            label.get_frame_clock().connect("after-paint", painted)
            label.queue_draw()

        # Keep frames coming while the transition runs.
        label.add_tick_callback(lambda *_: True)
        label.connect("map", mapped)
        window.present()

    app = Gtk.Application()
    app.connect("activate", activate)
    app.run([])
    return [row for row in rows if row[0] <= 1]


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: gtk_easing.py FOLDER\n")
        sys.exit(64)
    version = f"{Gtk.get_major_version()}.{Gtk.get_minor_version()}.{Gtk.get_micro_version()}"
    sys.stderr.write(f"gtk_easing.py: GTK {version}\n")
    # A color's channels are clamped to [0, 1]: the curve that overshoots
    # cannot be read through one, and is left out.
    for name, control in CURVES.items():
        if min(control[1], control[3]) < 0 or max(control[1], control[3]) > 1:
            continue
        with open(os.path.join(sys.argv[1], f"gtk-bezier-{name}.csv"), "w") as out:
            out.write("x,y\n")
            for x, y in record(control):
                out.write(f"{x!r},{y!r}\n")


if __name__ == "__main__":
    main()

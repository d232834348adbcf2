#!/usr/bin/python3
"""Records libadwaita's AdwSpringAnimation (through python3-gi, under Xvfb)
as traces for `kinetics compare`: a spring from 0 to 1 at rest, sampled at
every frame GTK's frame clock delivers while the animation plays.

Usage: xvfb-run -a /usr/bin/python3 adwaita.py OUTPUT_FOLDER
Times are written in milliseconds since the animation started, as the frame
clock gives them (its microseconds over 1000, from the whole millisecond in
which play() was called: the start libadwaita keeps), velocities in units
per second, as a GTK application would log them: compare with
--time-unit ms."""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, GLib, Gtk  # noqa: E402

FOLDER = sys.argv[1]
SPRINGS = [(300.0, 12.0), (2000.0, 40.0)]


class Recorder:
    def __init__(self, app):
        self.window = Gtk.ApplicationWindow(application=app)
        self.label = Gtk.Label(label="spring")
        self.window.set_child(self.label)
        self.window.present()
        self.queue = list(SPRINGS)
        GLib.timeout_add(300, self.next)

    def next(self):
        if not self.queue:
            self.window.get_application().quit()
            return False
        stiffness, damping = self.queue.pop(0)
        self.rows = []
        params = Adw.SpringParams.new_full(damping, 1.0, stiffness)
        target = Adw.CallbackAnimationTarget.new(self.value)
        self.animation = Adw.SpringAnimation.new(self.label, 0.0, 1.0, params, target)
        self.name = f"adwaita-spring-k{int(stiffness)}-c{int(damping)}.csv"
        self.animation.connect("done", self.done)
        # libadwaita starts the animation at the frame clock's time, in
        # whole milliseconds, when play() is called.
        self.start = self.label.get_frame_clock().get_frame_time() // 1000
        self.animation.play()
        return False

    def value(self, value):
        now = self.label.get_frame_clock().get_frame_time()
        self.rows.append((now / 1000.0 - self.start, value, self.animation.get_velocity()))

    def done(self, animation):
        with open(f"{FOLDER}/{self.name}", "w") as out:
            out.write("time,value,velocity\n")
            for row in self.rows:
                out.write(",".join(repr(float(v)) for v in row) + "\n")
        GLib.timeout_add(300, self.next)


app = Adw.Application(application_id="org.kinetics.Recorder")
app.connect("activate", lambda app: setattr(app, "recorder", Recorder(app)))
app.run([])
print(f"libadwaita {Adw.get_major_version()}.{Adw.get_minor_version()}.{Adw.get_micro_version()}")

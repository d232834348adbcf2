"""What the physics-engine recorders share: stepping a body frame by frame
and writing the samples as `time,value,velocity` traces, the same springs
and decays for every engine."""


def record(step, sample, start, fps, seconds):
    """The rows of a trace: `start` (the state at time 0), then after each
    step of 1/fps the time that step ends and `sample()` (value, velocity)."""
    h = 1 / fps
    rows = [start]
    for k in range(1, int(round(seconds * fps)) + 1):
        step(h)
        rows.append((k * h, *sample()))
    return rows


def write(folder, name, rows):
    """Writes rows as CSV, each number printed with repr (every bit kept)."""
    with open(f"{folder}/{name}", "w") as out:
        out.write("time,value,velocity\n")
        for row in rows:
            out.write(",".join(repr(float(v)) for v in row) + "\n")


def write_all(folder, engine, spring, decay):
    """The springs k300/c12 and k2000/c40 and a decay (100 units/s, Pop's
    deceleration 0.998), each at 60 and 120 Hz."""
    for tension, friction in [(300, 12), (2000, 40)]:
        for fps in (60, 120):
            write(folder, f"{engine}-spring-k{tension}-c{friction}-{fps}hz.csv", spring(tension, friction, fps))
    for fps in (60, 120):
        write(folder, f"{engine}-decay-{fps}hz.csv", decay(100.0, 0.998, fps))

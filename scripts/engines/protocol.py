"""The engine side of `kinetics verify --engine-command` (docs/engines.md),
for the adapters in this folder: reads one case per line on standard input,
answers each on standard output as it goes.

An adapter passes a function per kind it supports; each takes the case (a
dict, as on the wire) and a `step` schedule, and returns (values,
velocities) at the case's times (velocities may be None: a curve has
none). A kind without a function is refused,
which stops the run: give `--suite` the kinds the engine has."""
import json
import sys

PROTOCOL = 1


def frames(times):
    """The frame lengths between the case's times (the first time is the start)."""
    return [later - earlier for earlier, later in zip(times, times[1:])]


def serve(name, **solvers):
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        answer = {"id": case.get("id", "?")}
        if case.get("protocol") != PROTOCOL:
            answer["error"] = f"{name} speaks protocol {PROTOCOL}"
        elif case["kind"] not in solvers:
            answer["error"] = f"{name} has no {case['kind']}; run with --suite " + " --suite ".join(solvers)
        else:
            values, velocities = solvers[case["kind"]](case)
            answer["values"] = values
            if velocities is not None:
                answer["velocities"] = velocities
        out.write(json.dumps(answer))
        out.write("\n")
        out.flush()

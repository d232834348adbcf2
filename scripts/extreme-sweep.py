#!/usr/bin/env python3
"""Every numeric option of every kinetics subcommand, at the extremes.

    scripts/extreme-sweep.py [KINETICS]      default: .build/release/kinetics

The subcommands and their options come from the binary itself
(--experimental-dump-help), so a new option is swept without being listed
here. An option is numeric when it takes "1" and refuses "x". Each is run,
on a small base command of its subcommand, with 0, -0, the smallest
subnormal, the largest double, their negatives, NaN, +inf, -inf, 1e400
(which overflows while it is read) and 0.5 (a whole number's wrong kind).
A run fails the sweep when it

- is ended by a signal (a trap, a crash) or exits with a status kinetics
  does not use (0, 1, 2, 64, 65, 66, 69, 73);
- does not end within 120 s (a hang: every base command takes seconds);
- exits 0 having printed a NaN or an infinity (a silent non-number);
- exits with an error that is not one line starting "kinetics: error:" and
  naming the option or its value.

It prints one line per failure and a count of the runs; exit 1 on any
failure. CI runs it on the release build (.ci/run).
"""
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile

kinetics = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/kinetics")
work = tempfile.mkdtemp(prefix="kinetics-sweep-")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
statuses = {0, 1, 2, 64, 65, 66, 69, 73}
values = ["0", "-0", "5e-324", "1.7976931348623157e308", "-1.7976931348623157e308", "nan", "inf", "-inf",
          "1e400", "0.5"]
not_a_number = re.compile(r"(?<![A-Za-z])(-?inf(inity)?|nan)(?![A-Za-z])", re.IGNORECASE)


def run(arguments, timeout=120):
    try:
        done = subprocess.run([kinetics] + arguments, capture_output=True, text=True, timeout=timeout,
                              cwd=work, errors="replace")
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


def write(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as file:
        file.write(text)
    return path


# Inputs for the commands that read files, made by kinetics itself.
spring_trace = write("spring.csv", run(["trace", "spring", "--tension", "300", "--friction", "12"])[1])
decay_trace = write("decay.csv", run(["trace", "decay", "--velocity", "1000"])[1])
bezier_trace = write("bezier.csv", run(["trace", "bezier", "--curve", "ease-in"])[1])
verify_report = write("verify.json", run(["verify", "--suite", "decay", "--format", "json"])[1])
small_bench = ["--animations", "100", "--frames", "2", "--warmup", "1"]
bench_report = write("bench.json", run(["bench", "--engine", "animator", "--format", "json"] + small_bench)[1])
scenario = os.path.join(root, "data", "scenarios", sorted(os.listdir(os.path.join(root, "data", "scenarios")))[0])

# The base command of each subcommand: small, and valid on its own.
bases = {
    "report": ["report", "--animations", "100", "--output", os.path.join(work, "report.html")],
    "summary": ["summary"],
    "trace spring": ["trace", "spring", "SPRING"],
    "trace decay": ["trace", "decay", "--velocity", "1000"],
    "trace bezier": ["trace", "bezier", "--curve", "ease-in"],
    "convert": ["convert", "--bounciness", "4", "--speed", "12"],
    "verify": ["verify", "--suite", "decay"],
    "compare spring": ["compare", "spring", spring_trace, "SPRING", "--tolerance", "1"],
    "compare decay": ["compare", "decay", decay_trace, "--velocity", "1000"],
    "compare bezier": ["compare", "bezier", bezier_trace, "--curve", "ease-in", "--tolerance", "1"],
    "animate": ["animate", scenario],
    "bench": ["bench", "--engine", "animator"] + small_bench,
    "gate": ["gate", "--before-command", f"cat '{bench_report}'", "--after-command", f"cat '{bench_report}'",
             "--max-seconds", "2"],
    "plot spring": ["plot", "spring", "SPRING", "--output", os.path.join(work, "p.svg")],
    "plot decay": ["plot", "decay", "--velocity", "1000", "--output", os.path.join(work, "p.svg")],
    "plot bezier": ["plot", "bezier", "--curve", "ease-in", "--output", os.path.join(work, "p.svg")],
    "plot verify": ["plot", "verify", "--input", verify_report, "--output", os.path.join(work, "p.svg")],
    "plot bench": ["plot", "bench", "--input", bench_report, "--output", os.path.join(work, "p.svg")],
    "plot compare spring": ["plot", "compare", "spring", spring_trace, "SPRING", "--output",
                            os.path.join(work, "p.svg")],
    "plot compare decay": ["plot", "compare", "decay", decay_trace, "--velocity", "1000",
                           "--output", os.path.join(work, "p.svg")],
}


# SPRING in a base stands for a spring: the option swept and its partner
# (each spring is given by a pair), or Pop's tension and friction.
partners = {
    "--tension": ["--friction", "12"], "--friction": ["--tension", "300"], "--mass": ["--tension", "300", "--friction", "12"],
    "--bounciness": ["--speed", "12"], "--speed": ["--bounciness", "4"], "--stiffness": ["--damping", "10"],
    "--damping": ["--stiffness", "100"], "--response": ["--damping-fraction", "0.5"],
    "--damping-fraction": ["--response", "0.5"], "--duration": ["--bounce", "0.2"], "--bounce": ["--duration", "0.5"],
}


def with_spring(base, option=None):
    spring = partners.get(option, ["--tension", "300", "--friction", "12"])
    return [word for part in base for word in (spring if part == "SPRING" else [part])]


def commands(command, path):
    yield path, command
    for sub in command.get("subcommands", []):
        yield from commands(sub, path + [sub["commandName"]])


def judge(where, option, value, result):
    """The failure of one run, or None."""
    status, stdout, stderr = result
    if status is None:
        return f"{where}: did not end within 120 s"
    if status < 0 or status not in statuses:
        return f"{where}: exit {status}: {stderr.strip()[-300:]}"
    if status == 0:
        found = not_a_number.search(stdout)
        if found:
            line = next(l for l in stdout.splitlines() if not_a_number.search(l))
            return f"{where}: exit 0 printing {found.group(0)}: {line[:200]}"
        return None
    lines = stderr.strip().splitlines()
    shown = {value}
    try:
        number = float(value)
        shown |= {repr(number), str(number), f"{number:g}"}
        if math.isfinite(number) and number == int(number):
            shown.add(str(int(number)))
    except (ValueError, OverflowError):
        pass
    program = os.path.basename(kinetics)
    message = lines[-1] if lines else ""
    # Warnings may come first; the error is the last line.
    if not message.startswith(f"{program}: ") or any(not l.startswith(f"{program}: warning: ") for l in lines[:-1]):
        return f"{where}: exit {status} with {len(lines)} lines on stderr: {stderr.strip()[:300]}"
    if status in (64, 65) and option not in message and not any(s in message for s in shown):
        return f"{where}: exit {status}, a message naming neither the option nor the value: {message}"
    return None


tool = json.loads(subprocess.run([kinetics, "--experimental-dump-help"], capture_output=True, text=True).stdout)
failures = []
planned = []  # (where, option, value, arguments)
swept = set()
for path, command in commands(tool["command"], []):
    name = " ".join(path)
    if not command.get("arguments") or name not in bases:
        continue
    base = bases[name]
    status, _, stderr = run(with_spring(base))
    if status != 0 and not (name == "verify merge" and status in (0, 1)):
        failures.append(f"{name}: the base command {base} exits {status}: {stderr.strip()[:200]}")
        continue
    for argument in command["arguments"]:
        if argument.get("kind") != "option":
            continue
        option = "--" + next(n["name"] for n in argument["names"] if n["kind"] == "long")
        if option in base or option in ("--output", "--markdown", "--save-baseline"):
            continue
        arguments = with_spring(base, option)
        # Numeric: takes 1 (or refuses it for what 1 means, naming the
        # accepted range, not as no number), and refuses x as a usage error
        # (a path or a command refuses x otherwise, or takes it).
        accepts = run(arguments + [option, "1"])
        refuses = run(arguments + [option, "x"])
        accepts_message = accepts[2] or ""
        if ("is invalid for" in accepts_message and "accepted values are" not in accepts_message) or refuses[0] != 64:
            continue
        swept.add(f"{name} {option}")
        for value in values:
            planned.append((f"{name} {option}={value}", option, value, arguments + [f"{option}={value}"]))

# Two at a time: the machine's cores.
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    results = pool.map(lambda plan: judge(plan[0], plan[1], plan[2], run(plan[3])), planned)
    failures += [failure for failure in results if failure]
runs = len(planned)

for failure in failures:
    print(failure)
print(f"extreme-sweep: {runs} runs of {len(swept)} numeric options in {len(bases)} subcommands, {len(failures)} failures")
sys.exit(1 if failures else 0)

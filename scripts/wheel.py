#!/usr/bin/env python3
"""Packs a built `kinetics` binary into a Python wheel, as ruff and cmake ship
theirs: `pip install kinetics-VERSION-py3-none-PLATFORM.whl` puts `kinetics`
on the virtual environment's PATH, so that a project in any language needs
nothing but Python to run it.

The wheel holds no Python code: the binary goes under `.data/scripts/`,
which pip installs into the environment's `bin` as an executable, beside
the licences under `.dist-info/licenses/`. The platform tag is manylinux
for the newest glibc symbol version the binary needs (read with objdump), so
that pip refuses it where that glibc is missing.

    scripts/wheel.py BINARY VERSION OUTPUT-FOLDER [LICENCE-FILE...]
"""

import base64
import hashlib
import os
import platform
import re
import subprocess
import sys
import zipfile


def glibc_floor(binary):
    """The newest GLIBC_x.y version among the binary's dynamic symbols."""
    symbols = subprocess.run(["objdump", "-T", binary], capture_output=True, text=True, check=True).stdout
    versions = {tuple(int(part) for part in found) for found in re.findall(r"GLIBC_(\d+)\.(\d+)", symbols)}
    if not versions:
        sys.exit(f"wheel.py: error: {binary} names no glibc version (is it a dynamic executable?)")
    return max(versions)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: wheel.py BINARY VERSION OUTPUT-FOLDER [LICENCE-FILE...]")
    binary, version, folder, licences = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        sys.exit(f"wheel.py: error: the version must be MAJOR.MINOR.PATCH, got '{version}'")
    machine = platform.machine()
    major, minor = glibc_floor(binary)
    tag = f"py3-none-manylinux_{major}_{minor}_{machine}"
    name = f"kinetics-{version}"
    info = f"{name}.dist-info"
    metadata = "\n".join(
        [
            "Metadata-Version: 2.1",
            "Name: kinetics",
            f"Version: {version}",
            "Summary: The kinetics command: verify, compare and gate animation engines against GSL",
            "License: Apache-2.0 AND GPL-3.0-or-later (the binary links GSL statically)",
            "Requires-Python: >=3.7",
            "",
            "The `kinetics` command-line tool, one static binary: it needs no Swift toolchain and no GSL.",
            "",
        ]
    )
    wheel = "\n".join(
        ["Wheel-Version: 1.0", "Generator: kinetics scripts/wheel.py", "Root-Is-Purelib: false", f"Tag: {tag}", ""]
    )
    with open(binary, "rb") as handle:
        program = handle.read()
    files = [(f"{name}.data/scripts/kinetics", program, 0o755)]
    for licence in licences:
        with open(licence, "rb") as handle:
            files.append((f"{info}/licenses/{os.path.basename(licence)}", handle.read(), 0o644))
    files += [(f"{info}/METADATA", metadata.encode(), 0o644), (f"{info}/WHEEL", wheel.encode(), 0o644)]
    record = [record_line(path, data) for path, data, _ in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    os.makedirs(folder, exist_ok=True)
    output = os.path.join(folder, f"{name}-{tag}.whl")
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data, mode in files:
            entry = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    print(output)


if __name__ == "__main__":
    main()

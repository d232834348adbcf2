#!/usr/bin/env bash
# Makes sure valgrind (and objcopy, from binutils) are installed: `kinetics
# bench --count instructions` and `kinetics gate --count instructions` run
# frames under its callgrind, and the tests and the CI gates use them.
# On Debian or Ubuntu, as root, installs them with apt-get; elsewhere says
# what to install and fails.
set -euo pipefail

if command -v valgrind >/dev/null 2>&1 && command -v objcopy >/dev/null 2>&1; then
    exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "ensure-valgrind: installing valgrind and binutils with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq valgrind binutils >/dev/null
    command -v valgrind >/dev/null && command -v objcopy >/dev/null && exit 0
fi

echo "ensure-valgrind: valgrind or objcopy is missing. Install them (Debian/Ubuntu: sudo apt-get install valgrind binutils) and run again." >&2
exit 1

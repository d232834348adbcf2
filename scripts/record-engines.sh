#!/usr/bin/env bash
# Records traces from real engines into data/traces/engines/ for `kinetics
# compare` (the tests compare every one; recording is not part of them).
# Installs what it needs: from Debian chromium, firefox-esr, xvfb, python3-gi,
# gir1.2-adw-1 (libadwaita), gir1.2-webkit2-4.1 (WebKitGTK) and Qt Quick
# (qt6-declarative-dev, its QML modules, g++); from PyPI pymunk (Chipmunk2D),
# Box2D and PySide6 (Qt).
# data/traces/README.md says what each engine is, which version made the
# committed traces, and the scheme its source says it uses.
#
#   scripts/record-engines.sh            install what is missing and record
set -euo pipefail
cd "$(dirname "$0")/.."
out=data/traces/engines
mkdir -p "$out"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v firefox-esr >/dev/null || missing+=(firefox-esr)
command -v xvfb-run >/dev/null || missing+=(xvfb)
/usr/bin/python3 -c 'import gi; gi.require_version("Adw", "1")' 2>/dev/null || missing+=(python3-gi gir1.2-adw-1 gir1.2-gtk-4.0)
/usr/bin/python3 -c 'import gi; gi.require_version("WebKit2", "4.1")' 2>/dev/null || missing+=(gir1.2-webkit2-4.1)
pkg-config --exists Qt6Qml 2>/dev/null && command -v g++ >/dev/null \
    || missing+=(qt6-declarative-dev qml6-module-qtquick qml6-module-qtqml-workerscript g++ pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "record-engines.sh: error: install ${missing[*]} (as root: apt-get install)" >&2; exit 69; }
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -c 'import pymunk, Box2D, PySide6' 2>/dev/null || python3 -m pip install -q pymunk Box2D PySide6

python3 scripts/recorders/chipmunk.py "$out"
python3 scripts/recorders/box2d.py "$out"
xvfb-run -a /usr/bin/python3 scripts/recorders/adwaita.py "$out" 2>/dev/null

# Chromium writes every curve into one page: "# NAME" starts a curve's
# lines, "# agent ..." names the browser; split it into a file per curve.
chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$PWD/scripts/recorders/chromium.html" 2>/dev/null \
    | python3 -c '
import html, re, sys
page = html.unescape(re.search(r"<pre id=\"out\">(.*?)</pre>", sys.stdin.read(), re.S).group(1))
out = None
for line in page.splitlines():
    if line.startswith("# agent "):
        print("chromium: " + line[8:])
    elif line.startswith("# "):
        out = open(sys.argv[1] + "/chromium-bezier-" + line[2:] + ".csv", "w")
    else:
        out.write(line + "\n")
' "$out"
# The toolkits' curves: Qt in-process, the browsers through the Web
# Animations API (scripts/recorders/browser.py).
for toolkit in qt firefox webkitgtk firefox-smil; do
    python3 scripts/recorders/curves.py "$toolkit" "$out"
done
# GTK 4's CSS easing, through a color transition under Xvfb.
xvfb-run -a /usr/bin/python3 scripts/recorders/gtk_easing.py "$out" 2>/dev/null
# Qt Quick's SpringAnimation on Qt's own clock, driven frame by frame.
build=$(mktemp -d)
g++ -std=c++17 -fPIC scripts/recorders/qtquick_spring.cpp -o "$build/qtquick_spring" \
    $(pkg-config --cflags --libs Qt6Qml Qt6Gui)
XDG_RUNTIME_DIR="$build" "$build/qtquick_spring" "$out"
rm -rf "$build"
echo "recorded $(ls "$out" | wc -l) traces into $out"

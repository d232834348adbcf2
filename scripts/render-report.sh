#!/usr/bin/env bash
# Renders an HTML report to a PNG with headless Chromium (Debian's
# `chromium` package), to look at it as a reader would.
#
#   scripts/render-report.sh [REPORT.html [OUT.png [HEIGHT]]]
set -euo pipefail
report=${1:-kinetics-report.html}
out=${2:-${report%.html}.png}
height=${3:-5200}
command -v chromium >/dev/null || { echo "render-report.sh: error: chromium is not installed (apt-get install chromium)" >&2; exit 69; }
[[ -f $report ]] || { echo "render-report.sh: error: $report: no such file" >&2; exit 66; }
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,"$height" \
    --screenshot="$out" "file://$(realpath "$report")" 2>/dev/null
echo "wrote $out"

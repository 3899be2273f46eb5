#!/usr/bin/env bash
# System packages spawnpit needs on Debian/Ubuntu, installed only when missing:
#   always:   Pango (WeasyPrint's PDF output) and the DejaVu fonts the print CSS names; g++ and the Python
#             headers, for the native engine core (pip builds it; without them spawnpit runs on Python alone);
#   --tests:  also headless Chromium and poppler-utils (pdfinfo, pdftotext), which the aid tests use.
# Uses sudo when not root. Prints nothing when everything is there; fails loudly when apt-get fails.
set -euo pipefail
packages=()
ls /usr/lib/*/libpangoft2-1.0.so.0 >/dev/null 2>&1 || packages+=(libpango-1.0-0 libpangoft2-1.0-0)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || packages+=(fonts-dejavu-core)
# the native core (engine/native, optional at install, built by pip): a C++17 compiler and the Python headers
command -v g++ >/dev/null || packages+=(g++)
python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  2>/dev/null || packages+=(python3-dev)
if [ "${1:-}" = "--tests" ]; then
  command -v chromium >/dev/null || packages+=(chromium)
  { command -v pdfinfo >/dev/null && command -v pdftotext >/dev/null; } || packages+=(poppler-utils)
fi
[ ${#packages[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "spawnpit needs these system packages (Debian names): ${packages[*]}; install them with your package manager" >&2
  exit 1
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
log="$(mktemp)"
echo "installing system packages: ${packages[*]}" >&2
if ! { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
         "${packages[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "installing ${packages[*]} failed (log above)" >&2
  exit 1
fi
rm -f "$log"

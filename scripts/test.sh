#!/usr/bin/env bash
# The whole test suite: install starcom with its test tools and the test game (High Card, a
# plug-in package of its own: see scripts/setup.sh) and, where we may, Debian's Chromium for the
# browser tests; then run pytest (arguments passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS=dev bash scripts/setup.sh
if ! command -v chromium >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the browser tests..." >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
      || echo "could not install chromium: the browser tests will be skipped" >&2
  else
    echo "chromium is not installed (apt-get install chromium): the browser tests will be skipped" >&2
  fi
fi
exec .venv/bin/python -m pytest "$@"

#!/usr/bin/env bash
# The main job: install what is needed (the first time), then start starcom. Arguments are
# passed on: none starts the browser game, options alone (--no-browser, --port 9000, ...) are
# `starcom serve`'s, and a command name runs that command (start.sh --help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/starcom "$@"

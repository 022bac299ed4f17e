#!/usr/bin/env bash
# The main job: install what is needed, then start starcom (arguments are passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/starcom "$@"

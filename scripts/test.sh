#!/usr/bin/env bash
# The whole test suite: install starcom with its test tools, then run pytest (arguments passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS=dev bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"

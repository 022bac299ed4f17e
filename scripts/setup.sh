#!/usr/bin/env bash
# Create .venv (once) and install starcom into it; EXTRAS=dev adds the test tools.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$PY" -m venv .venv
fi
spec="."
[[ -n "${EXTRAS:-}" ]] && spec=".[${EXTRAS}]"
stamp=".venv/.installed-$(cat pyproject.toml | sha1sum | cut -c1-12)-${EXTRAS:-base}"
if [[ ! -f $stamp ]]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e "$spec"
  touch "$stamp"
fi

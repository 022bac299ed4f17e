#!/usr/bin/env bash
# Create .venv (once) and install starcom into it; EXTRAS=dev adds the test tools.
# Says what it is doing when it has work to do (on stderr, so that a command's own output stays
# clean) and nothing when everything is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
say() { printf '%s\n' "$*" >&2; }

if [[ ! -x .venv/bin/python ]]; then
  if ! command -v "$PY" >/dev/null 2>&1; then
    say "error: $PY not found: install Python 3.11 or newer, or set PYTHON=/path/to/python3"
    exit 1
  fi
  if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    say "error: starcom needs Python 3.11 or newer; $PY is $("$PY" -V 2>&1) (set PYTHON=/path/to/python3)"
    exit 1
  fi
  say "Creating a virtual environment in .venv…"
  fresh=$([[ -e .venv ]] && echo no || echo yes)
  if ! "$PY" -m venv .venv; then
    # A half-made .venv would pass the test above next time and fail later in a confusing way.
    [[ $fresh == yes ]] && rm -rf .venv
    say "error: could not create .venv (on Debian or Ubuntu: apt-get install python3-venv)"
    exit 1
  fi
fi

spec="."
[[ -n "${EXTRAS:-}" ]] && spec=".[${EXTRAS}]"
flavour=${EXTRAS:-base}
hash=$(sha1sum < pyproject.toml | cut -c1-12)
stamp=".venv/.installed-$hash-$flavour"
older=no
for f in .venv/.installed-*; do
  [[ -e $f ]] || continue
  if [[ $f == ".venv/.installed-$hash-"* ]]; then
    [[ $flavour == base ]] && stamp=$f   # any install of this pyproject.toml has the base packages
  else
    older=yes
  fi
done
if [[ ! -f $stamp ]]; then
  if [[ $older == yes ]]; then
    say "pyproject.toml changed: updating starcom's dependencies in .venv…"
  elif [[ -n "${EXTRAS:-}" ]]; then
    say "Installing starcom with its extra packages ($EXTRAS) into .venv (first time only, a minute or two)…"
  else
    say "Installing starcom and its dependencies into .venv (first start only, about 30 s)…"
  fi
  started=$SECONDS
  pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
  # sb3-contrib (the rl extra, and dev) needs PyTorch. Pin the release first: where a CPU build
  # of it is at hand (as on our CI machines) pip takes that, not the newest build with its GBs of
  # CUDA libraries; elsewhere see docs/rl.md for PyTorch's CPU index.
  if [[ ${EXTRAS:-} == *dev* || ${EXTRAS:-} == *rl* ]] && ! .venv/bin/python -c 'import torch' 2>/dev/null; then
    "${pip[@]}" torch==2.13.0 || say "could not install torch 2.13.0: pip will pick a build for sb3-contrib"
  fi
  if ! "${pip[@]}" --upgrade pip || ! "${pip[@]}" -e "$spec"; then
    say "error: the installation failed (pip's message is above); check the network, then run this again"
    exit 1
  fi
  rm -f .venv/.installed-*-"$flavour"
  touch "$stamp"
  say "Installed in $((SECONDS - started)) s; later starts skip this step."
fi

# The compiled build of both games' rules (docs/build.md): made once for these sources, with a
# progress line, and kept outside the source tree; with no C compiler, one line says the rules
# run as pure Python. STARCOM_PURE=1 skips it (and runs pure Python).
if [[ "${STARCOM_PURE:-0}" == 0 ]]; then
  # (STARCOM_PURE=1 for the compiling process itself: it needs no compiled rules to run.)
  STARCOM_PURE=1 .venv/bin/python -c 'import sys, starcom.build as b; sys.exit(b.main(["--if-needed"]))' || true
fi

# The test suite's own game, High Card, is a separate package (tests/plugins/highcard) that the
# platform finds through its entry point, as it would a third party's game: it comes with the test
# tools only, never with the base install. Reinstalled when its pyproject.toml changes (that is
# where its entry point is declared) or when .venv has it from another checkout.
if [[ ${EXTRAS:-} == *dev* ]]; then
  plugin=tests/plugins/highcard
  plugin_stamp=".venv/.test-game-$(sha1sum < "$plugin/pyproject.toml" | cut -c1-12)"
  here='import pathlib, sys, starcom_highcard as m
sys.exit(not pathlib.Path(m.__file__).resolve().is_relative_to(pathlib.Path(sys.argv[1]).resolve()))'
  if [[ ! -f $plugin_stamp ]] || ! .venv/bin/python -c "$here" "$plugin" 2>/dev/null; then
    say "Installing the test game (High Card, $plugin) into .venv…"
    if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e "$plugin"; then
      say "error: could not install the test game from $plugin (pip's message is above)"
      exit 1
    fi
    rm -f .venv/.test-game-*
    touch "$plugin_stamp"
  fi
fi

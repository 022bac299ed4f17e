"""The compiled build: both games' rules compiled with mypyc from the same typed source.

The modules in :data:`COMPILED` (the kit, Star Commander's engine, cards and observer, Galactic
Empires' engine and cards) can be compiled into C extensions with mypyc (``starcom build``, or
``scripts/setup.sh`` once at install). The extensions never go beside the sources: they are kept
in a cache folder keyed by a hash of the compiled sources and the Python version
(:func:`build_dir`), and an import hook (:func:`activate`, called by ``starcom/__init__.py``)
loads them for exactly those module names. So one checkout runs either build:

* the compiled one, when a build of exactly these sources is in the cache;
* the pure Python one with ``STARCOM_PURE=1``, when nothing was built, or when the sources
  changed since the build (then one line on stderr says how to rebuild).

:func:`build_name` says which one runs (``starcom --version`` and ``starcom bench`` print it).
Nothing here is imported by the rules: they are the same source in both builds.
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
import time
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The modules compiled, by name; every other module (packages' __init__ included) stays Python.
# The kit's codec stays Python (its TailTuple, a tuple subclass, is the base of typed actions,
# which a compiled tuple subclass cannot be), and so do the declarations of each game's
# actions and events (sc.engine.moves and .events, ge.moves and .events): the kit reads each NamedTuple's kind from its Literal annotation,
# which a compiled class does not keep; so do Star Commander's tasks (sc.engine.tasks), frozen
# dataclasses with a ClassVar name, which a compiled dataclass would take for a field.
COMPILED: tuple[str, ...] = (
    "starcom.kit.effects", "starcom.kit.rng",
    *(f"starcom.sc.engine.{m}" for m in (
        "actions", "banner", "board", "combat", "commands", "editions", "endphase", "flow", "game",
        "kernel", "lasting", "notation", "play", "priority", "rules", "ruleset", "setup", "state",
        "trade", "view")),
    *(f"starcom.sc.cards.{m}" for m in ("catalogue", "effects", "sheets", "stand_ins", "wording")),
    "starcom.sc.observer",
    *(f"starcom.ge.{m}" for m in (
        "actions", "board", "chain", "combat", "game", "observer", "plays", "points",
        "ruleset", "state", "turn", "wording")),
    *(f"starcom.ge.cards.{m}" for m in ("base", "catalogue", "crew", "effects", "escort", "krebiz")),
    # Where the engine's speed is spent: the search behind the hard AI and the Hint, and the
    # RL observations (the same results in both builds: tests/test_build.py).
    "starcom.agents.ismcts", "starcom.sc.agents.search_domain", "starcom.sc.agents.playout",
    "starcom.sc.agents.evaluation", "starcom.sc.features", "starcom.ge.features",
    # ... and the greedy and heuristic players, whose games are most of the balance lab's time.
    "starcom.sc.agents.greedy", "starcom.sc.agents.heuristic", "starcom.sc.agents.fleet",
)
GROUP = "starcom_rules"  # the shared library is GROUP + "__mypyc"
BUILDS: tuple[str, ...] = ("pure", "compiled")  # the two builds' names, as a child process is asked for one
PURE_ENV = "STARCOM_PURE"  # set to 1: run the pure Python build even when a compiled one is there
DIR_ENV = "STARCOM_BUILD_DIR"  # where the builds are kept (default: the user's cache folder)
KEEP = 3  # builds kept in the cache (the newest), so that a few checkouts can share it

SRC = Path(__file__).resolve().parent.parent  # the folder that holds the starcom package


def source_path(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


def sources_key() -> str:
    """A hash of the compiled sources, their names and the Python that runs them: a build is
    used only by a process whose key is its key."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')}\n".encode())
    for module in COMPILED:
        h.update(module.encode() + b"\0")
        h.update(source_path(module).read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "starcom" / "compiled"


def build_dir(key: str | None = None) -> Path:
    return cache_root() / (key or sources_key())


def _ext_path(folder: Path, module: str) -> Path:
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    return folder.joinpath(*module.split(".")).parent / (module.rsplit(".", 1)[-1] + suffix)


def _complete(folder: Path) -> bool:
    return (folder / "COMPLETE").is_file()


# --------------------------------------------------------------------------- the import hook


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and their shared library) in one build folder; every other
    name is left to the usual finders. A compiled module's ``__file__`` is its extension."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.names = frozenset(COMPILED)
        self.lib = GROUP + "__mypyc"

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname == self.lib:
            so = self.folder / (self.lib + str(sysconfig.get_config_var("EXT_SUFFIX")))
        elif fullname in self.names:
            so = _ext_path(self.folder, fullname)
        else:
            return None
        return importlib.util.spec_from_file_location(
            fullname, so, loader=importlib.machinery.ExtensionFileLoader(fullname, str(so)))


_state: dict[str, str] = {}


def activate() -> str:
    """Install the import hook if a build of these sources is there and ``STARCOM_PURE`` is not
    set; the name of the build that runs (:func:`build_name`). Says on stderr, once, when a build
    of other sources is there but none of these."""
    if "name" in _state:
        return _state["name"]
    name = "pure"
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        _state["why"] = f"{PURE_ENV}={os.environ[PURE_ENV]}"
    else:
        try:
            key = sources_key()
            folder = build_dir(key)
            if _complete(folder):
                if any(m in sys.modules for m in COMPILED):
                    _state["why"] = "some rules were imported before the compiled build"
                else:
                    sys.meta_path.insert(0, _Finder(folder))
                    name = "compiled"
                    _state["folder"] = str(folder)
            else:
                root = cache_root()
                older = root.is_dir() and any(_complete(d) for d in root.iterdir() if d.is_dir())
                _state["why"] = "the sources changed since the last build" if older else "not built"
                if older:
                    print("starcom: the compiled rules are older than their sources, so pure Python runs "
                          "(rebuild: starcom build)", file=sys.stderr)
        except OSError as exc:  # an unreadable cache folder: run pure Python
            _state["why"] = f"build cache not readable ({exc})"
    _state["name"] = name
    return name


def build_name() -> str:
    """``"compiled"`` or ``"pure"``: which build of the rules this process runs (the one its
    rules were actually loaded from, once they are)."""
    mod = sys.modules.get(COMPILED[0])
    if mod is not None:
        return "compiled" if isinstance(getattr(mod, "__loader__", None),
                                        importlib.machinery.ExtensionFileLoader) else "pure"
    return _state.get("name") or activate()


def child_env(build: str, src: Path | None = None) -> dict[str, str]:
    """The environment of a child Python process that runs ``build`` (``"pure"`` or
    ``"compiled"``) of the sources in ``src`` (the folder holding a ``starcom`` package; default
    this checkout's): this one's, with :data:`PURE_ENV` set and ``src`` first on the import path
    (a compiled build that is not there runs pure, see :func:`activate`)."""
    if build not in BUILDS:
        raise ValueError(f"unknown build {build!r}: say pure or compiled")
    env = dict(os.environ)
    env[PURE_ENV] = "1" if build == "pure" else "0"
    env["PYTHONPATH"] = os.pathsep.join([str(src or SRC), *filter(None, [env.get("PYTHONPATH")])])
    return env


def describe() -> str:
    """One line: which build runs, and why pure when it is."""
    name = build_name()
    if name == "compiled":
        return f"compiled (mypyc, {_state.get('folder', build_dir())})"
    return f"pure Python ({_state.get('why', 'not built')})"


# --------------------------------------------------------------------------- making a build


def compiler_missing() -> str | None:
    """Why a build cannot be made here (no C compiler, no Python headers, no mypyc), or None."""
    import shutil
    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None and shutil.which("gcc") is None and shutil.which("cc") is None:
        return f"no C compiler ({cc}) was found"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").is_file():
        return f"Python's C headers are not installed ({include}/Python.h; on Debian: apt-get install python3-dev)"
    for needed, package in (("mypyc", "mypy"), ("setuptools", "setuptools")):
        if importlib.util.find_spec(needed) is None:
            return f"{needed} is not installed (pip install {package})"
    return None


_SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, target, temp, opt = sys.argv[1].split(","), sys.argv[2], sys.argv[3], sys.argv[4]
setup(name="starcom-rules", ext_modules=mypycify(paths, opt_level=opt, target_dir=temp + "/c", group_name={group!r}),
      script_args=["build_ext", "--build-lib", target, "--build-temp", temp + "/o"])
"""


def build(force: bool = False, quiet: bool = False, opt_level: str = "3") -> Path:
    """Compile :data:`COMPILED` into :func:`build_dir` (nothing to do when it is there, unless
    ``force``): the folder. RuntimeError with mypyc's or the compiler's message when it fails."""
    key = sources_key()
    folder = build_dir(key)
    if _complete(folder) and not force:
        return folder
    missing = compiler_missing()
    if missing:
        raise RuntimeError(missing)
    import subprocess
    import tempfile
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="starcom-build-", dir=root) as temp:
        target = Path(temp) / "out"
        paths = [str(source_path(m)) for m in COMPILED]
        # mypy reads its settings from the folder it runs in: the package's own, not the caller's.
        config = SRC.parent / "pyproject.toml"
        cwd = SRC.parent if config.is_file() else Path(temp)
        proc = subprocess.run([sys.executable, "-c", _SETUP.format(group=GROUP), ",".join(paths), str(target),
                               temp, opt_level], cwd=cwd, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-40:])
            raise RuntimeError(f"mypyc failed:\n{tail}")
        import shutil
        (target / "COMPLETE").write_text(f"{key} built in {time.monotonic() - started:.0f} s\n")
        if folder.exists():
            shutil.rmtree(folder)
        target.rename(folder)
    _prune(root, keep=folder)
    return folder


def _prune(root: Path, keep: Path) -> None:
    import shutil
    builds = sorted((d for d in root.iterdir() if d.is_dir() and d != keep and not d.name.startswith("starcom-build-")),
                    key=lambda d: d.stat().st_mtime, reverse=True)
    for old in builds[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Make the compiled build once, with a progress line (``starcom build``; ``scripts/setup.sh``
    runs ``python -c 'import starcom.build as b; b.main(["--if-needed"])'``). ``--force``:
    compile again; ``--if-needed``: say nothing when the build is there. With no compiler: one
    line, and exit status 0 (pure Python runs); 1 when compiling failed."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = build_dir()
    if _complete(folder) and "--force" not in args:
        if "--if-needed" not in args:
            print(f"starcom: the rules are compiled already ({folder})", file=sys.stderr)
        return 0
    missing = compiler_missing()
    if missing:
        print(f"starcom: {missing}: the rules run as pure Python (slower; see docs/build.md)", file=sys.stderr)
        return 0
    print("Compiling the rules of both games with mypyc (once, a few minutes)…", file=sys.stderr, flush=True)
    started = time.monotonic()
    try:
        build(force="--force" in args)
    except RuntimeError as exc:
        print(f"starcom: the compiled build failed, the rules run as pure Python: {exc}", file=sys.stderr)
        return 1
    print(f"Compiled in {time.monotonic() - started:.0f} s ({folder}).", file=sys.stderr)
    return 0



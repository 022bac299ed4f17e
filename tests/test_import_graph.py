"""The package's import graph has no cycle, and the engine does not depend on card content.

Every module of ``src/starcom`` is read with :mod:`ast`; every import counts, at the top of a
module or inside a function (a late import still makes a cycle, only a hidden one), and
relative imports are resolved against the importing module. ``from pkg import name`` is an
edge to the module ``pkg.name`` when that is a module, else to ``pkg``;
``importlib.import_module("name")`` and ``__import__("name")`` with a literal name count as
imports of ``name``. With ``with_init``, importing ``a.b.c`` is also an edge to the packages
``a`` and ``a.b`` whose ``__init__`` runs first (except from inside that package, where it is
already running). Imports under ``if TYPE_CHECKING:`` are left out: they never run, and mypy
resolves cycles.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "starcom"
# The composition root: the one engine module that may import card content with code (it
# builds the standard ruleset from the catalogue and the effects module).
COMPOSITION_ROOTS = {"starcom.sc.engine.game"}


def module_names(src: Path = SRC) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name of a (possibly relative) ``from`` import's module."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _type_checking_only(node: ast.AST) -> bool:
    """Is ``node`` an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) block?"""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks (their
    ``else`` branches do run)."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if _type_checking_only(node):
            assert isinstance(node, ast.If)
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return out


def _dynamic_import(node: ast.AST) -> str | None:
    """The literal module name of ``importlib.import_module("x")`` or ``__import__("x")``."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func, arg = node.func, node.args[0]
    named = (isinstance(func, ast.Attribute) and func.attr == "import_module") or \
        (isinstance(func, ast.Name) and func.id in ("import_module", "__import__"))
    if named and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    return None


def _with_parents(name: str, importer: str) -> set[str]:
    """``name`` and the packages above it whose ``__init__`` runs when it is imported from
    ``importer`` (not the packages ``importer`` itself is inside: theirs already ran)."""
    parts = name.split(".")
    out = {name}
    for i in range(1, len(parts)):
        parent = ".".join(parts[:i])
        if not (importer == parent or importer.startswith(parent + ".")):
            out.add(parent)
    return out


def imports_of(name: str, path: Path, modules: dict[str, Path], with_init: bool = False) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in its code that runs."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
        elif (dynamic := _dynamic_import(node)) is not None:
            found.add(dynamic)
    if with_init:
        found = {p for m in found for p in _with_parents(m, name)}
    return {m for m in found if m in modules and m != name}


def import_graph(src: Path = SRC, with_init: bool = False) -> dict[str, set[str]]:
    modules = module_names(src)
    return {name: imports_of(name, path, modules, with_init) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.add(top)
                        if top == node:
                            break
                    out.append(group)
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first == last), or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for root in sorted(graph):
        if colour[root] != WHITE:
            continue
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        path = [root]
        colour[root] = GREY
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                colour[node] = BLACK
                continue
            nxt = todo.pop()
            if colour[nxt] == GREY:
                return path[path.index(nxt):] + [nxt]
            if colour[nxt] == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append((nxt, sorted(graph[nxt])))
    return None


def test_the_graph_sees_late_and_relative_imports() -> None:
    """The walk is what the other tests rely on: check it on modules known to import so."""
    graph = import_graph()
    assert "starcom.sc.engine.kernel" in graph["starcom.sc.engine.flow"]  # from .kernel import ...
    assert "starcom.sc.engine.combat" in graph["starcom.sc.engine.priority"]  # from . import combat
    assert "starcom.sc.engine.view" in graph["starcom.sc.engine.game"]  # imported inside a method
    assert "starcom.sc.engine.state" not in graph["starcom.sc.engine.events"]  # only for the types


def test_find_cycle_names_the_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_dynamic_imports_and_package_inits() -> None:
    """``importlib.import_module`` and ``__import__`` of a literal name are imports; with
    ``with_init``, importing a submodule runs the packages above it (not one's own)."""
    import textwrap
    modules = {"starcom.a": Path("a"), "starcom.b": Path("b"), "starcom.pkg": Path("p"), "starcom.pkg.c": Path("c")}
    code = textwrap.dedent("""
        import importlib
        def late():
            importlib.import_module("starcom.b")
            __import__("starcom.pkg.c")
    """)
    tmp = Path(__file__).with_name("_graph_probe.py")
    try:
        tmp.write_text(code, "utf-8")
        assert imports_of("starcom.a", tmp, modules) == {"starcom.b", "starcom.pkg.c"}
        assert imports_of("starcom.a", tmp, modules, with_init=True) == {"starcom.b", "starcom.pkg", "starcom.pkg.c"}
        assert imports_of("starcom.pkg.x", tmp, modules, with_init=True) == {"starcom.b", "starcom.pkg.c"}
    finally:
        tmp.unlink()


def test_no_import_cycle() -> None:
    """None at module level, counting dynamic imports and the package ``__init__`` each import
    runs."""
    cycle = find_cycle(import_graph(with_init=True))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


# --------------------------------------------------------------------------- games are plug-ins

GAME_PACKAGES = ("starcom.sc", "starcom.ge")
# A comparison against a game's name, or one of the game entries' constants, in code.
NAME_BRANCH = re.compile(r"""(==|!=|\bis\b|\bin\b)\s*\(?\s*(["'](?:starcom|ge|sc)["']|STARCOM\b|GE\b)""")


def _in_game(module: str) -> bool:
    return any(module == g or module.startswith(g + ".") for g in GAME_PACKAGES)


def _package(module: str) -> str:
    """The node a module belongs to at package level: its game, or its platform package (a
    root module is its own)."""
    for g in GAME_PACKAGES:
        if module == g or module.startswith(g + "."):
            return g
    return ".".join(module.split(".")[:2])


def test_the_platform_imports_no_game() -> None:
    """Clients reach a game through the registry (which loads it from its entry point), never
    by importing it."""
    graph = import_graph(with_init=True)
    wrong = sorted(f"{m} imports {d}" for m, deps in graph.items() if not _in_game(m) for d in deps if _in_game(d))
    assert not wrong, "platform modules import a game:\n" + "\n".join(wrong)


def test_the_platform_branches_on_no_game_name() -> None:
    wrong = []
    for name, path in module_names().items():
        if _in_game(name):
            continue
        for no, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if NAME_BRANCH.search(line.split("#", 1)[0]):
                wrong.append(f"{path.relative_to(SRC)}:{no}: {line.strip()}")
    assert not wrong, "the platform compares game names:\n" + "\n".join(wrong)


def test_the_name_branch_pattern_finds_branches() -> None:
    for line in ('if game == "starcom":', "if entry.name != 'ge':", "if entry is STARCOM:", 'x = name in ("sc",)'):
        assert NAME_BRANCH.search(line), line
    assert not NAME_BRANCH.search('default = games.default_game()')


def test_no_package_cycle() -> None:
    """At package level (each game one node, each platform package one) the graph is acyclic:
    games build on the platform, the platform's layers build on each other one way."""
    packages: dict[str, set[str]] = {}
    for m, deps in import_graph(with_init=True).items():
        packages.setdefault(_package(m), set()).update(_package(d) for d in deps)
    for node, deps in packages.items():
        deps.discard(node)
    groups = [sorted(g) for g in strongly_connected(packages) if len(g) > 1]
    assert not groups, f"package cycles: {groups}"


def test_strongly_connected_finds_groups() -> None:
    groups = strongly_connected({"a": {"b"}, "b": {"a", "c"}, "c": set(), "d": {"d"}})
    assert sorted(map(sorted, groups)) == [["a", "b"], ["c"], ["d"]]


def test_engine_and_cards_do_not_import_each_other() -> None:
    """Card content (the effects) builds on the engine; the engine reads only card *data*
    (modules of ``cards`` that import nothing of the engine), except the composition root."""
    graph = import_graph()
    cards = {m for m in graph if m.startswith("starcom.sc.cards")}
    engine = {m for m in graph if m.startswith("starcom.sc.engine")}
    plugins = {c for c in cards if graph[c] & engine}  # cards modules built on the engine
    wrong = sorted(f"{e} imports {c}" for e in engine - COMPOSITION_ROOTS for c in graph[e] & plugins)
    assert not wrong, "engine modules import card content that imports the engine:\n" + "\n".join(wrong)
    assert "starcom.sc.cards.effects" in plugins, "the effects module builds on the engine"

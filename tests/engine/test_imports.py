"""The engine's modules import in layers: no cycle (imports inside functions count, those under
``if TYPE_CHECKING:`` do not), and no module takes another's private names."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "bot" / "engine"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def type_checking_nodes(tree: ast.AST) -> set[int]:
    """Ids of every node inside an ``if TYPE_CHECKING:`` block."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped |= {id(n) for n in ast.walk(child)}
    return skipped


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names taken from it) for every import of ``path``, resolved to absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = type_checking_nodes(tree)
    own = module_name(path, root)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names = tuple(alias.name for alias in node.names)
            found.append((module, names))
            # ``from . import events``: the submodule itself is imported
            found += [(f"{module}.{name}", ()) for name in names]
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = {module_name(p): p for p in root.rglob("*.py")}
    return {name: {m for m, _ in imports_of(path) if m in modules and m != name}
            for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path ``a -> b -> ... -> a``, or None. (The package's own
    ``__init__`` is left out: every submodule runs it first by design, it imports them last.)"""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def engine_graph() -> dict[str, set[str]]:
    graph = import_graph(ENGINE)
    graph.pop("bot.engine", None)
    return {name: deps - {"bot.engine"} for name, deps in graph.items()}


def test_the_engine_has_no_import_cycle():
    cycle = find_cycle(engine_graph())
    assert cycle is None, " -> ".join(cycle or ())


def test_the_cycle_finder_sees_imports_inside_functions_but_not_type_checking(tmp_path):
    package = tmp_path / "bot" / "engine"
    package.mkdir(parents=True)
    (package / "a.py").write_text("def f():\n    from .b import g\n", encoding="utf-8")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from .c import h\nfrom . import a\n", encoding="utf-8")
    (package / "c.py").write_text("from .b import x\n", encoding="utf-8")
    graph = {module_name(p, tmp_path): {m for m, _ in imports_of(p, tmp_path)
                                        if m.startswith("bot.engine.")}
             for p in package.glob("*.py")}
    assert graph["bot.engine.b"] == {"bot.engine.a"}
    assert find_cycle(graph) == ["bot.engine.a", "bot.engine.b", "bot.engine.a"]


def test_the_layers_go_one_way():
    """Leaves import only leaves; the state only leaves; the predicates only the state."""
    graph = engine_graph()
    leaves = {f"bot.engine.{m}" for m in ("cards", "actions", "events", "errors", "rules", "rng")}
    for leaf in leaves:
        assert graph[leaf] <= leaves, leaf
    assert graph["bot.engine.state"] <= leaves
    assert graph["bot.engine.predicates"] <= leaves | {"bot.engine.state"}


def test_no_module_takes_private_names_of_another():
    users = [*ENGINE.rglob("*.py"), *(ROOT / "bot" / "ai").rglob("*.py"),
             ROOT / "bot" / "coordinator" / "presenter.py"]
    for path in users:
        for module, names in imports_of(path):
            if not module.startswith("bot.engine"):
                continue
            private = [n for n in names if n.startswith("_") and n != "__future__"]
            assert not private, f"{path.relative_to(ROOT)} imports {private} from {module}"


def test_the_ai_and_presenter_use_public_engine_modules():
    for path in [*(ROOT / "bot" / "ai").rglob("*.py"), ROOT / "bot" / "coordinator" / "presenter.py"]:
        for module, _ in imports_of(path):
            assert module != "bot.engine.core", \
                f"{path.relative_to(ROOT)} imports the engine's working copy ({module})"

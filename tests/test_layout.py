"""The architecture as a test: the engine is pure, bot/ imports no platform library, the
product has no import cycle."""

import ast
import sys
from pathlib import Path

from tests.engine.test_imports import find_cycle, imports_of, module_name

ROOT = Path(__file__).resolve().parent.parent
PLATFORM_LIBS = {"discord", "telegram", "sqlmodel", "sqlalchemy", "alembic", "aiosqlite", "asyncpg", "aiohttp"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"bot"}
    for path in (ROOT / "bot" / "engine").rglob("*.py"):
        outside = imported_roots(path) - allowed
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


def test_engine_does_not_reach_out_of_the_engine():
    for path in (ROOT / "bot" / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("bot.") or node.module.startswith("bot.engine"), path
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] not in {"asyncio", "time", "socket", "threading"}, path


def test_bot_imports_no_platform_library():
    for path in (ROOT / "bot").rglob("*.py"):
        bad = imported_roots(path) & PLATFORM_LIBS
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_adapters_use_only_the_coordinators_public_api():
    """Adapters import names ``bot.coordinator`` exports, never one of its modules directly, so
    the coordinator's inside can be rearranged without touching a frontend."""
    import bot.coordinator

    public = set(bot.coordinator.__all__)
    for path in (ROOT / "adapters").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("bot.coordinator") for a in node.names), where
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("bot.coordinator."), where
                if node.module == "bot.coordinator":
                    private = {a.name for a in node.names} - public
                    assert not private, f"{where} imports {sorted(private)}"


def _runtime_imports(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """(line, absolute module) of every import that runs, at module level or inside a
    function; an ``if TYPE_CHECKING:`` block runs for the type checker only."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_chat_adapters_reach_the_web_hand_through_its_port_only():
    """Discord and Telegram make web-hand links through ``adapters.links.HandLinks``, given
    by the composition root: the web server can change without touching a chat frontend."""
    for chat in ("discord", "telegram"):
        for path in (ROOT / "adapters" / chat).rglob("*.py"):
            package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, module in _runtime_imports(tree, package):
                assert module != "adapters.web" and not module.startswith("adapters.web."), \
                    f"{path.relative_to(ROOT)}:{line} imports {module}"


def product_graph() -> dict[str, set[str]]:
    """Who imports whom among the product's modules (imports inside functions count, those under
    ``if TYPE_CHECKING:`` do not). A module importing a package it belongs to is no edge: the
    package's ``__init__`` has run before it, and imports it rather than the other way round."""
    paths = [p for top in ("bot", "adapters", "storage") for p in (ROOT / top).rglob("*.py")]
    modules = {module_name(p): p for p in paths}
    return {name: {m for m, _ in imports_of(path) if m in modules and m != name
                   and not name.startswith(f"{m}.")}
            for name, path in modules.items()}


def test_no_import_cycle_in_the_product():
    cycle = find_cycle(product_graph())
    assert cycle is None, " -> ".join(cycle or ())


def test_no_product_module_is_over_500_lines():
    """A module does one thing: past 500 lines it is doing several."""
    long = {str(p.relative_to(ROOT)): n for top in ("bot", "adapters", "storage")
            for p in (ROOT / top).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long

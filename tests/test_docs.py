"""The README and docs/: every relative link leads somewhere, the README fits on a screen,
the configuration page lists exactly the variables of .env.example, and no page speaks of
anything but the project."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a page."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page: Path):
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):  # https:, mailto: ...
            continue
        path, _, anchor = unquote(target).partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.exists(), f"{page.relative_to(ROOT)} links to {target}: no such file"
        if anchor and resolved.suffix == ".md":
            assert anchor in anchors(resolved), f"{page.relative_to(ROOT)}: no heading #{anchor} in {path}"


def test_the_readme_fits_in_8_kib():
    assert len((ROOT / "README.md").read_bytes()) <= 8192


def test_the_readme_plays_and_tests_with_the_two_make_targets():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Play in the terminal"):text.index("## Running the bots")]
    commands = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    assert [line.split("#")[0].split() for line in commands.splitlines()] == [["make", "play"], ["make", "test"]]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^play: .*\n\t\$\(VENV\)/bin/unobot play", makefile, re.M)
    assert re.search(r"^test: .*\n\t\$\(PY\) -m pytest", makefile, re.M)
    if shutil.which("make") is None:
        pytest.skip("no make here")
    # The command as make expands it (-o the stamp: as if the venv were installed).
    dry_run = subprocess.run(["make", "--no-print-directory", "-n", "-o", ".venv/.installed", "test"],
                             cwd=ROOT, capture_output=True, text=True, timeout=30)
    (command,) = [line for line in dry_run.stdout.splitlines() if " -m pytest" in line]
    options = command.split(" -m pytest", 1)[1]
    assert not re.search(r"(^|\s)(-m|-k|--lf|tests)", options)  # all of it


def env_example_variables() -> set[str]:
    text = (ROOT / ".env.example").read_text()
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", text, re.M))


def test_the_configuration_page_lists_exactly_the_variables_of_env_example():
    page = (ROOT / "docs" / "operators" / "configuration.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", page, re.M))
    assert documented == env_example_variables()
    assert documented == {name.upper() for name in Settings.model_fields}


def test_no_page_cites_an_issue_number():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"\bissues? ?#?\d+|(?<![\w&])#\d+\b", text, re.I), page

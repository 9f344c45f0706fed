"""What a fresh clone installs cannot change under it: 0.x packages and the linters have
upper bounds, and every package the install resolves is pinned in constraints.txt, which
the Makefile (and so CI, through `make test`) installs with."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LINTERS = {"ruff", "mypy"}  # run by tests/test_lint.py


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["dependencies"] + project["optional-dependencies"]["test"]]


def pins() -> dict[str, Version]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt pins exact versions, not {line!r}"
            found[canonicalize_name(name)] = Version(version)
    return found


def has_upper_bound(requirement: Requirement) -> bool:
    return any(spec.operator in ("<", "<=", "==", "~=") for spec in requirement.specifier)


def test_zero_x_packages_and_linters_have_upper_bounds():
    pinned = pins()
    for requirement in requirements():
        name = canonicalize_name(requirement.name)
        if pinned[name].major == 0 or name in LINTERS:
            assert has_upper_bound(requirement), f"{requirement} needs an upper bound"


def test_every_requirement_is_pinned_within_its_range():
    pinned = pins()
    for requirement in requirements():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in constraints.txt: run `make constraints`"
        assert requirement.specifier.contains(pinned[name], prereleases=True), \
            f"constraints.txt pins {name}=={pinned[name]}, outside {requirement}: run `make constraints`"


def test_what_is_installed_is_what_is_pinned():
    """The environment the suite runs in was installed from constraints.txt."""
    pinned = pins()
    for name, version in pinned.items():
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            continue  # a platform-specific dependency not needed here
        assert installed == version, f"{name} {installed} is installed, constraints.txt pins {version}"


def test_the_makefile_installs_with_the_constraints():
    makefile = (ROOT / "Makefile").read_text()
    install = next(line for line in makefile.splitlines() if "pip install" in line and "-e " in line)
    assert "-c $(CONSTRAINTS)" in install and "PIP_CONSTRAINT=" in install
    assert re.search(r"^CONSTRAINTS := constraints.txt$", makefile, re.M)
    assert re.search(r"^\$\(STAMP\):.*\$\(CONSTRAINTS\)", makefile, re.M)  # a new pin reinstalls
    assert "make test" in (ROOT / ".ci" / "run").read_text()

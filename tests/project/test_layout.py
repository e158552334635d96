"""The tree stays readable: small modules, small package folders, the import names under one root.

(The import graph itself, no circle anywhere and the server's layers, is checked by `lint-imports`,
which `make lint` runs with the contracts in pyproject.toml.)
"""

from __future__ import annotations

from pathlib import Path

from tests import paths

ROOT = paths.ROOT
CODE = ("engine", "server", "schema", "tests", "bench")
MAX_LINES = 500
MAX_MODULES = 12


def _modules() -> list[Path]:
    found = []
    for folder in CODE:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".js") and "__pycache__" not in path.parts:
                found.append(path)
    return found


def test_no_module_is_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_no_package_folder_holds_more_than_a_dozen_modules() -> None:
    folders: dict[Path, int] = {}
    for path in _modules():
        folders[path.parent] = folders.get(path.parent, 0) + 1
    crowded = {str(f.relative_to(ROOT)): n for f, n in folders.items() if n > MAX_MODULES}
    assert crowded == {}


def test_every_python_folder_is_a_package_of_the_spidertour_namespace() -> None:
    """Every folder of engine/ and server/ with Python in it is a package that pyproject.toml maps."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    for top in ("engine", "server"):
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            if "__pycache__" in folder.parts or not any(folder.glob("*.py")):
                continue
            assert (folder / "__init__.py").exists(), folder
            name = "spidertour." + folder.relative_to(ROOT).as_posix().replace("/", ".")
            assert f'"{name}"' in pyproject, name


def test_every_folder_shipped_is_listed() -> None:
    """Every folder under engine/, server/ and schema/, the web client's folders of data included,
    is in pyproject.toml's `packages`: one left out is a folder setuptools warns about at every
    install (and would stop shipping)."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    missing = []
    for top in ("engine", "server", "schema"):
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            if "__pycache__" in folder.parts or not folder.name.isidentifier():
                continue
            name = "spidertour." + folder.relative_to(ROOT).as_posix().replace("/", ".")
            if f'"{name}"' not in pyproject:
                missing.append(name)
    assert missing == []

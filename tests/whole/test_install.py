"""The built wheel works in the install layouts users have, not only in this checkout's venv: the
grammar travels inside the package (a user install once died with `grammars/pdn.lark not found`)."""
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source archive, as `python -m build --sdist` makes it (what pip builds a wheel from), by the
    setuptools pyproject.toml asks for (a venv of Python 3.12 or later has none)."""
    folder = tmp_path_factory.mktemp("sdist")
    requires = tomllib.loads(ROOT.joinpath("pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(folder / "build"), *requires],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(folder)], cwd=ROOT, check=True,
                   capture_output=True, env={**os.environ, "PYTHONPATH": str(folder / "build")})
    return next(folder.glob("pdn[-_]tools-*.tar.gz"))       # (older setuptools: pdn-tools)


@pytest.fixture(scope="module")
def wheel(sdist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from the source archive: the compiled modules in it show that the archive
    holds every C source and header the build needs."""
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(folder), str(sdist)], check=True, capture_output=True)
    return next(folder.glob("pdn_tools-*.whl"))


def _validates_samples(pdn: Path, env: dict[str, str], cwd: Path) -> None:
    run = subprocess.run([str(pdn), "validate", str(ROOT / "samples")], env=env, cwd=cwd,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr


def test_the_wheel_holds_the_grammar_as_a_file_of_the_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        grammar = archive.read("pdn_tools/text/pdn.lark").decode("utf-8")
    assert grammar == ROOT.joinpath("pdn_tools", "text", "pdn.lark").read_text(encoding="utf-8")
    assert not [name for name in archive.namelist() if name.startswith(("grammars/", "share/"))]


def test_the_wheel_holds_the_compiled_modules_not_their_sources(wheel: Path, sdist: Path) -> None:
    """The C sources and headers (250 KB) are for building: in the source archive, not in the wheel,
    where nothing reads them (it shipped all 20)."""
    sources = sorted(str(path.relative_to(ROOT)) for path in ROOT.joinpath("pdn_tools").rglob("*.[ch]"))
    with tarfile.open(sdist) as archive:
        packed = sorted(name.split("/", 1)[1] for name in archive.getnames() if "/" in name)
    assert sources and set(sources) <= set(packed)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert [name for name in names if name.endswith((".c", ".h"))] == []
    assert sorted(name.split(".")[0] for name in names if name.endswith(".so")) == ["pdn_tools/rules/_core",
                                                                                   "pdn_tools/text/_scan"]


def test_a_user_install_outside_any_venv_validates(wheel: Path, tmp_path: Path) -> None:
    base = getattr(sys, "_base_executable", sys.executable)
    env = {**os.environ, "PYTHONUSERBASE": str(tmp_path / "user")}
    env.pop("PYTHONPATH", None)
    subprocess.run([base, "-m", "pip", "install", "-q", "--user", "--no-warn-script-location", str(wheel)],
                   env=env, check=True, capture_output=True)
    _validates_samples(tmp_path / "user" / "bin" / "pdn", env, tmp_path)


def test_a_fresh_venv_validates(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], env=env, check=True,
                   capture_output=True)
    _validates_samples(venv / "bin" / "pdn", env, tmp_path)

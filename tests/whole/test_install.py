"""The built wheel works in the install layouts users have, not only in this checkout's venv: the
grammar travels inside the package (a user install once died with `grammars/pdn.lark not found`)."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(folder), str(ROOT)], check=True, capture_output=True)
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

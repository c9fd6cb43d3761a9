"""Tests of repro.core.envlock: reading the lock, its digest, the comparison with the installed environment, and the
command line that setup and CI run (a deliberate mismatch must fail it)."""
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from repro.core import envlock

ROOT = Path(__file__).resolve().parents[1]

LOCK = """\
#
#    bash scripts/lock.sh
#
Jinja2==3.1.6 \\
    --hash=sha256:aaaa
    # via sphinx
numpy==2.4.6 \\
    --hash=sha256:bbbb \\
    --hash=sha256:cccc
    # via repro (pyproject.toml)
ruamel_yaml==0.18.0 ; python_version < "3.99" \\
    --hash=sha256:dddd
pywin32==311 ; sys_platform == "win32-never" \\
    --hash=sha256:ffff
torch==2.13.0+cpu \\
    --hash=sha256:eeee
    # via repro (pyproject.toml)
"""


def write(tmp_path, text=LOCK):
    path = tmp_path / "requirements.lock"
    path.write_text(text)
    return path


def test_read_lock_normalizes_names_ignores_hashes_and_comments_and_keeps_the_pins_whose_marker_holds(tmp_path):
    assert envlock.read_lock(write(tmp_path)) == {"jinja2": "3.1.6", "numpy": "2.4.6", "ruamel-yaml": "0.18.0",
                                                  "torch": "2.13.0+cpu"}


def test_read_lock_refuses_a_missing_or_empty_lock(tmp_path):
    with pytest.raises(FileNotFoundError, match="no lock file"):
        envlock.read_lock(tmp_path / "absent.lock")
    with pytest.raises(ValueError, match="pins no package"):
        envlock.read_lock(write(tmp_path, "# only a comment\n"))


def test_digest_depends_on_the_pins_only():
    a = envlock.digest({"numpy": "2.4.6", "torch": "2.13.0"})
    assert a == envlock.digest({"torch": "2.13.0", "numpy": "2.4.6"}) and len(a) == 16
    assert a != envlock.digest({"numpy": "2.4.7", "torch": "2.13.0"})


def test_differences_name_each_missing_extra_and_changed_package():
    locked = {"numpy": "2.4.6", "scipy": "1.17.1", "torch": "2.13.0+cpu"}
    present = {"numpy": "2.4.7", "torch": "2.13.0+cu130", "tqdm": "4.67.1"}
    assert envlock.differences(locked, present) == [
        "numpy: locked 2.4.6, installed 2.4.7", "scipy: locked 1.17.1, not installed",
        "torch: locked 2.13.0+cpu, installed 2.13.0+cu130", "tqdm: installed 4.67.1, not in the lock"]
    assert envlock.differences(locked, present, ignore=["Torch", "numpy", "scipy", "tqdm"]) == []
    assert envlock.differences(locked, dict(locked)) == []


def test_without_drops_a_pin_with_its_hash_and_comment_lines(tmp_path):
    text = envlock.without(LOCK, ["torch", "jinja2"])
    assert "torch" not in text and "eeee" not in text and "Jinja2" not in text and "aaaa" not in text
    assert envlock.read_lock(write(tmp_path, text)) == {"numpy": "2.4.6", "ruamel-yaml": "0.18.0"}
    assert "pywin32==311" in text  # not dropped: only the named packages are


def test_installed_sees_this_environment():
    found = envlock.installed()
    assert found["numpy"] == importlib.metadata.version("numpy")
    assert "pip" not in found and "repro" not in found


def test_stamp_records_the_digest_and_the_differences(tmp_path):
    here = envlock.installed()
    lock = write(tmp_path, "".join(f"{name}=={version}\n" for name, version in here.items()))
    assert envlock.stamp(lock) == {"lock": envlock.digest(here), "matches_lock": True, "differs": []}
    changed = dict(here, numpy="0.0.1")
    stamp = envlock.stamp(write(tmp_path, "".join(f"{n}=={v}\n" for n, v in changed.items())))
    assert stamp["matches_lock"] is False
    assert stamp["differs"] == [f"numpy: locked 0.0.1, installed {here['numpy']}"]
    assert envlock.stamp(tmp_path / "absent.lock")["lock"] is None


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "repro.core.envlock", *args], capture_output=True, text=True)


def test_check_fails_on_a_deliberate_mismatch_and_passes_on_a_matching_lock(tmp_path):
    here = envlock.installed()
    good = write(tmp_path, "".join(f"{name}=={version} \\\n    --hash=sha256:00\n" for name, version in here.items()))
    result = run_cli("check", "--lock", str(good))
    assert result.returncode == 0, result.stderr
    assert f"environment matches requirements.lock: {len(here)} packages" in result.stdout
    bad = dict(here, numpy="0.0.1")
    del bad["scipy"]
    bad_lock = tmp_path / "bad.lock"
    bad_lock.write_text("".join(f"{name}=={version}\n" for name, version in bad.items()))
    result = run_cli("check", "--lock", str(bad_lock))
    assert result.returncode == 1
    assert "in 2 package(s)" in result.stderr
    assert f"numpy: locked 0.0.1, installed {here['numpy']}" in result.stderr
    assert "scipy: installed" in result.stderr and "not in the lock" in result.stderr
    assert run_cli("check", "--lock", str(bad_lock), "--ignore", "numpy", "--ignore", "scipy").returncode == 0
    assert run_cli("extras", "--lock", str(bad_lock)).stdout.split() == ["scipy"]
    assert run_cli("check", "--lock", str(bad_lock), "--ignore", "numpy", "--locked-only").returncode == 0


def test_keep_torch_accepts_another_build_of_the_locked_torch_only(tmp_path, monkeypatch):
    here = envlock.installed()
    torch = here["torch"].split("+")[0]
    for pinned, ok in ((f"{torch}+cu130", True), ("9.9.9+cpu", False)):
        lock = write(tmp_path, "".join(f"{n}=={pinned if n == 'torch' else v}\n" for n, v in here.items()))
        monkeypatch.setenv("REPRO_KEEP_TORCH", "1")
        result = run_cli("check", "--lock", str(lock))
        assert (result.returncode == 0) == ok, result.stderr
        if not ok:
            assert "which must be 9.9.9 (any build)" in result.stderr
        monkeypatch.delenv("REPRO_KEEP_TORCH")
        assert run_cli("check", "--lock", str(lock)).returncode == 1  # without it, another build is a difference
    monkeypatch.setenv("REPRO_KEEP_TORCH", "yes")
    assert "REPRO_KEEP_TORCH='yes' is not allowed" in run_cli("check").stderr


def test_the_committed_lock_pins_every_declared_dependency_with_hashes():
    text = (ROOT / envlock.LOCK_NAME).read_text()
    pins = envlock.read_lock(ROOT / envlock.LOCK_NAME)
    for name in ("torch", "numpy", "scipy", "scikit-learn", "matplotlib", "sympy", "dask", "pyyaml", "myst-nb",
                 "jupyter-book", "nbval", "pytest-xdist", "playwright", "jupyterlab", "setuptools"):
        assert name in pins, name
    blocks = [b for b in text.split("\n") if envlock._PIN.match(b)]
    assert len(blocks) == len(pins)
    assert all(b.rstrip().endswith("\\") for b in blocks), "every pin is followed by its hashes"
    assert "/opt/" not in text and "--extra-index-url" not in text  # nothing of one machine's pip setup


def test_explain_says_when_the_environment_differs_and_is_silent_when_it_does_not():
    here = {"lock": "a" * 16, "matches_lock": True, "differs": []}
    assert envlock.explain({"lock": "a" * 16, "matches_lock": True, "how": "executed"}, here) == ""
    assert "record no environment" in envlock.explain({}, here)
    other = envlock.explain({"lock": "b" * 16, "matches_lock": True}, here)
    assert other.startswith("environment differs:") and "b" * 16 in other and "a" * 16 in other
    assert "bash scripts/setup.sh" in other
    drifted = envlock.explain({"lock": "a" * 16, "matches_lock": False, "differs": ["numpy: locked 1, installed 2"]},
                              here)
    assert "numpy: locked 1, installed 2" in drifted
    unlocked = dict(here, matches_lock=False, differs=["scipy: locked 1.17.1, not installed"])
    assert "scipy: locked 1.17.1, not installed" in envlock.explain({"lock": "a" * 16}, unlocked)


def test_the_lock_satisfies_every_dependency_pyproject_declares():
    # a dependency added to pyproject.toml without `bash scripts/lock.sh` (or a range the lock's pin falls outside)
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = list(project["dependencies"])
    for extra in ("dev", "cluster", "lab", "browser"):  # the extras the README's commands install
        declared += project["optional-dependencies"][extra]
    pins = envlock.read_lock(ROOT / envlock.LOCK_NAME)
    for text in declared:
        req = Requirement(text)
        name = envlock.normalize(req.name)
        assert name in pins, f"{req.name} is declared but not locked: run `bash scripts/lock.sh`"
        assert req.specifier.contains(pins[name], prereleases=True), (text, pins[name])
        for extra in req.extras:  # e.g. dask[distributed]: the extra's own packages are locked too
            assert extra != "distributed" or "distributed" in pins


def _chapter(path, stored_output: str, environment: dict):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["repro"] = {"environment": environment}
    cell = nbformat.v4.new_code_cell("print(1)", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=stored_output)]
    nb.cells = [cell]
    nbformat.write(nb, path)


@pytest.mark.slow
def test_nbval_failures_say_when_the_chapters_environment_differs(tmp_path):
    # book/conftest.py on a one-cell chapter whose stored output is wrong: with another recorded lock the failure
    # says "environment differs"; with this environment's own stamp it is a plain failure
    (tmp_path / "conftest.py").write_text((ROOT / "book" / "conftest.py").read_text())
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    here = envlock.stamp()
    _chapter(tmp_path / "other.ipynb", "2\n", dict(here, lock="0123456789abcdef", how="validated"))
    _chapter(tmp_path / "same.ipynb", "2\n", dict(here, how="validated"))
    _chapter(tmp_path / "good.ipynb", "1\n", dict(here, lock="0123456789abcdef", how="validated"))
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--nbval", "-rf", "."],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1, result.stdout
    assert "2 failed, 1 passed" in result.stdout
    summary = result.stdout.split("environment differs ==")[1]
    assert "other.ipynb: environment differs: the stored outputs were made or validated with lock 0123456789abcdef" \
        in summary
    assert "same.ipynb" not in summary.split("short test summary")[0] and "good.ipynb" not in summary

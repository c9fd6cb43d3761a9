"""The README's commands and the CI files: shell syntax, and what each step of the test command runs (its dry run
prints every step's command: REPRO_DRY_RUN=1)."""
import os
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script", ["scripts/test.sh", "scripts/build.sh", "scripts/setup.sh", "scripts/lock.sh",
                                    "scripts/portability.sh", ".ci/run"])
def test_shell_syntax(script):
    subprocess.run(["bash", "-n", str(ROOT / script)], check=True)


def dry_run(**env) -> dict[str, list[str]]:
    """``{step name: the commands it runs}`` from ``scripts/test.sh``'s dry run (which must pass)."""
    steps, result = dry_run_result(**env)
    assert result.returncode == 0 and result.stdout.endswith("all steps passed\n"), result.stdout
    return steps


def dry_run_result(**env) -> tuple[dict[str, list[str]], subprocess.CompletedProcess]:
    result = subprocess.run(["bash", "scripts/test.sh"], cwd=ROOT, capture_output=True, text=True,
                            env=dict(os.environ, REPRO_DRY_RUN="1", **env))
    out = result.stdout.splitlines()
    assert out[0] == "+ bash scripts/setup.sh"
    steps = {}
    for line in out[1:]:
        if line.startswith("=== total"):
            break
        if line.startswith("=== ") and not line.endswith(" s)"):
            steps[line[4:]] = []
        elif not line.startswith("=== "):
            assert line.startswith("+ ") and steps, line
            steps[list(steps)[-1]].append(line[2:])
    return steps, result


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci/run").read_text().splitlines()
    assert ci[-1] == "bash scripts/test.sh"  # the last thing CI does, so its exit status is CI's
    readme = (ROOT / "README.md").read_text()
    assert "bash scripts/test.sh" in readme and "bash scripts/build.sh" in readme


@pytest.mark.slow
def test_every_step_of_the_test_command():
    steps = dry_run(REPRO_JOBS="2")
    names = list(steps)
    assert names[0] == "environment equals requirements.lock"
    assert steps[names[0]] == ["python -m repro.core.envlock check"]
    unit, pass1, pass2 = (next(n for n in names if n.startswith(p)) for p in ("unit tests", "nbval pass 1", "nbval pass 2"))
    one = "OMP_NUM_THREADS=1 MKL_NUM_THREADS=1"
    xdist = "python -m pytest -q -p xdist -n 2 --dist loadscope"
    assert steps[unit] == [f"env {one} {xdist} tests/"]
    # the whole book, chapters on every core; then the status page alone, as it reads every chapter's ledger
    plain = "-u CI -u BUILD_NUMBER"  # pytest then truncates a failing comparison's diff (it is quadratic)
    assert steps[pass1] == [f"env {plain} {one} {xdist} --nbval book/ --ignore=book/status.ipynb",
                            f"env {plain} python -m pytest -q --nbval book/status.ipynb"]
    chapters, status = steps[pass2]
    lower = "MKL_CBWR=COMPATIBLE DNNL_MAX_CPU_ISA=SSE41"
    assert chapters.startswith(f"env {plain} {lower}") and f"{one} {xdist} --nbval book/" in chapters
    assert status.startswith(f"env {plain} {lower}") and status.endswith("python -m pytest -q --nbval book/status.ipynb")
    other = subprocess.run(["python", "-m", "repro.core.kernels", "other"], capture_output=True, text=True,
                           check=True).stdout.strip()
    assert (f"ATEN_CPU_CAPABILITY={other}" in chapters) == bool(other)  # none where no other kernel set exists
    assert steps["JupyterLab rendering (headless Chromium)"] == ["python -m pytest -q -rs tests_lab"]
    assert steps["book build (-W)"] == ["jupyter-book build -W --keep-going book/"]
    assert names[-1] == "MathJax served locally"


def pass2_targets(**env) -> tuple[str, list[str]]:
    """The second pass's step name and the notebooks it re-executes, in order (the status page last)."""
    ((name, commands),) = ((n, c) for n, c in dry_run(**env).items() if n.startswith("nbval pass 2"))
    targets = [t for c in commands for t in c.split("--nbval ")[1].split() if not t.startswith("--ignore")]
    return name, targets


@pytest.mark.slow
def test_the_second_pass_halves_cover_the_book_and_alternate_with_the_commit_count():
    half1, half2 = pass2_targets(REPRO_PASS2="half1")[1], pass2_targets(REPRO_PASS2="half2")[1]
    chapters = sorted(f"book/{p.name}" for p in (ROOT / "book").glob("*.ipynb"))
    assert sorted(set(half1) | set(half2)) == chapters  # two runs put every chapter through the second path
    assert set(half1) & set(half2) == {"book/status.ipynb"}  # the status page reads every ledger: after either
    assert half1[-1] == half2[-1] == "book/status.ipynb"
    assert len(half1) == len(set(half1)) and len(half2) == len(set(half2))
    commits = int(subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout)
    name, default = pass2_targets()
    assert default == (half1, half2)[commits % 2] and f"(half{commits % 2 + 1}: " in name
    assert pass2_targets(REPRO_PASS2="all")[1] == ["book/", "book/status.ipynb"]
    assert pass2_targets(REPRO_PASS2="book/status.ipynb")[1] == ["book/status.ipynb"]


def test_one_job_runs_each_step_in_one_process_and_bad_jobs_are_refused():
    steps = dry_run(REPRO_JOBS="1")
    assert not any("xdist" in c or "OMP_NUM_THREADS" in c for commands in steps.values() for c in commands)
    for bad in ("0", "two", "-1"):
        result = subprocess.run(["bash", "scripts/test.sh"], cwd=ROOT, capture_output=True, text=True,
                                env=dict(os.environ, REPRO_DRY_RUN="1", REPRO_JOBS=bad))
        assert result.returncode == 2 and f"REPRO_JOBS={bad} is not allowed" in result.stdout


@pytest.mark.slow
def test_a_failing_step_is_reported_and_the_later_steps_still_run():
    steps, result = dry_run_result(REPRO_DRY_FAIL="tests_lab")
    assert result.returncode == 1
    assert "=== JupyterLab rendering (headless Chromium): FAILED" in result.stdout
    assert list(steps)[-2:] == ["book build (-W)", "MathJax served locally"]  # ran after the failure
    assert result.stdout.endswith("FAILED steps (1):\n  - JupyterLab rendering (headless Chromium)\n")
    # a pass whose chapters fail still runs its status page, and the pass is reported failed
    steps, result = dry_run_result(REPRO_DRY_FAIL="--ignore=book/status.ipynb")
    (pass1,) = (n for n in steps if n.startswith("nbval pass 1"))
    assert len(steps[pass1]) == 2 and f"=== {pass1}: FAILED" in result.stdout and result.returncode == 1


def test_gpu_workflow_installs_the_lock_and_runs_nbval_and_a_paper_scale_smoke_run():
    flow = yaml.safe_load((ROOT / ".github/workflows/gpu.yml").read_text())
    (job,) = flow["jobs"].values()
    assert "gpu" in job["runs-on"]
    commands = "\n".join(step.get("run", "") for step in job["steps"])
    assert "REPRO_KEEP_TORCH=1 bash scripts/setup.sh" in commands  # the lock, with the CUDA build of torch kept
    assert "torch.cuda.is_available()" in commands
    assert "pytest -q --nbval book/" in commands
    assert "repro.book.paper_scale" in commands

"""pytest --nbval book/: settings inherited by every notebook kernel nbval starts, and the environment check.

Each chapter records the environment its stored outputs were made or last validated in (``metadata.repro.environment``,
:func:`repro.core.envlock.stamp`). When a cell fails and that environment is not this one, the failure says so: a
changed digit from another numpy is an "environment differs", not a broken chapter.
"""
import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

from repro.core import envlock

# Progress bars write to stderr; keep them out of compared outputs (the refresh helper does the same).
os.environ["REPRO_PROGRESS"] = "0"


@lru_cache(maxsize=1)
def _here() -> dict:
    return envlock.stamp()


@lru_cache(maxsize=None)
def _stored(path: str) -> dict:
    return json.loads(Path(path).read_text()).get("metadata", {}).get("repro", {}).get("environment", {})


def pytest_report_header(config):
    here = _here()
    if here.get("lock") is None:
        return f"environment: {here.get('why')}"
    if here["matches_lock"]:
        return f"environment: matches requirements.lock (lock {here['lock']})"
    return f"environment: DIFFERS from requirements.lock (lock {here['lock']}): " + "; ".join(here["differs"])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and str(item.path).endswith(".ipynb"):
        note = envlock.explain(_stored(str(item.path)), _here())
        if note:
            report.sections.append(("environment", note))


def pytest_terminal_summary(terminalreporter):
    notes = {r.nodeid.split("::")[0]: text for r in terminalreporter.stats.get("failed", [])
             for name, text in r.sections if name == "environment"}
    if notes:
        terminalreporter.section("environment differs")
        for chapter, text in sorted(notes.items()):
            terminalreporter.write_line(f"{chapter}: {text}")

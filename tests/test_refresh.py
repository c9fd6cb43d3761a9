"""Tests of repro.book.refresh on a two-cell notebook: outputs stored byte-stably (a second run rewrites nothing),
the .py pair made and synced, ``--check`` reporting stale outputs without writing, and bad arguments refused.
Each execution starts a Jupyter kernel (about a second)."""
import os

import nbformat
import pytest

from repro.book.refresh import main
from repro.core.files import write_notebook_atomic as write_atomic
from repro.core.envlock import stamp

CODE = 'import os\nprint("progress:", os.environ.get("REPRO_PROGRESS"))'


def _notebook(path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A chapter"), nbformat.v4.new_code_cell(CODE)]
    nbformat.write(nb, path)
    return path


@pytest.mark.slow
def test_refresh_stores_outputs_byte_stably_and_check_finds_stale_ones(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REPRO_PROGRESS", "1")
    path = _notebook(tmp_path / "chapter.ipynb")
    assert main([str(path)]) == 0
    assert (tmp_path / "chapter.py").exists()  # the py:percent pair
    nb = nbformat.read(path, as_version=4)
    code = nb.cells[1]
    assert code.outputs[0]["text"] == "progress: 0\n"  # progress bars off in the kernel
    assert "execution" not in code.metadata  # no per-cell timing
    assert "ipynb,py:percent" in nb.metadata["jupytext"]["formats"]
    assert nb.metadata["repro"]["environment"] == dict(stamp(), how="executed")  # the environment it ran in
    assert os.environ["REPRO_PROGRESS"] == "1"  # restored in this process
    stored = path.read_bytes()
    assert stored.endswith(b"\n")
    assert main(["--check", str(path)]) == 0  # re-running gives the same bytes
    assert "unchanged" in capsys.readouterr().err
    stale = path.read_text().replace("progress: 0", "progress: 1")
    path.write_text(stale)
    assert main(["--check", str(path)]) == 1
    assert "changed" in capsys.readouterr().err
    assert path.read_text() == stale  # --check never writes


def test_write_atomic_round_trips(tmp_path):
    path = _notebook(tmp_path / "a.ipynb")
    nb = nbformat.read(path, as_version=4)
    write_atomic(tmp_path / "b.ipynb", nb)
    text = (tmp_path / "b.ipynb").read_text()
    assert text.endswith("\n") and nbformat.reads(text, as_version=4) == nb


def test_stamp_validated_records_this_environment_and_leaves_the_outputs(tmp_path, capsys):
    path = _notebook(tmp_path / "chapter.ipynb")
    before = nbformat.read(path, as_version=4)
    assert main(["--stamp-validated", str(path)]) == 0
    after = nbformat.read(path, as_version=4)
    assert after.metadata.pop("repro") == {"environment": dict(stamp(), how="validated")}
    assert after == before
    assert f"environment {stamp()['lock']} recorded" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["missing.ipynb", "chapter.py"])
def test_bad_arguments_name_the_file(tmp_path, capsys, name):
    (tmp_path / "chapter.py").write_text("# %%\n")
    with pytest.raises(SystemExit) as err:
        main([str(tmp_path / name)])
    assert err.value.code == 2
    assert f"{name}: expected an existing .ipynb file" in capsys.readouterr().err


@pytest.mark.slow
def test_a_failed_or_checking_run_puts_the_claims_file_back(tmp_path):
    """A chapter rewrites _claims/<stem>.json as it runs; a refresh that fails part-way, or a --check, leaves the file
    as it was (here the notebook truncates it, then fails or not)."""
    (tmp_path / "_claims").mkdir()
    claims = tmp_path / "_claims" / "chapter.json"
    claims.write_text('{"claims": ["all of them"]}')
    path = _notebook(tmp_path / "chapter.ipynb")
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell('open("_claims/chapter.json", "w").write("{}")'))
    nb.cells.append(nbformat.v4.new_code_cell('raise RuntimeError("a cell fails")'))
    nbformat.write(nb, path)
    with pytest.raises(Exception, match="a cell fails"):
        main([str(path)])
    assert claims.read_text() == '{"claims": ["all of them"]}'
    nb.cells.pop()  # now it runs through: --check still writes nothing, a refresh keeps the new file
    nbformat.write(nb, path)
    main(["--check", str(path)])
    assert claims.read_text() == '{"claims": ["all of them"]}'
    assert main([str(path)]) == 0
    assert claims.read_text() == "{}"

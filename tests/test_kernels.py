"""Tests of repro.core.kernels: the CPU kernel set of this process, the other set the book is validated with,
the command line, and the one-thread context."""
import pytest
import torch

from repro.core.kernels import OTHER, main, native_capability, other_capability, single_thread


def test_other_capability():
    assert other_capability("AVX512") == "avx2"
    assert other_capability("AVX2") == "default"
    assert other_capability("DEFAULT") == ""


def test_other_capability_is_never_the_native_set():
    for native in [*OTHER, "avx512", "Unknown_ISA"]:
        other = other_capability(native)
        assert other in ("avx2", "default") and other.upper() != native.upper()
    assert other_capability("NO AVX") == ""  # the scalar kernels already: no other set to compare with


@pytest.mark.slow
def test_native_capability_reports_an_override_of_the_kernel_set():
    # the kernel set the process really runs, read at start-up: an ATEN_CPU_CAPABILITY override shows through
    import subprocess
    import sys

    code = "from repro.core.kernels import native_capability; print(native_capability())"
    for forced, shown in (("default", "DEFAULT"), ("avx2", "AVX2")):
        if forced == "avx2" and native_capability() not in ("AVX2", "AVX512", "AVX512_VNNI"):
            continue  # a CPU without AVX2 cannot run its kernels
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**__import__("os").environ, "ATEN_CPU_CAPABILITY": forced}).stdout.strip()
        assert out == shown


def test_command_line(capsys, monkeypatch):
    monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
    assert main(["native"]) == 0
    assert capsys.readouterr().out.strip() == native_capability()
    assert main(["other"]) == 0
    assert capsys.readouterr().out.strip() == other_capability(native_capability())
    for bad in ([], ["both"], ["native", "other"]):
        assert main(bad) == 2
        assert "usage: python -m repro.core.kernels native|other" in capsys.readouterr().err
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "avx2")  # an override hides the native set: refuse to guess
    assert main(["native"]) == 2
    assert "unset it" in capsys.readouterr().err


def test_single_thread_restores_the_thread_count_even_on_error():
    before = torch.get_num_threads()
    with single_thread():
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(RuntimeError, match="inside"):
        with single_thread():
            raise RuntimeError("inside")
    assert torch.get_num_threads() == before


def test_init_nudge_reads_and_validates_the_environment(monkeypatch):
    from repro.core.kernels import init_nudge

    monkeypatch.delenv("REPRO_NUDGE", raising=False)
    assert init_nudge() == 0.0
    monkeypatch.setenv("REPRO_NUDGE", "1e-6")
    assert init_nudge() == 1e-6
    for bad in ("x", "0.1", "nan"):
        monkeypatch.setenv("REPRO_NUDGE", bad)
        with pytest.raises(ValueError, match="REPRO_NUDGE"):
            init_nudge()

"""The one resolution of a config's device field (repro.core.devices)."""
import pytest
import torch

from repro.core.devices import DEVICES, DTYPES, check_device, resolve_device, resolve_dtype


def test_resolve_device():
    assert resolve_device("cpu") == torch.device("cpu")
    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    for name in DEVICES:  # every name the configs allow resolves to a torch device (cuda where one is present)
        if name != "cuda" or torch.cuda.is_available():
            assert resolve_device(name).type in ("cpu", "cuda")


def test_bad_device_names_the_field_and_the_choices():
    with pytest.raises(ValueError, match="device='tpu' is not allowed: device must be one of 'auto', 'cpu', 'cuda'"):
        resolve_device("tpu")
    with pytest.raises(ValueError, match="sampler_device"):
        check_device("gpu", field="sampler_device")


@pytest.mark.skipif(torch.cuda.is_available(), reason="CUDA is present")
def test_cuda_without_a_gpu_is_refused():
    with pytest.raises(ValueError, match="no CUDA device"):
        resolve_device("cuda")


def test_resolve_dtype():
    assert resolve_dtype("float32") is torch.float32 and resolve_dtype("float64") is torch.float64
    assert tuple(DTYPES) == ("float32", "float64")
    with pytest.raises(ValueError, match="precision must be one of 'float32', 'float64'"):
        resolve_dtype("float16", field="precision")


def test_the_cpu_leaves_pytorch_in_its_default_mode():
    was = torch.are_deterministic_algorithms_enabled()
    resolve_device("cpu")
    assert torch.are_deterministic_algorithms_enabled() == was


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_runs_are_made_reproducible():
    import os

    assert resolve_device("cuda").type == "cuda"
    assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] in (":4096:8", ":16:8")  # cuBLAS's two deterministic settings

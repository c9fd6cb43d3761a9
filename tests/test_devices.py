"""The one resolution of a config's device field (repro.devices)."""
import pytest
import torch

from repro.devices import DEVICES, check_device, resolve_device


def test_resolve_device():
    assert resolve_device("cpu") == torch.device("cpu")
    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    assert DEVICES == ("auto", "cpu", "cuda")


def test_bad_device_names_the_field_and_the_choices():
    with pytest.raises(ValueError, match="device"):
        resolve_device("tpu")
    with pytest.raises(ValueError, match="sampler_device"):
        check_device("gpu", field="sampler_device")


@pytest.mark.skipif(torch.cuda.is_available(), reason="CUDA is present")
def test_cuda_without_a_gpu_is_refused():
    with pytest.raises(ValueError, match="no CUDA device"):
        resolve_device("cuda")

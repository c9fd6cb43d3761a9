"""keep_mask against torch.rand itself: the same bits, and the generator left in the same state."""
import pytest
import torch

from repro.core.cpurand import SMALLEST, keep_mask


def _pair(seed: int, skip: int):
    a, b = torch.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
    if skip:  # start anywhere in the twister's 624-word block, also right at its end
        torch.rand(skip, generator=a), torch.rand(skip, generator=b)
    return a, b


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("skip", [0, 1, 623, 624, 1000])
@pytest.mark.parametrize("shape", [(70, 2, 256), (40, 1000), (SMALLEST,), (3, 5)])
def test_keep_mask_equals_torch_rand(dtype, skip, shape):
    for rate in (0.0, 0.05, 0.5, 1.0):
        ours_g, torch_g = _pair(11, skip)
        ours = keep_mask(shape, ours_g, dtype, rate)
        want = torch.rand(shape, generator=torch_g, dtype=dtype) >= torch.tensor(rate, dtype=dtype)
        assert ours.dtype == torch.bool and ours.shape == want.shape
        assert torch.equal(ours, want)
        assert torch.equal(ours_g.get_state(), torch_g.get_state())
        # what comes after is the same stream: uniform, normal, and the next mask
        assert torch.equal(torch.rand(9, generator=ours_g, dtype=dtype), torch.rand(9, generator=torch_g, dtype=dtype))
        assert torch.equal(torch.randn(9, generator=ours_g), torch.randn(9, generator=torch_g))


def test_keep_mask_rows_select_after_the_whole_draw():
    ours_g, torch_g = _pair(3, 5)
    rows = torch.tensor([4, 0, 17, 17, 99])
    ours = keep_mask((100, 3, 64), ours_g, torch.float32, 0.3, rows)
    want = torch.index_select(torch.rand((100, 3, 64), generator=torch_g), 0, rows) >= 0.3
    assert torch.equal(ours, want)
    assert torch.equal(ours_g.get_state(), torch_g.get_state())


def test_keep_mask_threshold_sits_between_grid_values():
    # a rate on torch.rand's grid keeps its own value (>=), one just above drops it
    g = torch.Generator().manual_seed(0)
    u = torch.rand(SMALLEST * 4, generator=g)
    for rate in (float(u[7]), float(torch.nextafter(u[7], torch.tensor(2.0)))):
        ours = keep_mask((SMALLEST * 4,), torch.Generator().manual_seed(0), torch.float32, rate)
        assert torch.equal(ours, u >= rate)


def test_keep_mask_bad_input():
    with pytest.raises(ValueError, match="dtype"):
        keep_mask((SMALLEST,), torch.Generator(), torch.float16, 0.1)


def test_a_stream_that_disagrees_falls_back_to_torch_rand(monkeypatch):
    """Where NumPy's twister would not reproduce torch.rand (another layout of either state), the check says so
    with a warning and every mask comes from torch.rand: other bits are never served."""
    from repro.core import cpurand

    right = cpurand._numpy_keep
    monkeypatch.setattr(cpurand, "_numpy_keep", lambda *args: ~right(*args))
    with pytest.warns(RuntimeWarning, match="does not reproduce torch.rand"):
        assert cpurand._agrees.__wrapped__() is False
    monkeypatch.setattr(cpurand, "_agrees", lambda: False)
    ours_g, torch_g = _pair(5, 0)
    ours = keep_mask((2 * SMALLEST,), ours_g, torch.float32, 0.2)
    assert torch.equal(ours, torch.rand(2 * SMALLEST, generator=torch_g) >= 0.2)
    assert torch.equal(ours_g.get_state(), torch_g.get_state())

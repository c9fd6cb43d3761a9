"""He et al.'s normal init for Mohamadi et al.'s quadratic network (``parametrization="standard_he"``): the reference
App. A.1-A.2 cite. The trainer's draws must equal the experiment module's and the theory's (the eNTK recorder
rebuilds K_0 from :func:`repro.experiments.mohamadi2024_why_grok.init_runs`), and the draws must have He's law."""
import math

import pytest
import torch

import repro.experiments.mohamadi2024_why_grok as mw
from repro.models.networks import QuadraticNetConfig, build_model
from repro.theory import mohamadi2024 as th
from repro.training import trainer as tr

P, H = 7, 12


def test_he_init_equals_kaiming_normal():
    """Our draw is torch's own kaiming_normal_ (fan-in mode, gain √2) on the same generator stream."""
    W, V = th.he_normal_init(P, H, seed=3)
    gen = torch.Generator().manual_seed(3)
    W_ref = torch.empty(H, 2 * P, dtype=torch.float64)
    V_ref = torch.empty(P, H, dtype=torch.float64)
    torch.nn.init.kaiming_normal_(W_ref, generator=gen)
    torch.nn.init.kaiming_normal_(V_ref, generator=gen)
    assert torch.allclose(W, W_ref, rtol=1e-12, atol=0) and torch.allclose(V, V_ref, rtol=1e-12, atol=0)


def test_he_init_law():
    """Variance 2/fan_in per layer (to sampling error over many entries)."""
    W, V = th.he_normal_init(50, 4000, seed=0)
    assert W.var().item() == pytest.approx(2 / 100, rel=0.02)
    assert V.var().item() == pytest.approx(2 / 4000, rel=0.02)


def test_trainer_draws_equal_init_runs():
    """The trainer's flat parameters at init are init_runs' stacks (one generator per init seed, α per run)."""
    seeds, scales = [0, 5, 7], [1.0, 0.3, 0.01]
    values = {"init_scale": scales, "repr_init_scale": scales, "init_seed": seeds}
    model = build_model(QuadraticNetConfig(p=P, width=H, parametrization="standard_he"))
    views = tr.FlatParams(model, values, torch.float64, "cpu").views()
    W, V = mw.init_runs(P, H, seeds, scales, parametrization="standard_he")
    assert torch.equal(views["W"], W) and torch.equal(views["V"], V)
    W1, V1 = th.he_normal_init(P, H, 5, 0.3)
    assert torch.equal(W1, W[1]) and torch.equal(V1, V[1])


def test_he_is_the_standard_parametrization():
    """He's init changes the draw, not Eq. 2.1: θ is (W, V) itself, as in the standard parametrization."""
    assert QuadraticNetConfig(p=P, width=H, parametrization="standard_he").multipliers == (1.0, 1.0)


def test_fig2_he_config_differs_only_in_init():
    a, b = mw.fig2_regression_config(), mw.fig2_he_regression_config()
    assert b.parametrization == "standard_he"
    assert {f: getattr(a, f) for f in a.__dataclass_fields__ if f != "parametrization"} == \
           {f: getattr(b, f) for f in b.__dataclass_fields__ if f != "parametrization"}


def test_he_output_starts_about_15_times_larger():
    """The 3-homogeneous output of He's init over PyTorch's default: (√6)³ ≈ 14.7 in RMS over many draws."""
    p, h = 11, 400
    a, b = th.ordered_pairs(p)
    def rms(draw):
        outs = [mw.forward_pairs(*(t[None] for t in draw(p, h, s)), torch.as_tensor(a), torch.as_tensor(b))
                for s in range(20)]
        return torch.stack(outs).square().mean().sqrt().item()
    assert rms(th.he_normal_init) / rms(th.pytorch_default_init) == pytest.approx(math.sqrt(6) ** 3, rel=0.15)

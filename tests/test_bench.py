import pytest
@pytest.mark.slow
def test_bench_runs_and_ends_with_speedup_line():
    import io

    from repro.book.bench import bench_sweep

    out = io.StringIO()
    speedup = bench_sweep(n_configs_one_by_one=1, steps=5, n_lr=2, n_wd=2, out=out)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == f"speedup: {speedup:.1f}x" and speedup > 0
    assert any("GFLOP/s" in line and "matmul" in line for line in lines)
    # both bounds, and the batched step against each
    assert any(line.startswith("batched at ") and "% of the matmul-only bound" in line for line in lines)
    kept = next(line for line in lines if line.startswith("kept-arithmetic bound ("))
    assert "run-steps/s; the batched step takes " in kept and kept.endswith("x its time")


def test_kept_arithmetic_bound_times_more_than_the_products_alone():
    import torch

    from repro.book.bench import kept_arithmetic_bound_gflops, matmul_bound_gflops, toy_grid, toy_setup
    from repro.training.config import per_run_values
    from repro.training.sweep import expand_grid
    from repro.training.trainer import TrainConfig

    model_config, data = toy_setup()
    cfg = TrainConfig(steps=5, lr_repr=1e-3, init_seed=58, device="cpu")
    values = per_run_values(cfg, expand_grid(toy_grid(2, 2)))[1]
    threads = torch.get_num_threads()
    products = matmul_bound_gflops(model_config, data, 4, 1, steps=20, repeats=3)
    kept = kept_arithmetic_bound_gflops(model_config, data, cfg, values, 4, 1, steps=20, repeats=3)
    assert torch.get_num_threads() == threads  # run_blocks restores the caller's thread count
    # the same FLOPs counted over more work: the kept arithmetic's rate is lower (tanh and AdamW are not free)
    assert 0 < kept < products


@pytest.mark.slow
def test_transformers_bench_times_every_model_and_prints_ratios():
    import io
    import math

    import torch

    from repro.book.bench_transformers import TRANSFORMER_MODELS, bench_transformers

    threads = torch.get_num_threads()
    out = io.StringIO()
    # tiny configs, 2 steps, one thread (on a busy 2-core machine two threads made the reference 100x slower)
    results = bench_transformers(steps=2, seeds=2, threads=1, device="cpu", repeats=1, out=out, _smoke=True)
    assert torch.get_num_threads() == threads  # the caller's thread count is restored
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("transformers: CPU ") and "torch threads 1" in lines[0]
    assert set(results) == set(TRANSFORMER_MODELS)
    for name, r in results.items():
        for key in ("ours_1", "ours_k", "ref", "one_seed", "batched"):
            assert math.isfinite(r[key]) and r[key] > 0, (name, key, r[key])
        start = next(i for i, line in enumerate(lines) if line.startswith(f"{name}: "))
        assert "reference:" in lines[start] and "differences:" in lines[start]
        block = lines[start + 1 : start + 12]
        assert f"  ours/ref 1 seed: {r['one_seed']:.2f}" in block
        assert f"  ours/ref per run-step, 2 seeds: {r['batched']:.2f}" in block
        # one thread: the matmul-only floor of each side, and the lowest ratio ours' products allow
        assert f"  lowest ours/ref these products allow: 1 seed {r['floor_one_seed']:.2f}, 2 seeds " \
               f"{r['floor_batched']:.2f}" in block
        assert all(r["bound"][k]["gflop"] > 0 and r["bound"][k]["seconds"] > 0 for k in ("ours_1", "ours_k", "ref"))


@pytest.mark.slow
def test_transformers_bench_times_block_sizes_in_the_same_rotation():
    import io
    import math

    import pytest

    from repro.book.bench_transformers import bench_transformers

    out = io.StringIO()
    results = bench_transformers(steps=2, seeds=2, threads=1, device="cpu", repeats=1, block_runs=(1, 2),
                                 models=("liu",), out=out, _smoke=True)
    r = results["liu"]
    assert set(r["blocks"]) == {1, 2}
    lines = out.getvalue().splitlines()
    for b, rb in r["blocks"].items():
        assert math.isfinite(rb["seconds"]) and rb["seconds"] > 0
        assert rb["batched"] == pytest.approx(rb["seconds"] / r["ref"])
        assert f"  ours, 2 seeds in blocks of {b}: {1e3 * rb['seconds']:.2f} ms/run-step" in lines
        assert f"  ours/ref per run-step, 2 seeds in blocks of {b}: {rb['batched']:.2f}" in lines
    # bad block sizes are refused before anything is trained, naming the parameter and the allowed values
    for bad in ((3,), (0,), (1, 1)):
        with pytest.raises(ValueError, match="block_runs"):
            bench_transformers(steps=1, seeds=2, threads=1, device="cpu", block_runs=bad, out=io.StringIO(),
                               _smoke=True)


def test_bench_command_line_rejects_malformed_block_runs(capsys):
    import pytest

    from repro.book.bench import main

    with pytest.raises(SystemExit) as e:
        main(["transformers", "--block-runs", "1,x"])
    assert e.value.code == 2 and "--block-runs" in capsys.readouterr().err

def test_matmul_bound_records_every_product_with_its_flops():
    import math

    import torch

    from repro.book.matmul_bound import record_matmuls, replay_seconds, total_flops

    a, b, bias = torch.randn(5, 7), torch.randn(7, 3), torch.randn(3)
    A, B = torch.randn(4, 5, 7), torch.randn(4, 7, 3)

    def products():
        torch.mm(a, b)
        torch.addmm(bias, a, b, beta=0.5)
        torch.bmm(A, B)
        torch.baddbmm(bias, A, B)
        a + a  # not a product: not recorded

    recorded = record_matmuls(products)
    assert [str(p.op) for p in recorded] == ["aten.mm.default", "aten.addmm.default", "aten.bmm.default",
                                             "aten.baddbmm.default"]
    assert [p.flops for p in recorded] == [2 * 5 * 7 * 3, 2 * 5 * 7 * 3, 4 * 2 * 5 * 7 * 3, 4 * 2 * 5 * 7 * 3]
    assert dict(recorded[1].kwargs) == {"beta": 0.5}
    # nn.Linear forward and backward: the forward product and the two gradient products, 2 m k n each
    linear, x = torch.nn.Linear(16, 8), torch.randn(32, 16, requires_grad=True)
    recorded = record_matmuls(lambda: linear(x).sum().backward())
    assert len(recorded) == 3 and total_flops(recorded) == 3 * 2 * 32 * 16 * 8
    # the replay performs them on fresh tensors of the recorded layouts (broadcast bias included)
    seconds = replay_seconds(recorded, repeats=1, min_seconds=0.01)
    assert math.isfinite(seconds) and seconds > 0

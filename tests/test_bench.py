def test_bench_runs_and_ends_with_speedup_line():
    import io

    from repro.book.bench import bench_sweep

    out = io.StringIO()
    speedup = bench_sweep(n_configs_one_by_one=1, steps=5, n_lr=2, n_wd=2, out=out)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == f"speedup: {speedup:.1f}x" and speedup > 0
    assert any("GFLOP/s" in line and "matmul" in line for line in lines)


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
        block = lines[start + 1 : start + 7]
        assert f"  ours/ref 1 seed: {r['one_seed']:.2f}" in block
        assert f"  ours/ref per run-step, 2 seeds: {r['batched']:.2f}" in block

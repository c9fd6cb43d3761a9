def test_bench_runs_and_ends_with_speedup_line():
    import io

    from repro.book.bench import bench_sweep

    out = io.StringIO()
    speedup = bench_sweep(n_configs_one_by_one=1, steps=5, n_lr=2, n_wd=2, out=out)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == f"speedup: {speedup:.1f}x" and speedup > 0
    assert any("GFLOP/s" in line and "matmul" in line for line in lines)

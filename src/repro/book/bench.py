"""Benchmarks: ``python -m repro.book.bench sweep``, ``transformers`` and ``dispatch`` (:mod:`repro.book.dispatch`).

``sweep``:

The toy model of Liu et al. 2022 (p = 10 addition, 45 training samples, 1-D embeddings, tanh decoder
1-200-200-30, full batch, MSE on random templates): a 10 x 10 grid of decoder learning rate x decoder
weight decay (100 configs) for 2000 steps. Everything is measured in the same process:

* this machine's dense fp32 matmul rate (a 2048 x 2048 product, best over 2 s of repeats);
* config by config: the official code's way, one ``nn.Module`` with ``torch.optim.AdamW`` per config
  (timed on a few configs, reported per run-step);
* batched: all 100 configs as one program through :func:`repro.training.sweep.sweep`;
* the matmul-only bound: the batched step's matrix products alone, in the trainer's shapes and
  threading (:func:`matmul_bound_gflops`). No trainer built on these products can be faster;
* the kept-arithmetic bound: the same products plus what a step must keep besides them, timed alone in the
  same shapes and threading: ``tanh`` forward and backward and the trainer's own AdamW update
  (:func:`kept_arithmetic_bound_gflops`). The toy runs match the official run step for step, which any other
  activation or optimizer formula would break, so this is the floor of a step that keeps its bits.

Achieved GFLOP/s counts the model's matmul FLOPs actually needed per run-step: the forward pass over
all 55 samples (it also yields the validation metrics) and the backward pass over the 45 training
samples (2 x forward). The last line is ``speedup: <batched / config-by-config>x``.

``transformers``: the paper-scale transformers against plain PyTorch references of the official code
(:mod:`repro.book.bench_transformers`).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch

# the transformer benchmark lives in its own module; the command line below runs both
from repro.book.bench_transformers import TRANSFORMER_MODELS, bench_transformers
from repro.book.matmul_bound import matmul_gflops
from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models.networks import EmbedMLPConfig, build_model
from repro.training.config import per_run_values
from repro.training.optimizers import OPTIMIZER_CLASSES
from repro.training.params import FlatParams
from repro.training.sweep import expand_grid, sweep
from repro.training.trainer import TrainConfig, default_block_runs, run_blocks


def _block_step(model, data, block_runs: int, gen: torch.Generator, activations: bool):
    """One training step's matrix products for a block of ``block_runs`` runs on random tensors, in the shapes and
    layouts of :class:`repro.models.fastgrad.MLPGradient`: per layer the forward ``baddbmm`` over all samples, and
    the weight- and input-gradient ``bmm`` over the training samples. With ``activations`` also the model's
    activation on each hidden layer's output and its backward on each hidden layer's input gradient (the step
    keeps both: the toy runs match the official run step for step)."""
    widths, n_all, n_train = model.widths, data.n_samples, len(data.train_idx)
    rand = lambda *shape: torch.randn(*shape, generator=gen)
    tanh = model.config.activation == "tanh"
    forward = torch.Tensor.tanh_ if tanh else torch.Tensor.relu_
    backward = torch.ops.aten.tanh_backward if tanh else (lambda d, a: torch.ops.aten.threshold_backward(d, a, 0))
    layers = [(rand(block_runs, n_all, a), rand(block_runs, a, b), rand(block_runs, 1, b), rand(block_runs, n_train, b),
               activations and model.activated(k), activations and k > 0 and model.activated(k - 1))
              for k, (a, b) in enumerate(zip(widths[:-1], widths[1:]))]

    def step():
        for h, w, bias, d, act_out, act_in in layers:
            out = torch.baddbmm(bias, h, w)
            if act_out:
                forward(out)
            torch.bmm(h[:, :n_train].transpose(1, 2), d)
            d_in = torch.bmm(d, w.transpose(1, 2))
            if act_in:
                backward(d_in, h[:, :n_train])

    return step


def _best_rate(one_worker, workers: int, repeats: int) -> float:
    """Seconds of the slowest of ``workers`` concurrent calls of ``one_worker``, best of ``repeats`` (a ceiling, on a
    machine with noisy neighbours, like the matmul peak)."""
    elapsed = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        run_blocks(one_worker, list(range(workers)), workers)
        elapsed = min(elapsed, time.perf_counter() - t)
    return elapsed


def matmul_bound_gflops(model_config, data, block_runs: int, workers: int, steps: int = 40, repeats: int = 3) -> float:
    """GFLOP/s of the batched trainer's matrix products alone, nothing else: each of ``workers`` threads
    (single-threaded, as :func:`repro.training.trainer.run_blocks` runs blocks) repeats one step's products for a
    block of ``block_runs`` runs (:func:`_block_step`). The trainer cannot beat this rate; it bounds what the
    batched side can reach on this machine, whatever the rest of a step costs."""
    model = build_model(model_config)

    def one_worker(_block) -> float:
        step = _block_step(model, data, block_runs, torch.Generator().manual_seed(0), activations=False)
        step()  # warm-up
        for _ in range(steps):
            step()

    elapsed = _best_rate(one_worker, workers, repeats)
    return workers * block_runs * steps * flops_per_run_step(model_config, data) / elapsed / 1e9


def kept_arithmetic_bound_gflops(model_config, data, cfg: TrainConfig, values: dict[str, list], block_runs: int,
                                 workers: int, steps: int = 40, repeats: int = 3) -> float:
    """Like :func:`matmul_bound_gflops`, with the arithmetic a step must keep besides the products: the activation
    forward and backward (:func:`_block_step`), and the trainer's own AdamW update (:class:`repro.training.optimizers.
    AdamW`, its kernel calls grouped as the trainer groups them) of each block's runs, with their learning rates and
    decays from ``values`` (per-run values of the sweep; blocks of ``block_runs`` consecutive runs, one per worker).
    Nothing else of a step (loss, evaluation, embedding gradient, bookkeeping) is timed; the rate counts the same
    matmul FLOPs, so the trainer's rate over this one is the share of its step that this arithmetic takes."""
    model = build_model(model_config)

    def one_worker(index: int) -> float:
        gen = torch.Generator().manual_seed(index)
        block = {k: v[index * block_runs:(index + 1) * block_runs] for k, v in values.items()}
        flat = FlatParams(model, block, torch.float32, torch.device("cpu"))
        optimizer = OPTIMIZER_CLASSES[cfg.optimizer](flat, cfg, block)
        grads = [torch.randn(flat.flat.shape[0], b - a, generator=gen) for a, b, _ in flat.offsets.values()]
        products = _block_step(model, data, flat.flat.shape[0], gen, activations=True)

        def step():
            products()
            optimizer.step(flat.flat, grads)

        step()  # warm-up
        for _ in range(steps):
            step()

    elapsed = _best_rate(one_worker, workers, repeats)
    n_runs = min(len(values["init_seed"]), workers * block_runs)  # the runs of the blocks timed
    return n_runs * steps * flops_per_run_step(model_config, data) / elapsed / 1e9


def toy_setup():
    data = build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")
    return EmbedMLPConfig(), data  # Liu et al. 2022 §2 / toy/train_add.py: 1-D embeddings, 1-200-200-30 tanh


def toy_grid(n_lr: int = 10, n_wd: int = 10) -> dict[str, list]:
    return {"lr_dec": list(np.logspace(-5, -2, n_lr)), "wd_dec": list(np.linspace(0, 10, n_wd))}


def flops_per_run_step(model_config, data) -> int:
    per_sample = build_model(model_config).matmul_flops_per_sample()
    return per_sample * (data.n_samples + 2 * len(data.train_idx))


def one_config_official_style(data, lr_dec: float, wd_dec: float, steps: int, seed: int = 58) -> None:
    """The official toy loop (grokking-squared toy/train_add.py): nn.Linear decoder, AdamW on embeddings and decoder."""
    torch.manual_seed(seed)
    embed = torch.nn.Parameter((torch.rand(10, 1) - 0.5))
    dec = torch.nn.Sequential(torch.nn.Linear(1, 200), torch.nn.Tanh(), torch.nn.Linear(200, 200), torch.nn.Tanh(),
                              torch.nn.Linear(200, 30))
    opt_r = torch.optim.AdamW([embed], lr=1e-3, weight_decay=0.0)
    opt_d = torch.optim.AdamW(dec.parameters(), lr=lr_dec, weight_decay=wd_dec)
    x, y = data.inputs, data.targets
    train_idx = torch.as_tensor(data.train_idx)
    for _ in range(steps):
        out = dec(embed[x[:, 0]] + embed[x[:, 1]])  # all samples: train loss and validation metrics
        loss = (out[train_idx] - y[train_idx]).pow(2).mean()
        with torch.no_grad():  # the official code logs accuracies every step
            score = data.templates.pow(2).sum(-1) - 2 * out @ data.templates.T
            (score.argmin(-1) == data.labels).float().mean()
        opt_r.zero_grad(set_to_none=True)
        opt_d.zero_grad(set_to_none=True)
        loss.backward()
        opt_r.step()
        opt_d.step()


def bench_sweep(n_configs_one_by_one: int = 3, steps: int = 2000, n_lr: int = 10, n_wd: int = 10, out=sys.stdout,
                phase_diagram_steps: int = 0) -> float:
    torch.manual_seed(0)
    model_config, data = toy_setup()
    grid = toy_grid(n_lr, n_wd)
    n_runs = n_lr * n_wd
    flops = flops_per_run_step(model_config, data)
    print(f"threads: {torch.get_num_threads()}, torch {torch.__version__}", file=out)
    peak = matmul_gflops()
    print(f"dense fp32 matmul (2048^2): {peak:.1f} GFLOP/s", file=out)
    print(f"toy model: {flops / 1e6:.2f} MFLOP per run-step (matmuls, fwd on 55 + bwd on 45 samples)", file=out)

    t = time.perf_counter()
    pairs = list(zip(np.repeat(grid["lr_dec"], n_wd), np.tile(grid["wd_dec"], n_lr)))
    for lr, wd in pairs[:: max(1, len(pairs) // n_configs_one_by_one)][:n_configs_one_by_one]:
        one_config_official_style(data, float(lr), float(wd), steps)
    seq_time = time.perf_counter() - t
    seq_rate = n_configs_one_by_one * steps / seq_time
    print(f"config by config (nn.Module + torch.optim.AdamW, {n_configs_one_by_one} configs x {steps} steps): "
          f"{seq_rate / 1e3:.2f}k run-steps/s, {seq_rate * flops / 1e9:.1f} GFLOP/s "
          f"({100 * seq_rate * flops / 1e9 / peak:.0f} % of matmul peak)", file=out)

    cfg = TrainConfig(steps=steps, lr_repr=1e-3, init_seed=58, eval_every=1, device="cpu")
    t = time.perf_counter()
    result = sweep(model_config, data, cfg, grid, progress=False)
    batch_time = time.perf_counter() - t
    batch_rate = n_runs * steps / batch_time
    gflops = batch_rate * flops / 1e9
    block = default_block_runs(build_model(model_config), data.n_samples, 4, n_runs, torch.get_num_threads())
    print(f"batched ({n_runs} configs x {steps} steps, blocks of {block} runs on {torch.get_num_threads()} threads): "
          f"{batch_rate / 1e3:.2f}k run-steps/s, "
          f"{gflops:.1f} GFLOP/s ({100 * gflops / peak:.0f} % of matmul peak)", file=out)
    bound = matmul_bound_gflops(model_config, data, block, torch.get_num_threads())
    print(f"matmul-only bound (the same products, {torch.get_num_threads()} threads x blocks of {block} runs, nothing else): "
          f"{bound:.1f} GFLOP/s ({100 * bound / peak:.0f} % of matmul peak), {bound * 1e9 / flops / 1e3:.2f}k run-steps/s, "
          f"at most {bound * 1e9 / flops / seq_rate:.1f}x config by config", file=out)
    print(f"batched at {100 * gflops / bound:.0f} % of the matmul-only bound", file=out)
    kept = kept_arithmetic_bound_gflops(model_config, data, cfg, per_run_values(cfg, expand_grid(grid))[1], block,
                                        torch.get_num_threads())
    print(f"kept-arithmetic bound (the same products, tanh forward and backward, the trainer's AdamW update, nothing "
          f"else): {kept * 1e9 / flops / 1e3:.2f}k run-steps/s; the batched step takes {kept / gflops:.2f}x its time",
          file=out)
    if phase_diagram_steps:
        cfg = TrainConfig(steps=phase_diagram_steps, lr_repr=1e-3, init_seed=58, eval_every=10, device="cpu")
        t = time.perf_counter()
        sweep(model_config, data, cfg, grid, progress=False)
        elapsed = time.perf_counter() - t
        print(f"phase diagram ({n_runs} cells x {phase_diagram_steps} steps, metrics every 10 steps): {elapsed:.0f} s", file=out)
    speedup = batch_rate / seq_rate
    print(f"speedup: {speedup:.1f}x", file=out)
    return speedup


# --------------------------------------------------------------------------------------------------
# transformers: the batched trainer against plain PyTorch loops written the way the official code writes them
#
# For each paper-scale transformer, in one process: our side is the experiment's own ``train`` call (its model and
# train configs, its runs, masks and callback), the reference is a plain ``nn.Module`` + ``torch.optim.AdamW`` loop
# in the official code's structure, on the same data, sizes, batch size, float32 and evaluation steps. Both sides
# are timed from model construction to the last evaluation, after a warm-up, alternately, best of ``repeats``.


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.bench", description="Benchmarks of the batched trainer.")
    parser.add_argument("which", choices=["sweep", "transformers", "dispatch"],
                        help="sweep: the toy-model phase-diagram benchmark; transformers: the paper-scale transformers "
                             "against plain PyTorch references of the official code; dispatch: aten operations and host "
                             "synchronisations per step of every paper-scale experiment (repro.book.dispatch)")
    parser.add_argument("--chapter", default=None, help="dispatch: only this chapter's experiments")
    parser.add_argument("--out", type=Path, default=None,
                        help="dispatch: also write the table, dated, to this Markdown file, or with --chapter replace that "
                             "chapter's rows in it (book/_data/dispatch_cpu.md is the one book/running.md shows)")
    parser.add_argument("--steps", type=int, default=None,
                        help="training steps per measurement (default: 2000 for sweep, 40 for transformers)")
    parser.add_argument("--one-by-one", type=int, default=3, help="sweep: configs timed one at a time (default 3)")
    parser.add_argument("--phase-diagram", type=int, default=0, metavar="STEPS",
                        help="sweep: also time the whole 10 x 10 grid for STEPS steps (e.g. 10000), metrics every 10 steps")
    parser.add_argument("--seeds", type=int, default=3, help="transformers: seeds trained batched (default 3)")
    parser.add_argument("--models", default=",".join(TRANSFORMER_MODELS),
                        help=f"transformers: comma-separated subset of {','.join(TRANSFORMER_MODELS)} (default: all)")
    parser.add_argument("--threads", type=int, default=None, help="transformers: torch threads (default: torch's)")
    parser.add_argument("--block-runs", default="", metavar="B[,B...]",
                        help="transformers: also time the batched seeds in blocks of B runs (each 1..seeds), in the "
                             "same rotation as the default block size (default: none)")
    parser.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                        help="transformers: where both sides run (default auto: CUDA when present)")
    args = parser.parse_args(argv)
    if args.which == "dispatch":
        from repro.book.dispatch import main as dispatch_main

        dispatch_main(args.chapter, path=args.out)
    elif args.which == "sweep":
        bench_sweep(n_configs_one_by_one=args.one_by_one, steps=2000 if args.steps is None else args.steps,
                    phase_diagram_steps=args.phase_diagram)
    else:
        models = tuple(m.strip() for m in args.models.split(",") if m.strip())
        try:
            block_runs = tuple(int(b) for b in args.block_runs.split(",") if b.strip())
        except ValueError:
            parser.error(f"--block-runs {args.block_runs!r}: give block sizes as integers separated by commas, e.g. 1,3")
        bench_transformers(steps=40 if args.steps is None else args.steps, seeds=args.seeds, models=models,
                           threads=args.threads, device=args.device, block_runs=block_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

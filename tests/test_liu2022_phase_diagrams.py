"""Tests of the Liu et al. 2022 phase-diagram code (Fig. 6 toy panels, Fig. 7 transformer, Fig. 8 images)."""
from dataclasses import replace

import numpy as np
import pytest

from repro.experiments.liu2022_phase_diagrams import (OFFICIAL_COUNTS, PANELS, PHASE_LETTERS, PhaseDiagram,
                                                      ToyPhaseConfig, corner_fraction, majority_phase, official_map,
                                                      phase_letters, run_phase_diagram, sandwich_columns,
                                                      seed_fraction)
from repro.experiments.liu2022_transformer_and_images import (ImageGrokConfig, TransformerGrokConfig,
                                                              run_image_phase_diagram, run_transformer,
                                                              standardized_effective_dimension)
from repro.metrics.phases import PHASES, phase_counts
from repro.plotting.liu2022_phase_diagrams import plot_phase_diagrams
from repro.plotting.liu2022_transformer_and_images import plot_images, plot_transformer


@pytest.mark.parametrize("panel", PANELS)
def test_official_maps_match_their_phase_counts(panel):
    off = official_map(panel)
    assert phase_counts(off.phases) == OFFICIAL_COUNTS[panel]


# The official maps as they were held in repro.experiments.liu2022_phase_diagrams before they moved to a data file (2026-11-25).
OLD_LITERAL = {
    "b": """GGGGGCCCMMMMMMMM GGGGGCCCMMMMMMMM GGGGGCCCMMMMMMMM GGGGGCCCMMMMMMMX GGGGGGCCMMMMMXXX
            GGGGGGGCCMMMXXXX GGGGGGGGCXXXXXXX GGGGGGGGGXXXXXXX MGGGGGGGMMXXXXXX MMMMMGGGMMMXXXXX
            MMMMMMMMMMXXXXXX""",
    "c": """GCCCCCCCCCMMMMMM GCCCCCCCCCMMMMMM GGGGCCCCCCCMMMMM GGGGGGGGGCCCCMMC GGGGGGGGGGGGGGGM
            GGGGGGGGGGGGGGMM GGGGGGGGGGGGGMMM GGGGGGGGGGGGGMXX MMMMGGGGGGGGGMXX MMMMMMGGGGGGMMXX
            XXMMMMMMMMMMMXXX""",
    "d": """CCCCCCCMMMMMMMMM CCCCCCCGMMMMMMMM CCCCCCCGMMMMMMMM CCCCCCCGGGMMMMMM CCCCCCCGMGGMMMMM
            CCCCCCCCGGMGGGGM CCCCCCCCCGGGMMMM CCCCCCCCCCCCCCGG CCGGGGCCCCCGGGMM GGGGGMMMMMMMMMMM
            MMMMXXMXMXXXXXXX""",
    "a": """GGGGGCCCCCCCM GGGGGCCCCCMMM GGGGCCCCCMMMM GGGGCCCCMMMMM GGGGCCMMMMMMM GGGCCMMMMMMMM
            GGCCMMMMMMMMM GGCMMMMMMMMMM GCMMMMMMMMMMM GMMMMMMMMMMMM MMMMMMMMMMMMM MMMMMMMMMMMMM
            MMMMMMMMMMMMM""",
}


def test_official_maps_load_from_their_data_file_unchanged():
    from repro.core.files import load_paper_data

    assert load_paper_data("liu2022_fig6_official_phases") == {k: v.split() for k, v in OLD_LITERAL.items()}
    letter = {phase: c for c, phase in PHASE_LETTERS.items()}
    for panel in PANELS:
        assert ["".join(letter[p] for p in row) for row in official_map(panel).phases] == OLD_LITERAL[panel].split()


def test_paper_data_files_need_a_provenance_header(tmp_path, monkeypatch):
    import json

    from repro.core import files

    monkeypatch.setattr(files, "DATA_DIR", tmp_path)
    (tmp_path / "bare.json").write_text(json.dumps({"data": [1], "provenance": {"what": "x", "repository": "r"}}))
    with pytest.raises(ValueError, match=r"it lacks \['files', 'commit', 'derived'\]"):
        files.load_paper_data("bare")
    with pytest.raises(ValueError, match="name='nope' is not allowed: name must be one of bare"):
        files.load_paper_data("nope")
    header = {"what": "x", "repository": "r", "files": ["f"], "commit": None, "derived": "read off"}
    (tmp_path / "ok.json").write_text(json.dumps({"data": [1, 2], "provenance": header}))
    assert files.load_paper_data("ok") == [1, 2]  # an unknown commit is allowed, said as null


def test_official_map_orientation():
    b = official_map("b")
    # phases in the official data_add_r.h5 (Fig. 6b): wd 0, lr 1e-4 comprehension; wd 0, lr 1e-5 grokking;
    # wd 10, lr 1e-2 confusion
    assert b.at(1e-4, 0.0, log_y=False) == "comprehension"
    assert b.at(1e-5, 0.0, log_y=False) == "grokking"
    assert b.at(1e-2, 10.0, log_y=False) == "confusion"
    a = official_map("a")
    # (a): fast decoder with slow representation memorizes; top-left (slow decoder, fast repr) groks
    assert a.at(1e-2, 1e-5, log_y=True) == "memorization"
    assert a.at(1e-5, 1e-2, log_y=True) == "grokking"


@pytest.mark.parametrize("panel", PANELS)
def test_paper_configs_are_the_official_grids(panel):
    cfg = ToyPhaseConfig.paper(panel)
    off = official_map(panel)
    assert cfg.lr_dec_values == off.x_values and cfg.y_values == off.y_values
    assert cfg.steps == 100_000 and cfg.gap == 1000 and cfg.time_scale == 1.0
    assert (len(off.y_values), len(off.x_values)) == {"a": (13, 13)}.get(panel, (11, 16))
    assert cfg.seed == {"a": 58, "b": 58, "c": 6, "d": 0}[panel]


def test_book_config_is_a_compressed_sub_grid():
    for panel in PANELS:
        cfg = ToyPhaseConfig.book(panel)
        assert cfg.paper_steps == 15_000 and cfg.gap * cfg.time_scale == 1000
        off = official_map(panel)
        for lr in cfg.lr_dec_values:  # every book lr lies on the official grid
            assert np.min(np.abs(np.log10(off.x_values) - np.log10(lr))) < 1e-9


def test_config_validation_names_the_parameter():
    with pytest.raises(ValueError, match="panel"):
        ToyPhaseConfig(panel="e")
    with pytest.raises(ValueError, match="time_scale"):
        ToyPhaseConfig(time_scale=0.0)
    with pytest.raises(ValueError, match="lr_dec_values"):
        ToyPhaseConfig(lr_dec_values=())
    with pytest.raises(ValueError, match="p"):
        TransformerGrokConfig(p=12)
    with pytest.raises(ValueError, match="beta2"):
        TransformerGrokConfig(beta2=1.0)
    assert TransformerGrokConfig(beta2=0.98).train_config().beta2 == 0.98
    with pytest.raises(ValueError, match="source"):
        ImageGrokConfig(source="cifar")
    with pytest.raises(ValueError, match="wd_values"):
        ImageGrokConfig(wd_values=(-1.0,))


@pytest.mark.slow
def test_tiny_sweep_classifies_every_cell():
    cfg = ToyPhaseConfig(panel="b", lr_dec_values=(1e-4, 3e-2), y_values=(0.0, 30.0), steps=120, gap=50,
                         time_scale=5.0, n_seeds=2)
    assert cfg.init_seeds == (58, 59)
    d = run_phase_diagram(cfg, progress=False)
    assert d.phases.shape == (2, 2) and d.seed_phases.shape == (2, 2, 2) and d.n_seeds == 2
    assert set(d.seed_phases.ravel()) <= {"comprehension", "grokking", "memorization", "confusion"}
    # a consistent classification: a cell memorizes iff it fitted but never generalized
    fit, gen = d.train_steps >= 0, d.val_steps >= 0
    assert np.all((d.seed_phases == "memorization") == (fit & ~gen))
    # lr 3e-2 x 5 with weight decay 30 shrinks the decoder by (1 - 0.15 * 30) < 0 per step: cannot fit
    assert np.all(d.seed_phases[:, 1, 1] == "confusion") and d.phases[1, 1] == "confusion"
    # the two seeds are different initializations of the same split: their first seed is the one-seed run
    one = run_phase_diagram(replace(cfg, n_seeds=1), progress=False)
    assert np.array_equal(one.train_steps[0], d.train_steps[0]) and np.array_equal(one.val_steps[0], d.val_steps[0])
    assert np.all(d.consensus() >= 0.5)
    assert sum(d.mean_counts().values()) == pytest.approx(4)
    assert len(phase_letters(d.phases)) == 2
    assert 0.0 <= d.agreement() <= 1.0
    fig = plot_phase_diagrams({"b": d}, official=True)
    assert len(fig.axes) >= 2


def test_agreement_against_the_official_map():
    cfg = ToyPhaseConfig.paper("b")
    off = official_map("b")
    same = PhaseDiagram(cfg, off.phases.copy(), np.zeros(off.phases.shape, int), np.zeros(off.phases.shape, int))
    assert same.agreement() == 1.0
    flipped = off.phases.copy()
    flipped[0, 0] = "confusion"
    assert PhaseDiagram(cfg, flipped, same.train_steps, same.val_steps).agreement() == pytest.approx(1 - 1 / 176)
    assert same.fraction("memorization", slice(0, 3), slice(8, 16)) == 1.0  # top right memorizes
    assert corner_fraction(off.phases, off.y_values, "memorization", "top_right") == pytest.approx(31 / 32)
    assert corner_fraction(off.phases, off.y_values, "grokking", "top_left") == pytest.approx(20 / 32)  # 4 rows x 8
    assert corner_fraction(off.phases, off.y_values, "confusion", "bottom_right") == pytest.approx(24 / 32)
    # several seeds: agreement is the mean over seeds, the map is the per-cell majority
    two = PhaseDiagram(cfg, np.stack([off.phases, flipped, flipped]), np.zeros((3, *off.phases.shape), int),
                       np.zeros((3, *off.phases.shape), int))
    assert two.agreement() == pytest.approx(1 - 2 / (3 * 176))
    assert two.seed_agreements() == pytest.approx([1, 1 - 1 / 176, 1 - 1 / 176])
    assert two.phases[0, 0] == "confusion" and two.consensus()[0, 0] == pytest.approx(2 / 3)
    assert two.phase_fractions("confusion")[0, 0] == pytest.approx(2 / 3)
    assert two.per_seed(lambda p, y: p[0, 0] == "confusion").tolist() == [0.0, 1.0, 1.0]
    assert seed_fraction(two, lambda p, y: p[0, 0], lambda v: v == "confusion") == pytest.approx(2 / 3)
    assert seed_fraction(two, sandwich_columns, lambda n: n >= 1) == 1.0  # official (b) has 4 such columns


def test_official_boundary_and_interior_agreement():
    off = official_map("b")
    # (b), wd 0: lr 1e-5 groks with a grokking neighbour on every side -> interior; lr 10^-4.2 (G) borders 10^-4 (C)
    assert not off.on_boundary(1, 1)
    assert off.on_boundary(0, 4) and off.on_boundary(0, 5)
    assert off.nearest(1e-4, 0.0, log_y=False) == (0, 5)
    cfg = ToyPhaseConfig.book("b")
    ny, nx = len(cfg.y_values), len(cfg.lr_dec_values)
    zeros = np.zeros((ny, nx), int)
    same = PhaseDiagram(cfg, PhaseDiagram(cfg, np.full((ny, nx), "confusion", dtype=object), zeros, zeros)
                        .official_phases(), zeros, zeros)
    boundary = same.official_boundary()
    assert boundary.shape == (ny, nx) and boundary.any() and not boundary.all()
    assert same.interior_agreement() == 1.0
    # a wrong phase on a boundary cell leaves the interior agreement at 1; on an interior cell it lowers it
    wrong = same.seed_phases[0].copy()
    j, i = map(int, np.argwhere(boundary)[0])
    wrong[j, i] = "grokking" if wrong[j, i] != "grokking" else "confusion"
    assert PhaseDiagram(cfg, wrong, zeros, zeros).interior_agreement() == 1.0
    j, i = map(int, np.argwhere(~boundary)[0])
    wrong[j, i] = "grokking" if wrong[j, i] != "grokking" else "confusion"
    assert PhaseDiagram(cfg, wrong, zeros, zeros).interior_agreement() == pytest.approx(1 - 1 / (~boundary).sum())


def test_comparison_with_the_official_map_counts_what_the_methods_give():
    cfg = ToyPhaseConfig.paper("b")
    off = official_map("b")
    flipped = off.phases.copy()
    flipped[0, 0] = "confusion" if flipped[0, 0] != "confusion" else "grokking"
    d = PhaseDiagram(cfg, flipped, np.zeros(off.phases.shape, int), np.zeros(off.phases.shape, int))
    c = d.comparison()
    assert c.n_cells == 176 and (c.official == d.official_phases()).all()
    assert c.interior_cells == int((~d.official_boundary()).sum())
    assert c.interior_differ == int(((flipped != off.phases) & ~d.official_boundary()).sum())
    assert c.agreement == d.agreement() and c.interior_agreement == d.interior_agreement()
    for phase in PHASES:
        assert c.counts[phase] == (int((flipped == phase).sum()), int((off.phases == phase).sum()))
        assert c.share_difference(phase) == float((d.phases == phase).mean() - (c.official == phase).mean())
    assert sum(ours for ours, _ in c.counts.values()) == 176
    with pytest.raises(ValueError, match="phase"):
        c.share_difference("learning")


def test_majority_phase_breaks_ties_by_the_fixed_phase_order():
    sp = np.array([[["memorization", "confusion"]], [["grokking", "confusion"]],
                   [["memorization", "grokking"]], [["grokking", "grokking"]]], dtype=object)  # (4 seeds, 1, 2)
    maj = majority_phase(sp)
    assert maj.shape == (1, 2)
    assert maj[0, 0] == "grokking"  # 2 grokking vs 2 memorization: grokking comes first in PHASES
    assert maj[0, 1] == "grokking"  # 2 vs 2 again
    assert majority_phase(sp[:1]).tolist() == [["memorization", "confusion"]]
    with pytest.raises(ValueError, match="n_seeds"):
        ToyPhaseConfig(n_seeds=0)


def test_effective_dimension_of_standardized_embeddings():
    rng = np.random.default_rng(0)
    circle = np.stack([np.cos(2 * np.pi * np.arange(12) / 12), np.sin(2 * np.pi * np.arange(12) / 12)], 1)
    # a circle in 2 of 40 dims, plus tiny noise: e^S close to 2 (after the official row standardization
    # the variance stays in a handful of directions)
    emb = np.zeros((12, 40))
    emb[:, :2] = circle * 10
    emb[:, 2:] = rng.normal(0, 1e-3, (12, 38))
    emb[:, 2] += 5.0  # a constant offset dimension, so row standardization is well defined
    assert standardized_effective_dimension(emb) < 3.5
    assert standardized_effective_dimension(rng.normal(size=(12, 40))) > 8


@pytest.mark.slow
def test_tiny_transformer_and_image_runs(monkeypatch):
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    tcfg = TransformerGrokConfig.for_scale()
    res = run_transformer(tcfg, progress=False)
    assert tcfg.n_seeds == 2
    assert res.embeddings.shape[:3] == (2, len(res.history.steps), tcfg.p)
    assert res.effective_dim.shape == (2, len(res.history.steps))
    assert np.all(res.effective_dim >= 1) and np.all(res.effective_dim <= tcfg.p)
    plot_transformer(res)
    icfg = ImageGrokConfig.for_scale()
    assert icfg.source == "digits"
    out = run_image_phase_diagram(icfg, progress=False)
    shape = (len(icfg.wd_values), len(icfg.lr_dec_values))
    assert out.phases.shape == shape and out.seed_phases.shape == (icfg.n_seeds, *shape)
    assert icfg.grid()["wd"][out.curve_run()] == icfg.curve_wd
    runs = icfg.runs()
    assert len(runs["wd"]) == out.history["train_acc"].shape[0] == icfg.n_seeds * len(icfg.grid()["wd"])
    for r in out.curve_runs():  # the Fig. 8(a) cell of every seed
        assert (runs["wd"][r], runs["lr_dec"][r]) == (icfg.curve_wd, icfg.curve_lr_dec)
    assert [runs["init_seed"][r] for r in out.curve_runs()] == icfg.seeds
    assert out.cell_steps("val_acc", icfg.val_threshold).shape == (icfg.n_seeds, *shape)
    plot_images(out)


def test_fourier_variance_shares_of_one_circle_and_of_two():
    from repro.experiments.liu2022_transformer_and_images import fourier_circle, fourier_variance_shares

    p, s = 31, np.arange(31)
    one = np.stack([np.cos(2 * np.pi * 3 * s / p), np.sin(2 * np.pi * 3 * s / p), np.zeros(p)], axis=1)
    shares = fourier_variance_shares(one, p)
    assert shares.sum() == pytest.approx(1) and shares[2] == pytest.approx(1)  # k = 3 carries everything
    assert fourier_circle(one, p) == (3, pytest.approx(1))
    two = np.concatenate([one[:, :2], 0.5 * np.stack([np.cos(2 * np.pi * 5 * s / p), np.sin(2 * np.pi * 5 * s / p)], 1)], 1)
    shares = fourier_variance_shares(two, p)
    assert shares[2] == pytest.approx(0.8) and shares[4] == pytest.approx(0.2)


def test_uncompressed_config_is_the_book_cells_at_paper_settings():
    from repro.experiments.liu2022_phase_diagrams import uncompressed_config

    for panel in PANELS:
        cfg, book, paper = uncompressed_config(panel), ToyPhaseConfig.book(panel), ToyPhaseConfig.paper(panel)
        assert cfg.lr_dec_values == book.lr_dec_values and cfg.y_values == book.y_values
        assert (cfg.steps, cfg.gap, cfg.time_scale, cfg.seed, cfg.embed_l1) == (paper.steps, paper.gap, 1.0, paper.seed,
                                                                                paper.embed_l1)
        off = official_map(panel)  # every book cell is a cell of the official grid
        for lr in cfg.lr_dec_values:
            assert np.min(np.abs(np.log10(off.x_values) - np.log10(lr))) < 1e-9
        ys = np.log10(off.y_values) if panel == "a" else np.asarray(off.y_values)
        for y in cfg.y_values:
            assert np.min(np.abs(ys - (np.log10(y) if panel == "a" else y))) < 1e-9


def test_diagram_arrays_round_trip():
    from repro.experiments.liu2022_phase_diagrams import PhaseDiagram, diagram_from_arrays, diagram_to_arrays

    cfg = replace(ToyPhaseConfig.book("b"), lr_dec_values=(1e-4, 1e-3), y_values=(0.0, 2.0), n_seeds=2)
    phases = np.array([[["comprehension", "grokking"], ["memorization", "confusion"]]] * 2, dtype=object)
    steps = np.arange(8).reshape(2, 2, 2)
    d = PhaseDiagram(cfg, phases, steps, steps + 1)
    back = diagram_from_arrays(cfg, diagram_to_arrays(d))
    assert (back.seed_phases == d.seed_phases).all() and np.array_equal(back.val_steps, d.val_steps)
    with pytest.raises(ValueError, match="shape"):
        diagram_from_arrays(replace(cfg, n_seeds=1), diagram_to_arrays(d))


@pytest.mark.slow
def test_full_grid_parts_cover_the_official_grid_and_join_to_the_whole_map(tmp_path):
    from repro.experiments.liu2022_phase_diagrams import (full_grid_config, full_grid_label, full_grid_parts,
                                                          join_diagrams, stored_full_grid)
    from repro.training.store import ResultsStore

    for panel in PANELS:
        full, parts = full_grid_config(panel), full_grid_parts(panel)
        assert full == replace(ToyPhaseConfig.paper(panel), eval_every=10)
        assert tuple(y for part in parts for y in part.y_values) == full.y_values
        assert all(replace(part, y_values=full.y_values) == full for part in parts)
    assert stored_full_grid("a", tmp_path) is None and full_grid_label("b") == "liu2022-fig6b-full"
    # the map stays None until every part is there
    part = full_grid_parts("b")[1]
    shape = (part.n_seeds, len(part.y_values), len(part.lr_dec_values))
    fake = {"phase_codes": np.zeros(shape, dtype=np.int64), "train_steps": np.zeros(shape, dtype=np.int64),
            "val_steps": np.zeros(shape, dtype=np.int64)}
    ResultsStore(tmp_path).save(part, fake, label=full_grid_label("b"), wall_time_s=1.0)
    assert stored_full_grid("b", tmp_path) is None
    with pytest.raises(ValueError, match="rows_per_part"):
        full_grid_parts("b", rows_per_part=0)
    # a map trained in row blocks is the map trained whole (a cell's run does not depend on its batch)
    cfg = ToyPhaseConfig(panel="b", lr_dec_values=(1e-4, 3e-2), y_values=(0.0, 5.0, 30.0), steps=120, gap=50,
                         time_scale=5.0)
    whole = run_phase_diagram(cfg, progress=False)
    blocks = [run_phase_diagram(replace(cfg, y_values=ys), progress=False) for ys in ((0.0, 5.0), (30.0,))]
    joined = join_diagrams(cfg, blocks)
    assert (joined.seed_phases == whole.seed_phases).all()
    assert np.array_equal(joined.train_steps, whole.train_steps) and np.array_equal(joined.val_steps, whole.val_steps)
    with pytest.raises(ValueError, match="consecutive row blocks"):
        join_diagrams(cfg, blocks[::-1])


def test_the_official_rerun_of_fig6d_against_the_papers_data_file():
    """The repository's committed re-run (toy/results/fig5d, 1e4 steps) and the paper's data_perm_r.h5 (1e5 steps)
    share 4 decoder lrs x 11 weight decays; they agree at 15 of those 44 cells, the re-run comprehending at the fast
    decoders where the paper's map memorizes."""
    from repro.experiments.liu2022_phase_diagrams import official_map, official_rerun_map, shared_cell_agreement

    rerun, paper = official_rerun_map(), official_map("d")
    assert rerun.phases.shape == (11, 10) and rerun.y_values == paper.y_values
    assert shared_cell_agreement(paper, rerun) == (15, 44)
    assert shared_cell_agreement(paper, paper) == (176, 176)
    assert rerun.phases[0, -1] == "comprehension" and paper.phases[0, -1] == "memorization"


def test_kappa_of_maps_at_shared_cells_and_of_shuffled_maps():
    """Cohen's kappa through the chapter's helpers: the official re-run of (d) against the paper's file is at chance
    (15 of 44 cells agree, fewer than the 16.5 that their phase shares give by chance); a map against itself is 1;
    shuffled copies of the official map keep its shares and scatter about kappa 0."""
    from repro.experiments.liu2022_phase_diagrams import (official_map, official_rerun_map, shared_cell_kappa,
                                                          shared_cells, shuffled_kappas)

    rerun, paper = official_rerun_map(), official_map("d")
    pa, pb = shared_cells(paper, rerun)
    assert pa.shape == pb.shape == (11, 4) and int((pa == pb).sum()) == 15
    k = shared_cell_kappa(paper, rerun)
    assert k.n == 44 and k.kappa == pytest.approx((15 / 44 - k.chance) / (1 - k.chance)) and k.kappa < 0
    assert shared_cell_kappa(paper, paper).kappa == pytest.approx(1.0)
    kappas = shuffled_kappas(paper.phases, paper.phases, n_shuffles=50, seed=0)
    assert kappas.shape == (50,) and abs(kappas.mean()) < 0.03 and kappas.max() < 0.3
    with pytest.raises(ValueError, match="same cells"):
        shuffled_kappas(paper.phases[:5], paper.phases)
    with pytest.raises(ValueError, match="share no cell"):
        shared_cells(official_map("a"), paper)


def test_diagram_map_reads_a_map_at_a_shorter_budget():
    """A stored map read as a run of fewer steps would have ended: a first step at or after the budget is never."""
    from repro.experiments.liu2022_phase_diagrams import PhaseDiagram, diagram_map

    cfg = ToyPhaseConfig(panel="d", lr_dec_values=(1e-4, 1e-3), y_values=(0.0,), steps=100_000, gap=1000)
    tr, va = np.array([[200, 300]]), np.array([[900, 20_000]])
    d = PhaseDiagram(cfg, np.array([["comprehension", "grokking"]], dtype=object), tr, va)
    assert list(diagram_map(d).phases[0]) == ["comprehension", "grokking"]
    assert list(diagram_map(d, budget=10_000).phases[0]) == ["comprehension", "memorization"]
    assert list(diagram_map(d, budget=250).phases[0]) == ["memorization", "confusion"]
    assert diagram_map(d).x_values == (1e-4, 1e-3)


def test_shifted_kappa_is_the_one_grid_step_resolution_of_the_official_maps():
    """The kappa band of the whole grids (0.7) rests on these: a one-column shift of each official map scores
    0.75-0.79 against it."""
    from repro.experiments.liu2022_phase_diagrams import official_map, shifted_kappa

    values = {p: shifted_kappa(official_map(p)).kappa for p in PANELS}
    assert all(0.74 < v < 0.8 for v in values.values()), values
    assert shifted_kappa(official_map("d"), "y").n == 10 * 16
    with pytest.raises(ValueError, match="axis"):
        shifted_kappa(official_map("d"), "x")


def test_with_columns_reversed():
    from repro.experiments.liu2022_phase_diagrams import official_rerun_map, with_columns_reversed

    rerun = official_rerun_map()
    rev = with_columns_reversed(rerun)
    assert rev.x_values == rerun.x_values and (rev.phases[:, 0] == rerun.phases[:, -1]).all()
    assert (with_columns_reversed(rev).phases == rerun.phases).all()


def test_layout_counts_of_the_official_maps():
    """The counts behind §4.1 (i)-(iv) give back the official values the chapter quotes (top-right memorization
    0.97 / 0.59 / 0.94, confusion excess 0.72 / 0.28 / 0.22, sandwich columns 4 / 12 / 8)."""
    from repro.experiments.liu2022_phase_diagrams import layout_counts, official_map

    for panel, mem, excess, cols in (("b", 0.97, 0.72, 4), ("c", 0.59, 0.28, 12), ("d", 0.94, 0.22, 8)):
        off = official_map(panel)
        c = layout_counts(off.phases, off.y_values)
        assert c["(i)"][0][0] == min(OFFICIAL_COUNTS[panel].values()) and c["(i)"][0][1] == 176
        (m, n), = c["(ii)"]
        assert n == 32 and round(m / n, 2) == mem
        (cb, nb), (ct, nt) = c["(iii)"]
        assert round(cb / nb - ct / nt, 2) == excess
        assert c["(iv)"] == ((cols, 16),)

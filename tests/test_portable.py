"""repro.core.portable: numbers at a stated resolution, seed medians, short config reprs."""
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from repro.book.claims import Claim, ClaimBook
from repro.core.portable import (TRAINED_MARK, ConfigRepr, approx, describe_seeds, mark_trained, round_sig, round_to,
                                 seed_median, strip_trained, trained)


@pytest.mark.parametrize("x, res, text", [(2673, 100, "2,700"), (0.3634, 0.05, "0.35"), (812, 20, "820"),
                                          (-0.0001, 0.01, "0.00"), (0.5, 0.25, "0.50"), (1e-3, 1e-4, "0.0010"),
                                          (3.14159, 1, "3"), (12345, 1000, "12,000")])
def test_approx_resolution(x, res, text):
    assert approx(x, res) == text


def test_round_to_is_on_the_grid_and_nearest():
    rng = np.random.default_rng(0)
    for res in (0.01, 0.05, 0.25, 3, 100):
        for x in rng.uniform(-1000, 1000, 200):
            q = round_to(x, res)
            assert abs(q - x) <= res / 2 + 1e-9
            assert abs(q / res - round(q / res)) < 1e-9


def test_approx_digits_and_errors():
    assert approx(0.01763, digits=2) == "0.018"
    assert approx(2673, digits=2) == "2,700"
    assert approx(3.87e-10, digits=2) == "3.9e-10"
    assert round_sig(123.456, 2) == 120
    with pytest.raises(ValueError, match="exactly one"):
        approx(1.0)
    with pytest.raises(ValueError, match="resolution"):
        approx(1.0, 0)
    with pytest.raises(ValueError, match="digits"):
        approx(1.0, digits=0)
    assert approx(float("nan"), 1) == "nan"


def test_seed_median_counts_never_as_infinite():
    assert seed_median([100, 200, 300]) == 200
    assert seed_median([100, -1, 300]) == 300
    assert math.isinf(seed_median([100, -1, -1]))
    with pytest.raises(ValueError):
        seed_median([])


def test_describe_seeds_is_rounded():
    values = [2670, 2380, 2500, -1, 2900, 2450, 2600, 2550]
    text = describe_seeds(values, 100, unit="steps", live=False)
    assert text == "≈ 2,600 steps (median of 8 seeds; middle half 2,400–2,700; 1 of 8 never)"
    assert describe_seeds([-1, -1], 10, live=False) == "never (0 of 2 seeds)"
    # Live (the default): the same words, with the statistic and the spread marked as trained numbers.
    live = describe_seeds(values, 100, unit="steps")
    assert strip_trained(live) == text
    assert live.count(TRAINED_MARK) == 4


def test_live_describe_seeds_keeps_its_shape_whatever_the_values():
    """What nbval compares (marked spans replaced) must not depend on how many seeds crossed on this CPU."""
    shapes = {_sanitized(describe_seeds(v, 10)) for v in ([-1, -1, -1], [5, -1, -1], [5, 7, 9], [5, 7, -1])}
    assert shapes == {"<trained> (median of 3 seeds; <trained>)"}


def _sanitized(text: str) -> str:
    """What nbval compares: the book's sanitizer entries applied to ``text``."""
    import configparser
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[1] / "nbval_sanitize.cfg")
    for section in cfg.sections():
        text = re.sub(cfg[section]["regex"], cfg[section]["replace"], text)
    return text


def test_trained_marks_the_number_and_the_sanitizer_replaces_it():
    assert trained(0.5234, 0.1) == f"{TRAINED_MARK}0.5{TRAINED_MARK}"
    assert strip_trained(trained(2673, digits=2)) == "2,700"
    assert strip_trained(trained(12345)) == "12,345"
    assert strip_trained(trained("3 of 8")) == "3 of 8"
    line = f"slope {trained(0.61, 0.1)} (pooled over 3 seeds), intercept {trained(-7.2, 0.5)}"
    assert _sanitized(line) == "slope <trained> (pooled over 3 seeds), intercept <trained>"
    # MyST-NB glue stores repr(str): the marks appear as the escape text \u2060, which the sanitizer also takes.
    assert _sanitized(repr(trained(0.61, 0.1))) == "'<trained>'"
    # And in HTML (a ledger cell), where html.escape leaves the marks alone.
    import html
    assert _sanitized(f"<td>{html.escape(trained(1.23, 0.01))}</td>") == "<td><trained></td>"


def test_trained_rejects_unclear_input():
    with pytest.raises(ValueError, match="resolution"):
        trained(0.5)
    with pytest.raises(ValueError, match="string"):
        trained("x", 0.1)
    with pytest.raises(ValueError, match="nest"):
        mark_trained(trained(1))


@dataclass(frozen=True, repr=False)
class _Cfg(ConfigRepr):
    lr: float = float(np.float64(0.31622776601683794))
    grid: tuple = (np.float64(1e-3), np.float64(0.0031622776601683794))
    name: str = "x"
    n: int = 3
    hidden: list = field(default_factory=lambda: [1, 2])


def test_config_repr_one_field_per_line_short_floats():
    text = repr(_Cfg())
    assert text.splitlines()[0] == "_Cfg("
    assert "    lr=0.316228," in text
    assert "    grid=(0.001, 0.00316228)," in text
    assert "np.float64" not in text
    assert "    name='x'," in text and "    n=3," in text and "    hidden=[1, 2]," in text


def test_claim_is_stored_and_shown_at_its_resolution(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    c = book.check("steps", 2673.4, 1000, kind="reproduction", comparison=">=", source="Fig. 1", resolution=100,
                   live=False)
    assert c.ours == 2700 and c.passed and c.ours_text() == "2,700"
    assert "2,700" in book.table() and "2673" not in book.table()
    assert repr(c) == "Claim(reproduction 'steps': ours 2,700, paper >= 1000; as registered)"
    # A claim on a live run (the default) shows ours marked: nbval compares its outcome, not its digits.
    live = book.check("live steps", 2673.4, 1000, kind="reproduction", comparison=">=", source="Fig. 1",
                      resolution=100)
    assert live.ours_text() == trained(2700, 100) and _sanitized(repr(live)).startswith(
        "Claim(reproduction 'live steps': ours <trained>, paper >= 1000")
    d = book.check("fit", 0.912345, 0.9, kind="reproduction", comparison=">=", source="Fig. 1")
    assert d.ours == 0.912  # 3 significant digits by default
    # old claims files (no resolution) still load
    assert Claim(name="a", ours=1.0, paper=1.0, tolerance=0.1, source="s").resolution is None


def test_config_differences_lists_changed_fields_one_per_line():
    from dataclasses import dataclass, replace

    from repro.core.portable import ConfigRepr, config_differences

    @dataclass(frozen=True, repr=False)
    class C(ConfigRepr):
        p: int = 59
        lr: float = 1e-3
        seeds: tuple = (1, 2)

    table = config_differences(C(), replace(C(), p=31, lr=5e-3)).splitlines()
    assert table[0].split() == ["field", "paper", "book"]
    assert [line.split() for line in table[1:]] == [["p", "59", "31"], ["lr", "0.001", "0.005"]]
    assert config_differences(C(), C()) == "the book config equals the paper config"
    import pytest

    with pytest.raises(ValueError, match="two configs of one dataclass"):
        config_differences(C(), 3)


def test_setup_table_lists_every_setting_and_refuses_undisclosed_differences():
    import dataclasses

    from repro.core.portable import setup_table

    @dataclasses.dataclass(frozen=True)
    class Cfg:
        p: int = 97
        lr: float = 1e-3
        operation: str = "division"

    ours = Cfg(p=59, operation="addition")
    table = setup_table("Fig. 1", Cfg(), ours, reasons={"p": "book scale", "operation": "not yet rerun"},
                        extra=[("init", "PyTorch default", "PyTorch default", "")])
    assert table.differences == ["p", "operation"]
    text = str(table)
    assert text.splitlines()[0] == "Fig. 1: 2 of 4 settings differ"
    assert "lr" in text and "same" in text and "not yet rerun" in text and "<table>" in table._repr_html_()
    with pytest.raises(ValueError, match="operation differs .* disclose it"):
        setup_table("Fig. 1", Cfg(), ours, reasons={"p": "book scale"})
    with pytest.raises(ValueError, match="does not differ"):
        setup_table("Fig. 1", Cfg(), Cfg(), reasons={"p": "x"})
    with pytest.raises(ValueError, match="init differs"):
        setup_table("Fig. 1", Cfg(), Cfg(), extra=[("init", "He", "PyTorch default", "")])


def test_setup_table_marks_unstated_settings_and_scale_dependent_reasons():
    import dataclasses

    from repro.core.portable import setup_table

    @dataclasses.dataclass(frozen=True)
    class Cfg:
        p: int = 97
        steps: int = 100_000
        seed: int = 0

    unstated = setup_table("Fig. 2", Cfg(), Cfg(), unstated=("seed",), reasons={"seed": "any seed works"})
    assert unstated.rows[-1] == ("seed", "unstated", "0", "any seed works") and unstated.differences == ["seed"]
    assert setup_table("Fig. 2", Cfg(), Cfg(), unstated=("seed",)).rows[-1][3] == "the paper does not state it"
    budget = {"steps": "the book's CPU budget"}  # differs at book scale only
    assert setup_table("Fig. 2", Cfg(), Cfg(steps=3000), reasons_if_differs=budget).differences == ["steps"]
    assert setup_table("Fig. 2", Cfg(), Cfg(), reasons_if_differs=budget).differences == []
    with pytest.raises(ValueError, match="both reasons and reasons_if_differs"):
        setup_table("Fig. 2", Cfg(), Cfg(steps=3), reasons=budget, reasons_if_differs=budget)
    with pytest.raises(ValueError, match="not fields of Cfg"):
        setup_table("Fig. 2", Cfg(), Cfg(), unstated=("width",))


def test_setup_table_text_wraps_long_cells():
    import dataclasses

    from repro.core.portable import setup_table

    @dataclasses.dataclass(frozen=True)
    class Cfg:
        p: int = 97

    long = "a reason that goes on " * 10
    text = str(setup_table("Fig. 3", Cfg(), Cfg(p=59), reasons={"p": long}))
    assert max(len(line) for line in text.splitlines()) <= 120
    lines = text.splitlines()
    column = lines[1].index("difference")  # the reason column starts where its header does, on every line
    assert len(lines) > 3 and " ".join(line[column:] for line in lines[2:]).split() == long.split()


def test_text_table_is_plain_text_for_nbval_and_escaped_html_in_notebooks():
    from repro.core.portable import TextTable

    table = TextTable(("theory", "the paper's setting"), [("Liu <2022>", "a & b")])
    assert str(table) == repr(table) == "theory | the paper's setting\nLiu <2022> | a & b"
    html = table._repr_html_()
    assert "the paper&#x27;s setting" in html and "Liu &lt;2022&gt;" in html and "a &amp; b" in html
    assert html.count("<tr>") == 2 and html.startswith("<table>")

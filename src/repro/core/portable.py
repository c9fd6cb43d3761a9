"""Numbers and configs printed so that the same stored outputs validate on any machine.

Training is chaotic: the last bit of a vectorised ``tanh`` or of a reduction order differs between
CPU kernel sets (AVX2, AVX-512, ARM, CUDA) and grows into a different trajectory. What a chapter prints
for nbval to compare must therefore be a property of the science, not of one machine's rounding: a
number rounded to the resolution its claim's tolerance justifies, a statistic over seeds, a verdict.

* :func:`approx` rounds to a grid (``resolution``) or to significant digits and formats the result.
* :func:`trained` formats a number that comes out of a training run *and marks it*: rounding cannot make
  such a number portable (the BLAS and the kernel set change its last bits by CPU model, and a chaotic
  float32 run amplifies them into a different trajectory, so some rounded value always sits next to a
  rounding edge). The mark is a pair of invisible WORD JOINERs (U+2060) around the text; the reader sees
  the number, and ``nbval_sanitize.cfg`` replaces each marked span with ``<trained>`` before nbval compares
  a cell, so the rest of the cell (text, configs, closed forms, stored results) is still byte-compared.
  What judges a trained number is its claim (:mod:`repro.book.claims`), with a tolerance and a margin.
* :class:`ConfigRepr` gives frozen config dataclasses a short repr, one field per line, with every float
  at 6 significant digits (``np.float64(0.31622776601683794)`` becomes ``0.316228``), so a config whose
  fields are computed (``np.logspace``) prints the same on every machine.
"""
from __future__ import annotations

import dataclasses
import math
import textwrap
from numbers import Integral, Real

import numpy as np

from repro.core.scale import current_scale

SMOKE_REASON = "smoke scale: sizes cut to exercise the code, not the setup"


def round_to(x: float, resolution: float) -> float:
    """``x`` rounded to the nearest multiple of ``resolution`` (> 0); non-finite values pass through."""
    if not (isinstance(resolution, Real) and math.isfinite(resolution) and resolution > 0):
        raise ValueError(f"resolution={resolution!r} is not allowed: resolution must be a finite number > 0.")
    x = float(x)
    if not math.isfinite(x):
        return x
    q = round(x / resolution) * resolution
    # Print-clean: 0.1 * 3 -> 0.3, not 0.30000000000000004.
    decimals = max(0, -math.floor(math.log10(resolution)) + 1)
    return round(q, decimals) + 0.0  # + 0.0 turns -0.0 into 0.0


def round_sig(x: float, digits: int) -> float:
    """``x`` rounded to ``digits`` significant digits."""
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x))))) + 0.0


def approx(x: float, resolution: float | None = None, *, digits: int | None = None, thousands: bool = True) -> str:
    """Format ``x`` at a stated resolution (a grid) or a number of significant digits, e.g.
    ``approx(2673, 100) == '2,700'``, ``approx(0.3634, 0.05) == '0.35'``, ``approx(0.01763, digits=2) == '0.018'``."""
    if (resolution is None) == (digits is None):
        raise ValueError("approx: give exactly one of resolution= (a grid step) or digits= (significant digits).")
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if digits is not None:
        if not isinstance(digits, Integral) or digits < 1:
            raise ValueError(f"digits={digits!r} is not allowed: digits must be an integer >= 1.")
        v = round_sig(x, digits)
        text = f"{v:.{digits}g}"
        if "e" in text or abs(v) >= 10 ** digits:
            return f"{v:,.0f}" if (thousands and abs(v) >= 1000 and v == int(v)) else text
        return text
    v = round_to(x, resolution)
    decimals = max(0, -math.floor(math.log10(resolution) + 1e-12)) if resolution < 1 else 0
    if resolution < 1 and round(resolution * 10 ** decimals) != resolution * 10 ** decimals:
        decimals += 1
    return f"{v:,.{decimals}f}" if thousands else f"{v:.{decimals}f}"


TRAINED_MARK = "\u2060"  # WORD JOINER: zero width, invisible, never breaks a line; see nbval_sanitize.cfg


def mark_trained(text: str) -> str:
    """``text`` between two :data:`TRAINED_MARK` characters: shown as it is, replaced by ``<trained>`` when nbval
    compares outputs. ``text`` must not already contain a mark (marked spans do not nest)."""
    text = str(text)
    if TRAINED_MARK in text:
        raise ValueError(f"text={text!r} already contains a trained-number mark; marked spans do not nest.")
    return f"{TRAINED_MARK}{text}{TRAINED_MARK}"


def trained(x, resolution: float | None = None, *, digits: int | None = None, thousands: bool = True) -> str:
    """A number that comes out of a training run (live in the chapter, on this machine), formatted like
    :func:`approx` and marked so that nbval does not byte-compare it (:func:`mark_trained`).

    ``trained(0.5, 0.1) == '\u20600.5\u2060'``. A string (e.g. ``'3 of 8'``) is marked as it is when neither
    ``resolution`` nor ``digits`` is given. Use it for every number a chapter shows that a live training run
    produced; use :func:`approx` for closed forms, configs, paper values and stored results, which are the same
    on every machine and stay byte-compared."""
    if isinstance(x, str):
        if resolution is not None or digits is not None:
            raise ValueError("trained: a string is marked as it is; give resolution= or digits= only with a number.")
        return mark_trained(x)
    if resolution is None and digits is None:
        if isinstance(x, (Integral, np.integer)) and not isinstance(x, (bool, np.bool_)):
            return mark_trained(f"{int(x):,}" if thousands else str(int(x)))
        raise ValueError("trained: give resolution= (a grid step) or digits= (significant digits) for a float.")
    return mark_trained(approx(x, resolution, digits=digits, thousands=thousands))


def strip_trained(text: str) -> str:
    """``text`` with the trained-number marks removed (for tests and for text that leaves the book)."""
    return str(text).replace(TRAINED_MARK, "")


def _short(value) -> str:
    if isinstance(value, (bool, np.bool_)) or value is None or isinstance(value, str):
        return repr(value)
    if isinstance(value, (Integral, np.integer)):
        return repr(int(value))
    if isinstance(value, (Real, np.floating)):
        return f"{float(value):.6g}"
    if isinstance(value, tuple):
        inner = ", ".join(_short(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    if isinstance(value, np.ndarray):
        return "array([" + ", ".join(_short(v) for v in value.ravel().tolist()) + "])"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return repr(value).replace("\n", "\n    ")
    return repr(value)


class ConfigRepr:
    """Mixin for ``@dataclass(frozen=True, repr=False)`` configs: one field per line, floats at 6
    significant digits. (``repr=False`` matters: a dataclass otherwise writes its own ``__repr__``.)"""

    def __repr__(self) -> str:
        lines = [f"    {f.name}={_short(getattr(self, f.name))}," for f in dataclasses.fields(self) if f.repr]
        return f"{type(self).__name__}(\n" + "\n".join(lines) + "\n)"


def config_differences(reference, other, *, names: tuple[str, str] = ("paper", "book")) -> str:
    """A text table of the fields where two configs of one class differ (``reference`` first, e.g. the
    paper's defaults against the book scale), one field per line: what a chapter changed, at a glance."""
    if type(reference) is not type(other) or not dataclasses.is_dataclass(reference):
        raise ValueError(f"config_differences needs two configs of one dataclass; got {type(reference).__name__} "
                         f"and {type(other).__name__}.")
    rows = [("field", *names)]
    rows += [(f.name, _short(getattr(reference, f.name)), _short(getattr(other, f.name)))
             for f in dataclasses.fields(reference) if getattr(reference, f.name) != getattr(other, f.name)]
    if len(rows) == 1:
        return f"the {names[1]} config equals the {names[0]} config"
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)


class SetupTable:
    """An experiment's setup beside the paper's (:func:`setup_table`): plain text for nbval and print, HTML in
    notebooks."""

    def __init__(self, title: str, rows: list[tuple[str, str, str, str]], names: tuple[str, str]):
        self.title, self.rows, self.names = title, rows, names

    @property
    def differences(self) -> list[str]:
        return [r[0] for r in self.rows if r[3] != "same"]

    # the plain-text form wraps each column at its own width, so a long reason reads as a paragraph in a
    # terminal or a stored output rather than one 400-character line
    WRAP = (24, 30, 30, 56)

    def __str__(self) -> str:
        rows = [("setting", *self.names, "difference")] + self.rows
        cells = [[textwrap.wrap(c, w, break_on_hyphens=False) or [""] for c, w in zip(r, self.WRAP)] for r in rows]
        widths = [max(len(line) for r in cells for line in r[i]) for i in range(3)]
        lines = [f"{self.title}: {len(self.differences)} of {len(self.rows)} settings differ"]
        for r in cells:
            for k in range(max(len(c) for c in r)):
                parts = [c[k] if k < len(c) else "" for c in r]
                lines.append("  ".join([*(c.ljust(w) for c, w in zip(parts[:3], widths)), parts[3]]).rstrip())
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html as _html

        return (f"<p><b>{_html.escape(self.title)}</b>: {len(self.differences)} of {len(self.rows)} settings "
                f"differ.</p>" + html_table(("setting", *self.names, "difference"), self.rows))


def html_table(head: tuple[str, ...], rows) -> str:
    """An HTML table of plain-text cells (escaped), left- and top-aligned: how the book's tables show in notebooks."""
    import html as _html

    cell = 'style="text-align:left;vertical-align:top;padding:2px 6px"'
    top = "".join(f"<th {cell}>{_html.escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td {cell}>{_html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


class TextTable:
    """Rows of text cells under a head: one ``" | "``-joined line per row as plain text (nbval compares it, print
    shows it), :func:`html_table` in notebooks."""

    def __init__(self, head: tuple[str, ...], rows):
        self.head, self.rows = tuple(head), [tuple(r) for r in rows]

    def __str__(self) -> str:
        return "\n".join(" | ".join(r) for r in [self.head, *self.rows])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return html_table(self.head, self.rows)


def setup_table(title: str, reference, ours, *, reasons: dict[str, str] | None = None, fields=None,
                unstated: tuple[str, ...] = (), reasons_if_differs: dict[str, str] | None = None,
                extra: list[tuple[str, object, object, str]] = (),
                names: tuple[str, str] = ("paper", "ours")) -> SetupTable:
    """The setup of one experiment beside the paper's (or the official code's): every field of two configs of one
    dataclass (``reference`` holds the paper's values, e.g. the class defaults; or only ``fields``), plus
    ``extra`` rows ``(setting, paper's, ours, reason)`` for what the config does not hold (an init scheme the
    code fixes, an optimizer). Every difference needs its reason in ``reasons`` (field -> why); a difference
    without one raises, so a table can never hide an undisclosed difference. A reason for a field that does not
    differ raises too (it would describe a difference that is not there).

    ``unstated``: fields the paper does not state. Their rows show "unstated" in the paper's column and our value,
    with the reason for our choice from ``reasons`` (or "the paper does not state it"); they count as differences.
    ``reasons_if_differs``: reasons for fields that differ only at some scales (a book-scale budget that the
    paper-scale config restores): used where the field differs, ignored where it does not."""
    if type(reference) is not type(ours) or not dataclasses.is_dataclass(reference):
        raise ValueError(f"setup_table needs two configs of one dataclass; got {type(reference).__name__} and "
                         f"{type(ours).__name__}.")
    reasons, scaled = dict(reasons or {}), dict(reasons_if_differs or {})
    smoke = current_scale() == "smoke"  # smoke sizes differ everywhere: they check code paths, not setups
    names_all = [f.name for f in dataclasses.fields(reference)]
    chosen = [n for n in (list(fields) if fields is not None else names_all) if n not in unstated]
    unknown = [f for f in [*chosen, *unstated, *reasons, *scaled] if f not in names_all]
    if unknown:
        raise ValueError(f"setup_table: {unknown} are not fields of {type(reference).__name__}; its fields: "
                         f"{', '.join(names_all)}.")
    both = sorted(set(reasons) & set(scaled))
    if both:
        raise ValueError(f"setup_table {title!r}: {both} are in both reasons and reasons_if_differs; give each "
                         "reason once.")
    rows = []
    for name in chosen:
        a, b = getattr(reference, name), getattr(ours, name)
        same = _short(a) == _short(b)
        why = reasons.get(name, scaled.get(name))
        if not same and why is None and smoke:
            why = SMOKE_REASON
        if not same and why is None:
            raise ValueError(f"setup_table {title!r}: {name} differs ({names[0]} {_short(a)}, {names[1]} "
                             f"{_short(b)}) and reasons= gives no reason: disclose it.")
        if same and name in reasons and not smoke:
            raise ValueError(f"setup_table {title!r}: reasons names {name}, which does not differ (a reason that "
                             "holds only at some scales goes in reasons_if_differs).")
        rows.append((name, _short(a), _short(b), "same" if same else why))
    for name in unstated:
        why = reasons.get(name, scaled.get(name)) or f"the {names[0]} does not state it"
        rows.append((name, "unstated", _short(getattr(ours, name)), why))
    for setting, a, b, why in extra:
        same = _short(a) == _short(b) if not isinstance(a, str) else a == b
        if not same and not why and smoke:
            why = SMOKE_REASON
        if not same and not why:
            raise ValueError(f"setup_table {title!r}: {setting} differs and gives no reason: disclose it.")
        rows.append((setting, a if isinstance(a, str) else _short(a), b if isinstance(b, str) else _short(b),
                     "same" if same else why))
    return SetupTable(title, rows, names)


def seed_median(values, *, never: float = -1) -> float:
    """Median over seeds of a per-seed statistic (e.g. a first-crossing step). Seeds that never reach it
    (``never``, -1 by convention of ``History.first_step``) count as +inf, so the median is +inf when
    half or more of the seeds never get there."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0:
        raise ValueError("seed_median: values is empty; give one value per seed.")
    v = np.where(v == never, np.inf, v)
    return float(np.median(v))


def describe_seeds(values, resolution: float, *, never: float = -1, unit: str = "", live: bool = True) -> str:
    """``'≈ 2,400 (median of 8 seeds; middle half 2,000–2,900)'``-style text at a stated resolution:
    the median and the range of the middle half, each rounded to ``resolution``. Seeds that never reach the
    statistic are counted, not averaged in.

    ``live=True`` (default): the values come out of training runs on this machine, so the statistic and the
    spread are two marked spans (:func:`mark_trained`), not byte-compared, while the number of seeds is; the
    text keeps that shape whatever the values (a seed that crosses on one CPU and not on another changes only
    the marked spans). ``live=False`` for values read from a stored result or computed from a closed form."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0 and current_scale() == "smoke":
        return "— (no seed reached it at smoke scale)"
    if v.size == 0:
        raise ValueError("describe_seeds: values is empty; give one value per seed.")
    reached = v[v != never]
    n, k = v.size, reached.size
    u = f" {unit}" if unit else ""
    if k == 0:
        head, spread = "never", f"{k} of {n} reach it"
    else:
        med = seed_median(v, never=never)
        lo, hi = np.quantile(np.where(v == never, np.inf, v), [0.25, 0.75], method="inverted_cdf")  # data values, no interpolation with inf
        head = f"≈ {approx(med, resolution)}{u}" if math.isfinite(med) else "never (median)"
        spread = f"middle half {approx(lo, resolution)}–{approx(hi, resolution) if math.isfinite(hi) else 'never'}"
        spread += f"; {n - k} of {n} never" if k < n else ""
    if live:
        return f"{mark_trained(head)} (median of {n} seeds; {mark_trained(spread)})"
    if k == 0:
        return f"never (0 of {n} seeds)"
    return f"{head} (median of {n} seeds; {spread})"

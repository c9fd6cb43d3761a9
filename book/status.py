# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version,-jupytext.text_representation.format_version
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Reproduction status
#
# What this book reproduced, paper by paper and figure by figure, in the order of the book. Each
# chapter ends with a **Paper versus ours** section: a verdict on every figure of its paper in scope —
# ✅ *reproduced*, 🟡 *partial*, ❌ *not reproduced*, ⏳ *not run at this scale* — with the scale it
# was judged at and one line on why, and the claims behind each verdict. A verdict must follow from
# its claims: a reproduced figure rests on at least one *reproduction* claim (ours against a number
# or statement of the paper or its official code, within a tolerance) and no *deviation*; a partial
# one on both; a figure not reproduced on at least one deviation (the paper's value beside ours, with
# the evidence). *Checks* of internal consistency never count as reproductions. Every claim is
# re-computed whenever its chapter runs, so under `pytest --nbval` a deviation that disappeared, or a
# reproduction that stopped holding, fails the chapter: this page cannot go stale.
#
# **Fragile claims.** A claim on trained networks states its *margin*: the distance from our value to the
# nearest threshold of its comparison, in seed-to-seed standard errors. Below 2, another CPU (another
# floating-point path, hence another trajectory) or another draw of seeds can flip the claim; the last section
# lists those claims per chapter, and the live claims whose margin is not measured (a single run, or a
# statistic whose per-seed values the chapter does not keep). Numbers from live runs differ in their last
# digits from machine to machine: the book's tests compare the claims' outcomes, not those digits.
#
# Each chapter writes its ledger to `book/_claims/<chapter>.json`; this page reads those files.

# %%
from IPython.display import HTML

from repro.book.status import scorecard_html

HTML(scorecard_html("_claims", "_toc.yml"))

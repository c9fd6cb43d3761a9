# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: -user_expressions
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
# was judged at, its strongest evidence, one line on why, and the claims behind each verdict.
#
# **Registered claims.** What each claim compares with — the paper's number or statement (or the official
# code's), the comparison and its tolerance, and where in the source it stands — is written in the chapter's
# registry (`book/_registry/<chapter>.toml`) before the runs it judges, not in the chapter's code. Each claim
# also says what the source states: a *value* (compared two-sided), a *shape* (a direction or an ordering,
# one-sided), a *threshold* (a definition, such as Table 1's 90 %), or a *selection* (a best-of, or a subset
# we chose). A stored run seals the registered claims that will judge it when it starts (its manifest keeps a
# hash of each); a claim that its run did not seal, or whose criterion was amended later (the registry keeps the
# original and the reason), is marked † — *set after its result* — by the files, not by hand.
#
# **Verdicts follow the evidence.** A figure is *reproduced* only on a reproduction of form value or shape,
# against the paper or its official code, not †, and no *deviation* (a registered disagreement, with its
# evidence). † reproductions and threshold or selection forms support at most *partial*; a partial figure
# also covers a reproduction beside a deviation; a figure *not reproduced* rests on deviations alone. *Checks*
# of internal consistency never count. Every claim is re-computed whenever its chapter runs, so under
# `pytest --nbval` a deviation that disappeared, or a reproduction that stopped holding, fails the chapter:
# this page cannot go stale.
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

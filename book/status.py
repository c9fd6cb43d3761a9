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
# What this book reproduced, paper by paper, in the order of the book. For each paper, its **claims** come
# first: numbered C1, C2, … per chapter, quoted from the paper with their section, figure or equation, and each
# with one verdict — ✅ *reproduced*, ❌ *not reproduced*, ❔ *inconclusive*, ⏳ *not tested* — that names what it
# judged (the paper's text or figure, or the official code). The reproduction rate counts only decided claims:
# inconclusive and not-tested claims are reported apart. Each chapter ends with the same list in its **Paper
# versus ours** section.
#
# **Decision rules, registered once** (`repro.book.verdicts`). A claim lists the registered comparisons that test
# it at the paper's setting, and others that give context (another scale or setting: shown, never deciding). A
# test decides only on *confirmatory* evidence: a stored run that sealed its criterion before it started, or a
# deterministic result (a closed form, official data). Our value must lie at least two seed standard errors
# inside or outside the band the paper's stated precision sets; a closer result is *undecided*. A comparison with
# our own derivation or a criterion we constructed is a *check*; a best-of selection, and every result seen before
# its criterion was registered (trained live in a chapter, or marked † — set after its result), are shown but
# never decide. A claim is reproduced when a decided test agrees and none disagrees or is undecided; not reproduced
# when a decided test disagrees; inconclusive otherwise.
#
# **Registered comparisons.** What each comparison compares with — the paper's number or statement (or the
# official code's), the comparison and its tolerance, and where in the source it stands — is written in the
# chapter's registry (`book/_registry/<chapter>.toml`, with a stable id T01, T02, …) before the runs it judges. A
# stored run seals the comparisons that will judge it when it starts; a unit test checks each seal against git (the
# commit that registered it must precede the run) and each stored entry against its digest.
#
# **Margins.** A comparison on trained networks states its *margin*: the distance from our value to the nearest
# edge of its band, in seed-to-seed standard errors. Numbers from live runs differ in their last digits from
# machine to machine: the book's tests compare the comparisons' outcomes, not those digits.
#
# Each chapter writes its ledger to `book/_claims/<chapter>.json`; this page reads those files and the registries.

# %%
from IPython.display import HTML

from repro.book.status import scorecard_html

HTML(scorecard_html("_claims", "_toc.yml", "_registry"))

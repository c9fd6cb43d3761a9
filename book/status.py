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
# Every claim of every chapter, as the chapter last checked it. Each chapter writes its claims to
# `book/_claims/<chapter>.json` when it runs, and a failed claim stops the chapter. So this table
# can only show claims that passed, unless a chapter's stored outputs were refreshed while a claim
# failed, and nbval catches that. The comparison column says how ours is judged against the
# paper: `± x` is an absolute tolerance, `± x %` a relative one, and `≥` or `≤` a bound.

# %%
from IPython.display import HTML

from repro.status import claims_table_html

HTML(claims_table_html("_claims"))

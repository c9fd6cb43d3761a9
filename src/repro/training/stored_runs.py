"""The rows of the book's stored-runs tables: a :class:`StoredRun` is one stored run of ``book/_results`` (what it is,
the command-line options that compute it, the results-store labels of its entries), and a :class:`StoredRunTable`
is one experiment module's rows with the chapter they serve.

Each experiment module that stores runs defines ``STORED_RUN_TABLE`` beside its command line; ``repro.book.pages``
collects the tables and generates the stored-runs tables of ``book/running.md`` from them, and ``tests/test_pages.py``
checks that every stored entry is one row's and that every row's options are its module's."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StoredRun:
    """One stored run: what it is, the options that compute it (after ``--store book/_results``) and the
    results-store labels of its entries; ``config_class``, where two modules store under one label, is the
    ``__class__`` of the entries' top-level config (``""``: a config without one); ``config_fields``, where two runs of
    one module store under one label (the synthesis sweep at book and paper scale), are ``(field, value)`` pairs the
    entries' top-level config holds."""

    what: str
    options: str
    labels: tuple[str, ...]
    config_class: str | None = None
    config_fields: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class StoredRunTable:
    """One experiment module's stored runs and the chapter (a stem of ``book/_chapters.toml``) they serve."""

    chapter: str
    rows: tuple[StoredRun, ...]

"""The chapter manifest (book/_chapters.toml, repro.book.manifest): the table of contents generated from it, and
every chapter it lists has the files its stem names."""
import importlib.util

import pytest

from repro.book import manifest
from repro.book.manifest import BOOK, HALVES, ManifestError, load, pass2, stems, toc_yaml


def test_the_committed_toc_is_the_manifests():
    assert manifest.TOC.read_text() == toc_yaml(), "run `python -m repro.book.manifest toc`"


def test_every_chapter_is_listed_once_with_its_files():
    listed = stems()
    on_disk = {p.stem for p in BOOK.glob("*.py")} - {"conftest", "status"}
    assert set(listed) == on_disk and len(listed) == len(set(listed))
    for stem in listed:
        assert (BOOK / f"{stem}.ipynb").is_file() and (BOOK / "_registry" / f"{stem}.toml").is_file(), stem
        module = "baek2024_geneft" if stem.startswith("baek2024_geneft") else stem  # the GenEFT chapters share one
        assert importlib.util.find_spec(f"repro.experiments.{module}"), stem


def test_the_halves_cover_the_book_and_end_with_the_status_page():
    halves = [pass2(h) for h in HALVES]
    assert all(h[-1] == "book/status.ipynb" and len(h) > 2 for h in halves)
    assert sorted(halves[0][:-1] + halves[1][:-1]) == sorted(f"book/{s}.ipynb" for s in stems())


def test_a_bad_entry_is_refused_by_name(tmp_path):
    path = tmp_path / "_chapters.toml"
    path.write_text('[parts]\nliu2022 = "x"\n[[chapter]]\nstem = "a"\npaper = "liu2O22"\npass2 = 1\n')
    with pytest.raises(ManifestError, match="did you mean 'liu2022'"):
        load(path)
    path.write_text('[parts]\nliu2022 = "x"\n[[chapter]]\nstem = "a"\npaper = "liu2022"\npass2 = 3\n')
    with pytest.raises(ManifestError, match="pass2=3"):
        load(path)
    path.write_text('[parts]\n[[chapter]]\nstem = "a"\npaper = "liu2022"\npass2 = 1\n')
    with pytest.raises(ManifestError, match="no \\[parts\\] caption"):
        load(path)


def test_the_table_of_contents_is_valid_yaml_and_unsafe_captions_are_refused(tmp_path):
    import yaml

    from repro.book import manifest

    assert yaml.safe_load(manifest.toc_yaml())["parts"]
    bad = tmp_path / "_chapters.toml"
    bad.write_text('[parts]\npower2022 = "The phenomenon: a story"\n\n[[chapter]]\nstem = "power2022_x"\n'
                   'paper = "power2022"\npass2 = 1\n')
    import pytest

    with pytest.raises(manifest.ManifestError, match="captions"):
        manifest.load(bad)

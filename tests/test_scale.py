import pytest

from repro.core.scale import by_scale, current_scale


def test_scale_switch(monkeypatch):
    monkeypatch.delenv("REPRO_SCALE", raising=False)
    assert current_scale() == "book" and by_scale(book=1, paper=2, smoke=3) == 1
    monkeypatch.setenv("REPRO_SCALE", "paper")
    assert by_scale(book=1, paper=2, smoke=3) == 2
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    assert by_scale(book=1, paper=2, smoke=3) == 3 and by_scale(book=1, paper=2) == 1
    monkeypatch.setenv("REPRO_SCALE", "huge")
    with pytest.raises(ValueError, match="REPRO_SCALE"):
        current_scale()

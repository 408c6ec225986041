"""scripts/check_sizes.py: the ratchet on module size and line length fails when either grows. Fast: the sizes are
synthetic, apart from one measurement of the installed package.

Run: python -m pytest -q tests/test_check_sizes.py
"""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("check_sizes", Path(__file__).parent.parent / "scripts" / "check_sizes.py")
cs = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(cs)


def test_within_the_caps_passes():
    sizes = {"small": 100, **cs.OVER_TODAY}
    assert cs.problems(sizes, cs.LONG_LINES_TODAY) == []


def test_a_new_module_over_the_bar_fails():
    found = cs.problems({"new_module": cs.MAX_MODULE_LINES + 1}, 0)
    assert len(found) == 1 and "epigraph/new_module.py" in found[0]


def test_a_module_already_over_grows_and_fails(monkeypatch):
    monkeypatch.setattr(cs, "OVER_TODAY", {"big_module": 700})   # a synthetic module allowed its size today
    assert cs.problems({"big_module": 700}, 0) == [] and len(cs.problems({"big_module": 701}, 0)) == 1


def test_more_long_lines_fail():
    assert len(cs.problems({}, cs.LONG_LINES_TODAY + 1)) == 1


def test_the_package_today_is_within_the_ratchet():
    sizes, long_lines = cs.measure(Path(cs.__file__).resolve().parent.parent / "epigraph")
    assert "graph" in sizes and "_modidx" not in sizes
    assert cs.problems(sizes, long_lines) == []

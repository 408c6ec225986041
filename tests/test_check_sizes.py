"""scripts/check_sizes.py: the ratchet on module size and line length fails when either grows. Fast: the sizes are
synthetic, apart from one measurement of the installed package.

Run: python -m pytest -q tests/test_check_sizes.py
"""
import importlib.util, json
from pathlib import Path

_SCRIPT = Path(__file__).parent.parent / "scripts" / "check_sizes.py"
_spec = importlib.util.spec_from_file_location("check_sizes", _SCRIPT)
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


def test_more_long_functions_or_cells_fail():
    assert len(cs.problems({}, 0, cs.LONG_FUNCTIONS_TODAY + 1, 0)) == 1
    assert len(cs.problems({}, 0, 0, cs.LONG_CELLS_TODAY + 1)) == 1
    assert cs.problems({}, 0, cs.LONG_FUNCTIONS_TODAY, cs.LONG_CELLS_TODAY) == []


def test_only_nbdevs_all_line_is_excused(tmp_path):
    "nbdev wraps __all__ at 120 before adding its 10-character prefix; any other line over 120 counts."
    names = ", ".join(f"'name_{i:03d}'" for i in range(60))
    (tmp_path / "m.py").write_text(f"__all__ = [{names[:118]}\n" + "x = '" + "y" * 120 + "'\n")   # synthetic module
    assert cs.measure(tmp_path)[1] == 1
    assert cs.nbdev_all_line("__all__ = [" + "a" * 119) and not cs.nbdev_all_line("__all__ = [" + "a" * 130)
    assert not cs.nbdev_all_line("y = [" + "a" * 125)


def test_long_functions_and_cells_are_found(tmp_path):
    (tmp_path / "m.py").write_text("def f():\n" + "    x = 1\n" * 60 + "def g():\n    pass\n")   # synthetic module
    assert cs.long_functions(tmp_path) == [("m", "f", 61)]
    cell = lambda n: {"cell_type": "code", "source": ["#| export\n"] + ["x = 1\n"] * n}
    cells = [cell(41), cell(40), {"cell_type": "markdown", "source": []}]
    (tmp_path / "n.ipynb").write_text(json.dumps({"cells": cells}))
    assert cs.long_cells(tmp_path) == [("n", 41)]


def test_wider_share_or_more_semicolon_lines_fail():
    assert cs.problems({}, 0, wide_share=cs.WIDE_SHARE_TODAY, n_semicolon=cs.SEMICOLON_LINES_TODAY) == []
    assert len(cs.problems({}, 0, wide_share=cs.WIDE_SHARE_TODAY + 0.002)) == 1
    assert len(cs.problems({}, 0, n_semicolon=cs.SEMICOLON_LINES_TODAY + 1)) == 1


def test_semicolons_in_strings_and_comments_are_not_joins(tmp_path):
    src = "a = 1; b = 2\ns = 'x; y'  # c; d\nif a: b = 3; c = 4\n" + "z = '" + "w" * 100 + "'\n"   # synthetic
    assert cs.semicolon_lines(src) == 2
    (tmp_path / "m.py").write_text(src)
    share, semi = cs.house_counts(tmp_path)
    assert semi == 2 and share == 1 / 4


def test_the_package_today_is_within_the_ratchet():
    root = Path(cs.__file__).resolve().parent.parent
    sizes, long_lines = cs.measure(root / "epigraph")
    assert "graph" in sizes and "_modidx" not in sizes
    funcs, cells = cs.long_functions(root / "epigraph"), cs.long_cells(root / "nbs")
    assert cs.problems(sizes, long_lines, len(funcs), len(cells), *cs.house_counts(root / "epigraph")) == []

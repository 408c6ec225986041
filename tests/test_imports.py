"""The package's import graph: no circle, and no import up the pipeline's stages (`config.STAGES`), counting the
imports written inside functions (issue 46).

A circle hidden by an import inside a function still ties two modules together: neither can be read, tested or
moved without the other. grimp reads every import statement of the package (top-level or not) without importing
it; networkx finds the circles. Each check is also run on a throwaway package built to break it, so each is shown
to catch what it looks for.
"""
import sys
import grimp
import networkx as nx
from epigraph.config import stage_of


def imports(package: str) -> list[tuple[str, str]]:
    "Every (importer, imported) pair of modules of `package`, imports inside functions included."
    graph = grimp.build_graph(package, cache_dir=None)
    return [(m, d) for m in sorted(graph.modules) for d in sorted(graph.find_modules_directly_imported_by(m))
            if package not in (m, d)]


def circles(package: str) -> list[list[str]]:
    "Every simple circle among the modules of `package`."
    return [sorted(c) for c in nx.simple_cycles(nx.DiGraph(imports(package)))]


def upward(package: str, stage_of) -> list[tuple[str, str]]:
    "The imports of `package` from a module to one of a later stage (`stage_of(module)` gives its position)."
    return [(m, d) for m, d in imports(package) if stage_of(d) > stage_of(m)]


def test_epigraph_has_no_import_circle():
    assert circles("epigraph") == []


def test_epigraph_imports_run_down_the_stages():
    assert upward("epigraph", stage_of) == []


def _package(tmp_path, monkeypatch, files: dict[str, str]) -> str:
    "A made-up package of `files` (synthetic, for these tests only), importable from `tmp_path`."
    pkg = tmp_path / "made_up_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in files.items(): (pkg / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    return pkg.name


def test_a_circle_hidden_inside_a_function_is_found(tmp_path, monkeypatch):
    name = _package(tmp_path, monkeypatch, {
        "front": "def plug():\n    from made_up_pkg import plugin\n    return plugin.NAME\n",
        "plugin": "from made_up_pkg.front import plug\nNAME = 'plugin'\n", "alone": "import json\n"})
    assert circles(name) == [["made_up_pkg.front", "made_up_pkg.plugin"]]
    assert name not in sys.modules   # read, never imported


def test_an_import_up_the_stages_is_found(tmp_path, monkeypatch):
    name = _package(tmp_path, monkeypatch, {
        "low": "def late():\n    from made_up_pkg.high import X\n    return X\n", "high": "X = 1\n",
        "mid": "from made_up_pkg import low\n"})
    order = {"made_up_pkg.low": 0, "made_up_pkg.mid": 1, "made_up_pkg.high": 2}
    assert upward(name, order.__getitem__) == [("made_up_pkg.low", "made_up_pkg.high")]

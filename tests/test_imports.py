"""The package's import graph: no circle, and no import up the pipeline's stages (`config.STAGES`), counting the
imports written inside functions (issue 46); and every import inside a function says why it is there.

A circle hidden by an import inside a function still ties two modules together: neither can be read, tested or
moved without the other. grimp reads every import statement of the package (top-level or not) without importing
it; networkx finds the circles. Each check is also run on a throwaway package built to break it, so each is shown
to catch what it looks for.

The house bar of issue 46 allows an import inside a function only where it saves start-up time, with the reason in
a comment: on the import's line, on a comment line directly above it, or above the block of import lines it is in.
"""
import ast, io, sys, tokenize
from pathlib import Path
import grimp
import networkx as nx
import epigraph
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


def inner_imports(source: str) -> list[ast.stmt]:
    "The import statements inside the functions (and methods) of a module's `source`, in line order."
    tree = ast.parse(source)
    found = {id(n): n for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
    return sorted(found.values(), key=lambda n: n.lineno)


def unexplained_imports(source: str) -> list[int]:
    """The lines of the imports inside functions of `source` with no comment on the import's own lines, and no
    comment line directly above it or above the block of consecutive import lines it belongs to."""
    toks = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    trailing, alone = {t.start[0] for t in toks}, {t.start[0] for t in toks if t.line.lstrip().startswith("#")}
    starts = {n.end_lineno: n.lineno for n in ast.walk(ast.parse(source))
              if isinstance(n, (ast.Import, ast.ImportFrom))}
    out = []
    for n in inner_imports(source):
        top = n.lineno
        while top - 1 in starts: top = starts[top - 1]   # up the block of import lines
        if not (trailing & set(range(n.lineno, n.end_lineno + 1)) or alone & {n.lineno - 1, top - 1}):
            out.append(n.lineno)
    return out


def modules(package_dir: Path) -> dict[str, str]:
    "The text of each module of a package folder, the generated nbdev index left out."
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(package_dir.glob("*.py")) if p.name != "_modidx.py"}


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


def test_every_import_inside_a_function_of_epigraph_says_why():
    texts = modules(Path(epigraph.__file__).parent)
    assert sum(len(inner_imports(t)) for t in texts.values()) > 0   # the check has imports to look at
    assert {name: lines for name, t in texts.items() if (lines := unexplained_imports(t))} == {}


def test_an_import_inside_a_function_without_a_reason_is_found():
    "A made-up module (synthetic, for this test only): two of its five inner imports give no reason."
    text = ("import json\n"   # at the top: needs no reason
            "def a():\n    import csv   # loaded on first use: slow\n    return csv\n"
            "def b():\n    # loaded on first use: both slow\n    import re\n    from os import path\n"
            "    return re, path\n"
            "def c():\n    x = 1   # a comment after code is no reason for the import below\n"
            "    import glob\n    return glob, x\n"
            "class D:\n    def e(self):\n        from made_up_pkg import (one,\n"
            "                                  two)\n        return one, two\n")
    assert len(inner_imports(text)) == 5
    assert unexplained_imports(text) == [12, 16]

"""The run cache, the graph build and the served state of `epigraph ask` are keyed by the source of every module
their entry module imports, read from the import graph (`epigraph.config.code_version_of`), not by hand-kept lists
(issue 46). Editing a reader in a temporary copy of the package changes the run-cache key; editing a module
nothing imports does not. Fast: no graph is built.

Run: python -m pytest -q tests/test_code_versions.py
"""
import json, shutil

import pytest

from epigraph import ask, build, config, runs, store
from epigraph.bench import Item
from epigraph.config import code_version_of, imported_modules

SPLIT_OUT = {"readers", "manifest", "pprpcst", "baselines", "question_words"}   # missed by the old runs list
GRAPH_MODULES = {"schema", "sources", "pgdump", "curated", "guidance", "ontologies", "pmids", "lexicon", "ner",
                 "normalise", "relations", "cid", "adapters", "treatment_sources", "graph", "store", "ages",
                 "temporal", "build"}                                            # the old build list
SERVED_MODULES = {"retrieval", "question", "answer", "focused", "normalise", "ner", "lexicon", "ask"}   # the old ask list


def _names(entry): return {m.removeprefix("epigraph.") for m in imported_modules(entry)}


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    "A copy of the installed package that the code versions read instead of it; the run-cache key is recomputed."
    copy = tmp_path/"epigraph"
    shutil.copytree(config._package_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(config, "_package_dir", lambda: copy)
    monkeypatch.setenv("EPIGRAPH_CACHE_DIR", str(tmp_path/"cache"))   # the remembered imports start empty
    runs.code_version.cache_clear()
    yield copy
    runs.code_version.cache_clear()


def _edit(path):
    with open(path, "a", encoding="utf-8") as f: f.write("\n# edited by tests/test_code_versions.py\n")


def _run_key():
    item = Item("t1_pubmedqa", "900000001", "Synthetic question?", [], [], "yes", None, [], {})
    return runs._run_key(item, "ppr_pcst", "offline", {})


def test_the_import_graph_covers_the_old_lists_and_what_they_missed():
    assert SPLIT_OUT <= _names("epigraph.runs")
    assert GRAPH_MODULES <= _names("epigraph.build")
    assert SERVED_MODULES <= _names("epigraph.ask")
    assert {"cli", "book", "eeg"}.isdisjoint(_names("epigraph.build"))     # not everything: only what it imports


def test_editing_a_reader_changes_the_run_cache_key(package_copy):
    key, version = _run_key(), runs.code_version()
    assert version == code_version_of("epigraph.runs", n=12)
    _edit(package_copy/"readers.py")
    runs.code_version.cache_clear()
    assert runs.code_version() != version and _run_key() != key


def test_editing_a_module_nothing_imports_keeps_the_key(package_copy):
    assert "viewer" not in _names("epigraph.runs")
    key = _run_key()
    _edit(package_copy/"viewer.py")
    runs.code_version.cache_clear()
    assert _run_key() == key


def test_the_graph_and_the_served_state_follow_the_import_graph(package_copy, tmp_path):
    folder = tmp_path/"kg"; folder.mkdir()
    tables = {t: {"file_sha256": "0" * 64} for t in store.KG_TABLES}                # synthetic: no tables saved
    (folder/"manifest.json").write_text(json.dumps({"tables": tables}))
    graph, served = build.graph_code_version(), ask.served_key(folder)
    _edit(package_copy/"relations.py")          # reached through `graph`, which `build` imports inside a function
    assert build.graph_code_version() != graph and ask.served_key(folder) != served


def test_remembered_imports_give_the_same_version(package_copy):
    first = code_version_of("epigraph.ask")          # parses, and remembers in the (temporary) cache folder
    assert config._imports_file().is_file()
    config._names_imported.cache_clear()
    assert code_version_of("epigraph.ask") == first  # read back, not parsed

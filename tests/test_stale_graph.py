"""`epigraph.build.built_kg` rebuilds a saved graph only when the code that built it differs from the
installed code (or nothing is saved), and concurrent callers build it once. Fast: the build and the loader
are stand-ins and the folders are synthetic; no real graph is built.

Run: python -m pytest -q tests/test_stale_graph.py
"""
import json, logging, threading, time
import pytest

from epigraph import build as bd, store
from epigraph.config import code_version_of, imported_modules


@pytest.fixture
def stand_ins(monkeypatch):
    "Installed code version 'aaaa'; `_build` records its calls and saves a manifest with the current version."
    calls = []
    def fake_build(out_dir, progress):
        calls.append(out_dir); time.sleep(0.2)            # long enough for a concurrent caller to queue on the lock
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir/"manifest.json").write_text(json.dumps({"tables": {}, "code_version": bd.graph_code_version()}))
        return "built", {}
    monkeypatch.setattr(bd, "graph_code_version", lambda: "aaaa")
    monkeypatch.setattr(bd, "_build", fake_build)
    monkeypatch.setattr(store, "load_kg", lambda folder, verify=True: "loaded")
    return calls


def _saved(folder, **manifest):
    folder.mkdir(parents=True, exist_ok=True)
    (folder/"manifest.json").write_text(json.dumps({"tables": {}, **manifest}))
    return folder


def test_matching_code_version_loads_without_building(stand_ins, tmp_path, caplog):
    folder = _saved(tmp_path/"kg", code_version="aaaa")
    with caplog.at_level(logging.WARNING, logger="epigraph"):
        assert bd.built_kg(folder) == "loaded"
    assert stand_ins == [] and not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("manifest, why", [({"code_version": "bbbb"}, "built by other code (code version bbbb, installed aaaa)"),
                                           ({}, "records no code version")])
def test_other_or_missing_code_version_rebuilds_with_a_warning(stand_ins, tmp_path, caplog, manifest, why):
    folder = _saved(tmp_path/"kg", **manifest)
    with caplog.at_level(logging.WARNING, logger="epigraph"):
        assert bd.built_kg(folder) == "built"
    assert stand_ins == [folder]
    assert any(why in r.getMessage() and str(folder) in r.getMessage() for r in caplog.records)
    assert json.loads((folder/"manifest.json").read_text())["code_version"] == "aaaa"   # current again: the next call reads
    assert bd.built_kg(folder) == "loaded" and stand_ins == [folder]


def test_no_saved_graph_builds(stand_ins, tmp_path):
    assert bd.stale_reason(tmp_path/"kg").endswith("holds no saved graph")
    assert bd.built_kg(tmp_path/"kg") == "built" and stand_ins == [tmp_path/"kg"]


def test_rebuild_requested_builds_a_current_graph(stand_ins, tmp_path):
    folder = _saved(tmp_path/"kg", code_version="aaaa")
    assert bd.built_kg(folder, rebuild=True) == "built" and stand_ins == [folder]


def test_concurrent_callers_of_a_stale_graph_build_it_once(stand_ins, tmp_path):
    folder = _saved(tmp_path/"kg", code_version="old")
    got = []
    threads = [threading.Thread(target=lambda: got.append(bd.built_kg(folder))) for _ in range(3)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert stand_ins == [folder] and sorted(got) == ["built", "loaded", "loaded"]


def test_code_version_covers_the_graph_modules(monkeypatch):
    v = bd.graph_code_version()
    assert len(v) == 16 and int(v, 16) >= 0 and v == bd.graph_code_version()
    assert {f"epigraph.{m}" for m in ("adapters", "graph", "store", "ages", "temporal", "build", "relations", "cid",
            "normalise", "ner", "lexicon", "sources", "pgdump", "curated", "guidance", "ontologies", "mondo")} <= set(
        imported_modules("epigraph.build"))         # read from the import graph: a new module (mondo) needs no list
    monkeypatch.setattr(bd, "code_version_of", lambda *e: code_version_of("epigraph.store"))
    assert bd.graph_code_version() != v              # the modules' source is part of the hash

"""`epigraph ingest`, `epigraph remove` and `epigraph ask --graph` from a shell, on a small synthetic corpus.

Every document here is synthetic: PubMed records carry sentinel PMIDs (>= 900000000) and the JSONL records belong to a
made-up corpus `mynotes`. The kill test interrupts real ingests at random moments and checks that the folder always
holds a whole graph: the one before or the one after."""
import json, os, random, signal, subprocess, sys, time
from pathlib import Path
import pytest

SEED = 20261201

RECORDS = [  # (pmid, title, abstract, date)
    (900000101, "Carbamazepine-induced hyponatremia in focal epilepsy.",
     "Hyponatremia was induced by carbamazepine in adults treated for focal epilepsy.", "2017"),
    (900000102, "Phenytoin and gingival hyperplasia.",
     "Phenytoin caused gingival hyperplasia in a child treated for seizures.", "2019"),
    (900000103, "Valproate hepatotoxicity in Dravet syndrome.",
     "Valproic acid caused hepatotoxicity in a child with Dravet syndrome.", "2021"),
]


def _epigraph(*args, **kw):
    return subprocess.run(["epigraph", *map(str, args)], capture_output=True, text=True, timeout=600, **kw)


def _pubmed_xml(path: Path, records) -> Path:
    "A PubmedArticleSet with one PubmedArticle per record (synthetic)."
    arts = "".join(
        f"<PubmedArticle><MedlineCitation><PMID>{p}</PMID><Article><Journal><JournalIssue><PubDate><Year>{d}</Year>"
        f"</PubDate></JournalIssue><Title>Synthetic</Title></Journal><ArticleTitle>{t}</ArticleTitle><Abstract>"
        f"<AbstractText>{a}</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n"
        for p, t, a, d in records)
    path.write_text(f'<?xml version="1.0"?>\n<PubmedArticleSet>\n{arts}</PubmedArticleSet>\n', encoding="utf-8")
    return path


def _jsonl(path: Path) -> Path:
    rows = [dict(id="n1", title="Lamotrigine rash.", text="Lamotrigine induced a rash in an adolescent with epilepsy.",
                 date="2020-07"),
            dict(id="n2", title="", text="", date="2020"),                       # empty: set aside
            dict(id="n3", title="Topiramate and kidney stones.", text="Topiramate caused nephrolithiasis.", date="2022-13")]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n{not json\n", encoding="utf-8")
    return path


def test_ingest_ask_remove_from_a_shell(tmp_path):
    xml, notes, g = _pubmed_xml(tmp_path / "pubmed.xml", RECORDS), _jsonl(tmp_path / "mynotes.jsonl"), tmp_path / "g"
    r = _epigraph("ingest", xml, notes, "--graph", g, "--base", "none", "--workers", "0", "--quiet")
    assert r.returncode == 0, r.stderr
    # 3 + 4 records read: n2 empty, n3's month 13 and the line that is not JSON are set aside, each on one stderr line
    assert "read 7 = new 4 + updated 0 + unchanged 0 + rejected 3 + duplicates 0" in r.stdout, r.stdout
    err = [l for l in r.stderr.splitlines() if "set aside" in l]
    assert len(err) == 3 and all("mynotes.jsonl line" in l for l in err), r.stderr
    assert "Traceback" not in r.stderr
    a = _epigraph("ask", "What adverse effects does carbamazepine cause?", "--graph", g, "--json")
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert "PMID:900000101" in out["cited"], out
    a = _epigraph("ask", "Which drugs cause a rash?", "--graph", g, "--json")
    assert a.returncode == 0 and "mynotes:n1" in json.loads(a.stdout)["cited"], a.stdout
    r = _epigraph("remove", "--graph", g, "--docs", "900000101", "mynotes:n1", "mynotes:nothing")
    assert r.returncode == 0 and "removed 2 documents (1 ids not in the graph)" in r.stdout, r.stdout + r.stderr
    from epigraph.store import load_kg
    kg = load_kg(g)
    assert set(kg.evidence.doc_id) == {"PMID:900000102", "PMID:900000103"}
    assert set(kg.triplets.triplet_id) == set(kg.evidence.triplet_id)


def _medline(path: Path, records) -> Path:
    "The records as PubMed's website saves them ('PubMed' format): a blank line first, one block per record."
    blocks = [f"PMID- {p}\nDP  - {d} Mar 2\nTI  - {t}\nAB  - {a[:40]}\n      {a[40:]}" for p, t, a, d in records]
    path.write_text("\n" + "\n\n".join(blocks) + "\n", encoding="utf-8")
    return path


def test_a_pubmed_website_export_then_an_update_file_with_deletions(tmp_path):
    "A search saved from PubMed's website is ingested and cited; an update file's DeleteCitation takes a paper out."
    g = tmp_path / "g"
    r = _epigraph("ingest", _medline(tmp_path / "pubmed-search-set.txt", RECORDS), "--graph", g, "--base", "none",
                  "--workers", "0", "--quiet")
    assert r.returncode == 0 and "read 3 = new 3" in r.stdout, r.stdout + r.stderr
    from epigraph.ingest import saved_table
    assert saved_table(g, "documents").date.tolist() == ["2017-03-02", "2019-03-02", "2021-03-02"]
    a = _epigraph("ask", "What adverse effects does carbamazepine cause?", "--graph", g, "--json")
    assert a.returncode == 0 and "PMID:900000101" in json.loads(a.stdout)["cited"], a.stdout + a.stderr
    update = _pubmed_xml(tmp_path / "update.xml", RECORDS[1:2])     # a revised record (its date), then a deletion
    update.write_text(update.read_text().replace("</PubmedArticleSet>", "<DeleteCitation><PMID Version=\"1\">"
                                                 "900000101</PMID></DeleteCitation>\n</PubmedArticleSet>"))
    r = _epigraph("ingest", update, "--graph", g, "--workers", "0", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "read 2 = new 0 + updated 1" in r.stdout and "PubMed deletions 1" in r.stdout, r.stdout
    assert "removed 1 documents (0 ids not in the graph)" in r.stdout, r.stdout
    a = _epigraph("ask", "What adverse effects does carbamazepine cause?", "--graph", g, "--json")
    assert a.returncode == 0 and "PMID:900000101" not in json.loads(a.stdout)["cited"], a.stdout


def test_bad_input_gets_one_line(tmp_path):
    r = _epigraph("ingest", tmp_path / "missing.xml", "--graph", tmp_path / "g", "--base", "none")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "missing.xml" in r.stderr, r.stderr
    assert not (tmp_path / "g").exists()
    built = tmp_path / "built"; built.mkdir(); (built / "manifest.json").write_text(json.dumps(dict(tables={})))
    r = _epigraph("remove", "--graph", tmp_path / "nothing", "--docs", "1")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "holds no ingested graph" in r.stderr, r.stderr


_INGESTER = """
import sys
from epigraph.ingest import ingest, IngestParams
ingest(sys.argv[1:-1], sys.argv[-1], params=IngestParams(workers=0, progress=False))
"""


def _docs(folder):
    from epigraph.ingest import saved_table
    from epigraph.store import load_kg
    kg = load_kg(folder)                                   # verifies every table against the manifest's hashes
    return frozenset(saved_table(folder, "documents").doc_id), len(kg.evidence)


def test_a_killed_ingest_leaves_a_whole_graph(tmp_path):
    rng = random.Random(SEED)
    g = tmp_path / "g"
    first = _pubmed_xml(tmp_path / "a.xml", RECORDS[:1])
    assert _epigraph("ingest", first, "--graph", g, "--base", "none", "--workers", "0", "--quiet").returncode == 0
    seen = {_docs(g)}
    for k, rec in enumerate(RECORDS[1:2], 1):                 # one more record: each run starts a process (seconds)
        more = _pubmed_xml(tmp_path / f"b{k}.xml", [rec])
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-c", _INGESTER, first, more, g], stderr=subprocess.PIPE, text=True)
        assert p.wait(timeout=600) == 0, p.stderr.read()
        took = time.perf_counter() - t0
        after = _docs(g); seen.add(after)
        remove = subprocess.run(["epigraph", "remove", "--graph", g, "--docs", str(rec[0])], capture_output=True)
        assert remove.returncode == 0
        for _ in range(3):                                   # killed at a random moment of the same ingest
            before = _docs(g)
            p = subprocess.Popen([sys.executable, "-c", _INGESTER, first, more, g], stderr=subprocess.PIPE)
            time.sleep(rng.uniform(0.2 * took, 1.1 * took))
            p.send_signal(signal.SIGKILL); p.communicate(timeout=60)
            assert _docs(g) in {before, after}
            if _docs(g) == after:
                subprocess.run(["epigraph", "remove", "--graph", g, "--docs", str(rec[0])], capture_output=True, check=True)
        p = subprocess.Popen([sys.executable, "-c", _INGESTER, first, more, g]); assert p.wait(timeout=600) == 0
        assert _docs(g) == after


def test_ingest_onto_the_registry_graph_and_back(tmp_path):
    "--base default: the corpus adds to the built graph; removing every ingested document gives the built graph back."
    from epigraph.store import load_kg, read_manifest
    from epigraph.build import built_kg
    from epigraph.config import get_settings
    base = built_kg()
    xml, g = _pubmed_xml(tmp_path / "pubmed.xml", RECORDS), tmp_path / "g"
    r = _epigraph("ingest", xml, "--graph", g, "--base", "default", "--workers", "0", "--quiet")
    assert r.returncode == 0, r.stderr
    kg = load_kg(g)
    assert set(base.evidence.evidence_id) < set(kg.evidence.evidence_id)           # the registry's evidence is all there
    new = kg.evidence[kg.evidence.doc_id.isin({f"PMID:{p}" for p, *_ in RECORDS})]
    assert len(new) and set(new.source) == {"ingest:pubmed"}
    cbz = base.entities[base.entities.name.str.lower() == "carbamazepine"].entity_id.iloc[0]
    assert cbz in set(kg.triplets.set_index("triplet_id").loc[new.triplet_id, "head"])   # joins the registry's node
    r = _epigraph("remove", "--graph", g, "--docs", *[str(p) for p, *_ in RECORDS])
    assert r.returncode == 0, r.stderr
    mine, built = read_manifest(g)["tables"], read_manifest(get_settings().build_dir / "kg")["tables"]
    assert {t: v["rows_sha256"] for t, v in mine.items()} == {t: v["rows_sha256"] for t, v in built.items()}


def test_ask_with_a_graph_folder_that_holds_none(tmp_path):
    r = _epigraph("ask", "Can carbamazepine cause hyponatremia?", "--graph", tmp_path / "typo")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "no saved graph there" in r.stderr, r.stderr
    assert not (tmp_path / "typo").exists()                          # nothing built in its place


def test_kept_row_hashes_are_the_rows_hashes(tmp_path):
    "An add and a removal hash only new and redone rows (`keep_hashes`); every stored hash must still be its row's."
    from epigraph import graph
    from epigraph.ingest import ingest, remove, IngestParams
    from epigraph.store import load_kg
    g, params = tmp_path / "g", IngestParams(workers=0, progress=False)
    ingest([_pubmed_xml(tmp_path / "a.xml", RECORDS[:2])], g, base="none", params=params)
    steps = [lambda: ingest([_pubmed_xml(tmp_path / "b.xml", RECORDS[2:])], g, params=params),
             lambda: ingest([_jsonl(tmp_path / "mynotes.jsonl")], g, params=params),
             lambda: remove(g, ["PMID:900000101"])]
    for step in steps:
        before = load_kg(g)
        step()
        kg = load_kg(g)
        assert len(kg.evidence) != len(before.evidence)           # each step changed the graph
        kept = set(before.evidence.content_hash) & set(kg.evidence.content_hash)
        assert kept, "no evidence row was carried over"
        for name in graph.KG_TABLES:
            df = getattr(kg, name)
            assert list(df.content_hash) == graph.row_hashes(df), name

"""A graph folder passed from person to person (issue 45): nothing in it runs code, asking never writes to it, a graph
a killed swap left aside is read, and a save never deletes a file the graph does not own.

Every document is synthetic (sentinel PMIDs >= 900000000). One small graph (`--base none`) is ingested once and copied
for each test.

Run: python -m pytest -q tests/test_graph_folders.py"""
import hashlib, importlib, json, os, pickle, shutil, subprocess, sys
from pathlib import Path
import pytest

RECORDS = [(900000201, "Carbamazepine-induced hyponatremia in focal epilepsy.",
            "Hyponatremia was induced by carbamazepine in adults treated for focal epilepsy.", "2017"),
           (900000202, "Phenytoin and gingival hyperplasia.",
            "Phenytoin caused gingival hyperplasia in a child treated for seizures.", "2019")]
QUESTION = "What adverse effects does carbamazepine cause?"


def _epigraph(*args, **kw):
    return subprocess.run(["epigraph", *map(str, args)], capture_output=True, text=True, timeout=600, **kw)


def _pubmed_xml(path: Path, records) -> Path:
    arts = "".join(
        f"<PubmedArticle><MedlineCitation><PMID>{p}</PMID><Article><Journal><JournalIssue><PubDate><Year>{d}</Year>"
        f"</PubDate></JournalIssue><Title>Synthetic</Title></Journal><ArticleTitle>{t}</ArticleTitle><Abstract>"
        f"<AbstractText>{a}</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n"
        for p, t, a, d in records)
    path.write_text(f'<?xml version="1.0"?>\n<PubmedArticleSet>\n{arts}</PubmedArticleSet>\n', encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def ingested(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("ingested")
    r = _epigraph("ingest", _pubmed_xml(d / "a.xml", RECORDS[:1]), "--graph", d / "g", "--base", "none",
                  "--workers", "0", "--quiet")
    assert r.returncode == 0, r.stderr
    return d / "g"


@pytest.fixture
def graph(ingested, tmp_path) -> Path:
    "A copy of the ingested graph (mtimes kept) in this test's own folder."
    return Path(shutil.copytree(ingested, tmp_path / "g"))


def _listing(folder: Path) -> dict:
    "Every path under `folder` with its size, mtime and content hash."
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns,
                                         hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def _asks_and_cites(folder: Path) -> None:
    a = _epigraph("ask", QUESTION, "--graph", folder, "--json")
    assert a.returncode == 0, a.stderr
    assert "PMID:900000201" in json.loads(a.stdout)["cited"], a.stdout


class _Plants:
    "Unpickled, creates the folder `marker`: what a crafted file in a shared graph folder could do."
    def __init__(self, marker): self.marker = marker
    def __reduce__(self): return (os.makedirs, (self.marker,))


def _key_beside_the_graph(folder: Path) -> str:
    "The name the served copy had inside the graph folder: a hash anyone can compute from the folder and the code."
    h = hashlib.sha256((folder / "manifest.json").read_bytes())
    for m in ("retrieval", "question", "answer", "focused", "normalise", "ner", "lexicon", "ask"):
        h.update(Path(importlib.import_module(f"epigraph.{m}").__file__).read_bytes())
    h.update(sys.version.encode())
    return h.hexdigest()[:16]


def test_a_pickle_in_a_graph_folder_is_never_loaded(graph, tmp_path):
    "Issue 45 #1: a crafted served-*.pkl in a shared graph folder must not run when the folder is asked."
    marker = tmp_path / "code-ran"
    crafted = pickle.dumps(_Plants(str(marker)))
    from epigraph.ask import served_key
    for key in (_key_beside_the_graph(graph), served_key(graph), served_key(graph)[:16], "0" * 16):
        (graph / f"served-{key}.pkl").write_bytes(crafted)
    _asks_and_cites(graph)
    assert not marker.exists(), "a pickle from the graph folder was loaded"
    _asks_and_cites(graph)                                   # the second call (served state from the cache) too
    assert not marker.exists(), "a pickle from the graph folder was loaded"


def test_asking_writes_nothing_into_the_graph_folder(graph):
    "Issue 45 #8: asking needs no write access to the graph; no file in it is created or changed (root ignores chmod)."
    before = _listing(graph)
    os.chmod(graph, 0o555)
    try:
        _asks_and_cites(graph)                              # the first call builds the served state
        _asks_and_cites(graph)                              # the second loads it
    finally: os.chmod(graph, 0o755)
    assert _listing(graph) == before


def test_ask_reads_a_graph_a_killed_swap_left_aside(graph):
    "Issue 45 #7: `.g.old` present and `g` absent (killed between the renames): ask reads the graph set aside."
    aside = graph.parent / f".{graph.name}.old"
    os.rename(graph, aside)
    before = _listing(aside)
    _asks_and_cites(graph)
    assert not graph.exists() and _listing(aside) == before     # read, not moved or changed


def test_ingest_refuses_a_folder_holding_a_users_file(graph, tmp_path):
    "Issue 45 #9: a save replaces the folder whole; a file the graph does not own is named, and kept."
    (graph / "my notes.txt").write_text("synthetic: the user's own file")
    before = _listing(graph)
    more = _pubmed_xml(tmp_path / "b.xml", RECORDS[1:])
    for cmd in (["ingest", more, "--graph", graph, "--workers", "0", "--quiet"],
                ["remove", "--graph", graph, "--docs", "900000201"]):
        r = _epigraph(*cmd)
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert "my notes.txt" in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert _listing(graph) == before
    (graph / "my notes.txt").unlink()
    r = _epigraph("ingest", more, "--graph", graph, "--workers", "0", "--quiet")
    assert r.returncode == 0 and "new 1" in r.stdout, r.stdout + r.stderr


def test_ingest_into_the_current_folder_is_refused_for_what_it_is(tmp_path):
    "Issue 45 #18: `--graph .` in an empty folder was said to hold other files (the tool's own lock)."
    here = tmp_path / "here"; here.mkdir()
    xml = _pubmed_xml(tmp_path / "a.xml", RECORDS[:1])
    r = _epigraph("ingest", xml, "--graph", ".", "--base", "none", "--workers", "0", "--quiet", cwd=here)
    assert "holds other files" not in r.stderr, r.stderr
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "current folder" in r.stderr, r.stderr
    assert list(here.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["a.xml", "here"]

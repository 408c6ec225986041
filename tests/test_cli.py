"The `epigraph` command line: help, the registry, and one-line errors (subprocesses, as a user runs it)."
import os, subprocess, sys
from pathlib import Path

def run(*args, env=None, timeout=120):
    e = {**os.environ, **(env or {})}
    return subprocess.run(["epigraph", *args], capture_output=True, text=True, env=e, timeout=timeout)

def test_help_lists_the_commands():
    r = run("--help")
    assert r.returncode == 0
    for cmd in ("build", "reproduce", "site", "sources", "fetch", "pubmed", "extract", "readme", "ask"):
        assert cmd in r.stdout

def test_sources_lists_every_registered_source():
    from epigraph.config import SOURCES, PACKAGE_SOURCES
    r = run("sources")
    assert r.returncode == 0
    for name in [*SOURCES, *PACKAGE_SOURCES]: assert name in r.stdout

def test_fetch_prints_a_verified_path():
    r = run("fetch", "cpic-data")
    assert r.returncode == 0 and r.stdout.strip().endswith("V2__initial_data.sql")
    assert Path(r.stdout.strip()).exists()

def test_wrong_checksum_is_one_line_naming_the_source(tmp_path):
    (tmp_path/"mirror/pubmedqa").mkdir(parents=True)
    (tmp_path/"mirror/pubmedqa/ori_pqal.json").write_text('{"900000001": "synthetic, not the real file"}')
    r = run("fetch", "pubmedqa", env=dict(EPIGRAPH_DATA_MIRROR=str(tmp_path/"mirror"),
                                          EPIGRAPH_DATA_DIR=str(tmp_path/"data"), EPIGRAPH_OFFLINE="1"))
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "source 'pubmedqa'" in r.stderr and "SHA-256" in r.stderr

def test_missing_mirror_file_offline_is_one_line(tmp_path):
    (tmp_path/"mirror").mkdir()
    r = run("fetch", "epio", env=dict(EPIGRAPH_DATA_MIRROR=str(tmp_path/"mirror"),
                                      EPIGRAPH_DATA_DIR=str(tmp_path/"data"), EPIGRAPH_OFFLINE="1"))
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "source 'epio'" in r.stderr

def test_unreachable_url_is_one_line(tmp_path):
    # no mirror file and network allowed: the download from the public URL fails here (no internet in CI)
    # or, where there is internet, would succeed with a verified hash; point it at a closed local port instead
    from epigraph.config import Source, SourceError, _download
    src = Source("broken-synthetic", "x/y.txt", "http://127.0.0.1:9/none.txt", "0" * 64, "-", "-")
    try:
        _download(src, tmp_path/"y.txt", timeout=3)
        raise AssertionError("download from a closed port succeeded")
    except SourceError as e:
        assert "source 'broken-synthetic'" in str(e) and "\n" not in str(e)

def test_debug_shows_the_traceback():
    r = run("--debug", "fetch", "no-such-source")
    assert r.returncode == 1 and "Traceback" in r.stderr

def test_reproduce_unknown_chapter_is_an_error():
    r = run("reproduce", "99_no_such_chapter", "--quiet")
    assert r.returncode == 1 and "no chapter matches" in r.stderr

def test_pubmed_command_against_a_local_eutils_server(tmp_path):
    "`epigraph pubmed` end to end, against a local stand-in serving real BC5CDR development abstracts."
    from epigraph.pubmed import LocalEutils
    from epigraph.sources import load_bc5cdr
    from epigraph.pubmed_xml import read_pubmed_xml
    docs = load_bc5cdr("dev")["documents"]
    expected = {int(p) for p, t in zip(docs.pmid, docs.title) if "seizures" in t.lower().replace(".", " ").split()}
    with LocalEutils(docs) as server:
        r = run("pubmed", "seizures", "--out", str(tmp_path/"q"), "--base-url", server.base_url, "--batch-size", "5", "--quiet",
                env={"NCBI_API_KEY": "synthetic-key-never-written"})
    assert r.returncode == 0, r.stderr
    got = set()
    for f in sorted((tmp_path/"q").glob("batch_*.xml")): got |= set(read_pubmed_xml(f)["documents"].pmid)
    assert expected and got == expected
    for f in (tmp_path/"q").iterdir(): assert "synthetic-key-never-written" not in f.read_text(errors="replace")
    assert "synthetic-key-never-written" not in r.stdout + r.stderr

def test_extract_command_writes_pubtator_with_mentions_and_cid(tmp_path):
    "`epigraph extract` on five real BC5CDR development abstracts (their annotation lines removed)."
    from epigraph.sources import load_bc5cdr, write_pubtator, read_pubtator
    dev = load_bc5cdr("dev")
    docs = dev["documents"].head(5)
    empty = dev["mentions"].iloc[0:0]
    write_pubtator({"documents": docs, "mentions": empty, "relations": dev["relations"].iloc[0:0]}, tmp_path/"in.txt")
    r = run("extract", str(tmp_path/"in.txt"), str(tmp_path/"out.txt"))
    assert r.returncode == 0, r.stderr
    out = read_pubtator(tmp_path/"out.txt", "epigraph-extract")
    assert out.reconciles and set(out["documents"].pmid) == set(docs.pmid)
    assert (out["documents"].title.tolist(), out["documents"].abstract.tolist()) == (docs.title.tolist(), docs.abstract.tolist())
    gold = {(p, i) for p, ids in zip(dev["mentions"].pmid, dev["mentions"].mesh_ids) for i in ids if p in set(docs.pmid)}
    found = {(p, i) for p, ids in zip(out["mentions"].pmid, out["mentions"].mesh_ids) for i in ids}
    assert len(found & gold) >= 0.5 * len(gold)     # the extractor finds most of the annotated entities
    assert "CID relations" in r.stdout


def test_ask_prints_a_cited_answer_and_writes_the_subgraph(tmp_path):
    page = tmp_path / "subgraph.html"
    r = run("ask", "Which antiseizure drug should be avoided in a patient who carries HLA-B*15:02?",
            "--options", "carbamazepine|ethosuximide|vigabatrin", "--html", str(page), timeout=600)
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith("Answer: A) carbamazepine") and "[PMID:" in first
    assert "Evidence given" in r.stdout and page.exists() and "vis.Network" in page.read_text()


def test_ask_json_and_bad_arm(tmp_path):
    import json
    r = run("ask", "What is the first-line treatment for Dravet syndrome?", "--json", timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["arm"] == "ppr_pcst" and out["cited"] and set(out["cited"]) <= {m["key"] for m in out["manifest"]}
    r = run("ask", "What is the first-line treatment for Dravet syndrome?", "--arm", "oracle", timeout=600)
    assert r.returncode == 1 and r.stderr.startswith("epigraph: error: answer: unknown arm 'oracle'")


# ---------------------------------------------------------------- ingest and remove at their edges (issue 45; synthetic)
GOOD = dict(id="n1", title="Lamotrigine rash.", text="Lamotrigine induced a rash in an adolescent with epilepsy.",
            date="2020-07")
BAD = [dict(id="n2", title="", text="", date="2020"),                                         # empty
       dict(id="n3", title="Topiramate and stones.", text="Topiramate caused stones.", date="2022-13")]   # month 13


def _notes(path: Path, rows) -> Path:
    "JSONL records of a made-up corpus, `mynotes`."
    import json
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_workers_are_checked_and_capped(tmp_path):
    notes, g = _notes(tmp_path / "mynotes.jsonl", [GOOD]), tmp_path / "g"
    for bad in ("-1", "-7"):
        r = run("ingest", str(notes), "--graph", str(g), "--base", "none", "--workers", bad, "--quiet")
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert f"--workers {bad}:" in r.stderr and "unexpected" not in r.stderr, r.stderr
    assert not g.exists()
    cpus = len(os.sched_getaffinity(0))
    r = run("ingest", str(notes), "--graph", str(g), "--base", "none", "--workers", "1000", "--quiet", timeout=600)
    assert r.returncode == 0 and f"--workers 1000 is more than the {cpus} CPUs here: using {cpus}" in r.stderr, r.stderr


def test_an_ingest_that_sets_every_record_aside_says_so(tmp_path):
    r = run("ingest", str(_notes(tmp_path / "mynotes.jsonl", BAD)), "--graph", str(tmp_path / "g"), "--base", "none",
            "--workers", "0", "--quiet", timeout=600)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert r.stderr.count("set aside:") == 2 and "nothing ingested: 2 of 2 records read set aside" in r.stderr, r.stderr
    for cmd in ([], ["ingest"], ["remove"]): assert "3 nothing done" in run(*cmd, "--help").stdout.replace("\n", " ")


def test_remove_names_the_ids_not_in_the_graph(tmp_path):
    g = tmp_path / "g"
    r = run("ingest", str(_notes(tmp_path / "mynotes.jsonl", [GOOD])), "--graph", str(g), "--base", "none",
            "--workers", "0", "--quiet", timeout=600)
    assert r.returncode == 0, r.stderr
    r = run("remove", "--graph", str(g), "--docs", "900000999", "mynotes:nothing")
    assert r.returncode == 3 and "removed 0 documents (2 ids not in the graph)" in r.stdout, r.stdout + r.stderr
    assert "not in the graph: PMID:900000999" in r.stderr and "not in the graph: mynotes:nothing" in r.stderr
    assert "nothing removed" in r.stderr, r.stderr
    r = run("remove", "--graph", str(g), "--docs", "mynotes:n1", "mynotes:nothing")
    assert r.returncode == 0 and "removed 1 documents (1 ids not in the graph)" in r.stdout, r.stdout + r.stderr
    assert "not in the graph: mynotes:nothing" in r.stderr and "nothing removed" not in r.stderr


def test_remove_refuses_a_docs_file_that_is_not_text(tmp_path):
    (tmp_path / "ids.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20)   # synthetic binary
    (tmp_path / "ids.txt").write_bytes("PMID:900000001\ncaf\xe9\n".encode("latin-1"))    # not UTF-8
    for name in ("ids.png", "ids.txt"):
        r = run("remove", "--graph", str(tmp_path / "g"), "--docs-file", str(tmp_path / name))
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert f"{name}: not a text file (UTF-8)" in r.stderr, r.stderr

"""A probe suite for the front doors issue 45 opened (`ingest`, `remove`, `ask --graph`, `ask --batch`), tried as a
stranger's shared folder, a careless batch file, an odd output path, a dead LLM and a bad scheduler address would try
them. Every probe is an `epigraph` command in a subprocess, and every probe is held to the same five things:

- no internal-error text (a traceback, a Python exception's class name, "object has no attribute", "unexpected");
- no secret: a fake key (`sk-probe-SECRET123`, in `EPIGRAPH_LLM_API_KEY` and `OPENAI_API_KEY`) and the password of a
  base URL (`http://probeuser:probepass@…`) are in every probe's environment and must never appear in stdout, stderr,
  or any file written (the probe's folder and the cache directory);
- no user file lost: every file in the probe's folder before the command is there after it, byte for byte, unless the
  probe names it as the output;
- no process left behind: no child of this test, and no process carrying this run's marker variable (a forked worker
  reparented to init), once the command has returned;
- every file written loads: JSONL lines are JSON objects (no `Infinity`), a graph folder loads with
  `epigraph.store.load_kg`, an HTML page is whole, and no temp file is left.

Every document is synthetic (sentinel PMIDs >= 900000000). One small graph (`ingest --base none`) is made once and
copied for each probe; the cache directory is this module's own, so the served state is built once and scanned too.

Run: python -m pytest -q tests/test_probes.py"""
import hashlib, json, os, pickle, re, shutil, socket, subprocess, sys, time, uuid
from pathlib import Path
import psutil
import pytest

ROOT = Path(__file__).resolve().parents[1]
KEY, PASSWORD = "sk-probe-SECRET123", "probepass"
SECRETS = (KEY, PASSWORD)
MARK = f"probe-{uuid.uuid4().hex}"                 # in every probe's environment: finds its processes, orphans too
INTERNAL = re.compile(r"Traceback|\b(?:KeyError|IndexError|AttributeError|TypeError|ValueError|NameError|"
                      r"UnboundLocalError|ZeroDivisionError|RecursionError|AssertionError|OverflowError|"
                      r"UnicodeDecodeError|UnicodeEncodeError|JSONDecodeError|UnpicklingError|FileNotFoundError|"
                      r"IsADirectoryError|NotADirectoryError|PermissionError|OSError)\b|object has no attribute|"
                      r"\bunexpected\b|NoneType|surrogates not allowed", re.IGNORECASE)
RECORDS = [(900000401, "Cocaine-induced seizures in young adults.",
            "Seizures were induced by cocaine in young adults admitted to an emergency department.", "2017"),
           (900000402, "Phenytoin and gingival hyperplasia.",
            "Phenytoin caused gingival hyperplasia in a child treated for seizures.", "2019")]
QUESTION = "Can cocaine cause seizures?"
USERS = "synthetic: the user's own notes\n"


def _closed_port() -> int:
    "A local port nothing listens on (bound, then let go)."
    with socket.socket() as s: s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


def _pubmed_xml(path: Path, records) -> Path:
    "A PubmedArticleSet with one PubmedArticle per record (synthetic)."
    arts = "".join(
        f"<PubmedArticle><MedlineCitation><PMID>{p}</PMID><Article><Journal><JournalIssue><PubDate><Year>{d}</Year>"
        f"</PubDate></JournalIssue><Title>Synthetic</Title></Journal><ArticleTitle>{t}</ArticleTitle><Abstract>"
        f"<AbstractText>{a}</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>\n"
        for p, t, a, d in records)
    path.write_text(f'<?xml version="1.0"?>\n<PubmedArticleSet>\n{arts}</PubmedArticleSet>\n', encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    "This module's cache directory (served state, LLM replies): written by the probes, so scanned for secrets too."
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def env(cache) -> dict:
    "Every probe's environment: this checkout's code, the module's cache, the secrets, and the marker."
    e = dict(os.environ, PYTHONPATH=str(ROOT), EPIGRAPH_CACHE_DIR=str(cache), EPIGRAPH_PROBE_MARK=MARK,
             EPIGRAPH_LLM_API_KEY=KEY, OPENAI_API_KEY=KEY,
             EPIGRAPH_LLM_BASE_URL=f"http://probeuser:{PASSWORD}@127.0.0.1:{_closed_port()}/v1")
    e.pop("EPIGRAPH_LLM_MODEL", None)
    return e


@pytest.fixture(scope="module")
def ingested(tmp_path_factory, env) -> Path:
    d = tmp_path_factory.mktemp("ingested")
    r = subprocess.run(["epigraph", "ingest", str(_pubmed_xml(d / "a.xml", RECORDS[:1])), "--graph", str(d / "g"),
                        "--base", "none", "--workers", "0", "--quiet"], capture_output=True, text=True, timeout=300,
                       env=env)
    assert r.returncode == 0, r.stderr
    return d / "g"


@pytest.fixture
def graph(ingested, tmp_path) -> Path:
    "A copy of the small synthetic graph in this probe's own folder."
    return Path(shutil.copytree(ingested, tmp_path / "g"))


# ---- the five checks -------------------------------------------------------------------------------------------------

def _snapshot(folder: Path) -> dict:
    "Every path under `folder` (links not followed): a file's hash, a link's target, or 'folder'."
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_symlink(): out[rel] = ("link", os.readlink(p))
        elif p.is_dir(): out[rel] = "folder"
        else: out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _marked_processes() -> list:
    "Live processes (not zombies) started by a probe: a child of this test, or any carrying the marker."
    me = psutil.Process()
    found = {p.pid: p for p in me.children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE}
    for p in psutil.process_iter(["pid"]):
        try:
            if p.pid != me.pid and p.environ().get("EPIGRAPH_PROBE_MARK") == MARK and \
                    p.status() != psutil.STATUS_ZOMBIE: found[p.pid] = p
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess): pass
    return list(found.values())


def _left_behind() -> list:
    "The probe's processes still alive 3 s after its command returned (time to exit on their own)."
    deadline = time.monotonic() + 3
    while (left := _marked_processes()) and time.monotonic() < deadline: time.sleep(0.1)
    return [(p.pid, p.name()) for p in left if p.is_running()]


def _loads(path: Path) -> None:
    "A file the probe wrote loads: JSONL rows are JSON objects with finite numbers; an HTML page is whole."
    assert not path.name.endswith(".tmp") and ".tmp" not in path.suffixes, f"temp file left: {path}"
    if path.suffix == ".jsonl":
        text = path.read_text(encoding="utf-8")
        assert text.endswith("\n"), f"{path}: last line cut"
        for n, line in enumerate(text[:-1].split("\n"), 1):           # rows end at "\n" only (not at U+2028)
            row = json.loads(line, parse_constant=lambda c: pytest.fail(f"{path} line {n}: invalid JSON {c}"))
            assert isinstance(row, dict), f"{path} line {n}: {line!r}"
        assert not INTERNAL.search(text), f"{path}: {INTERNAL.search(text)[0]!r}"
    elif path.suffix == ".html":
        assert path.read_text(encoding="utf-8").rstrip().endswith("</html>"), f"{path}: not a whole page"


def _secrets_in_files(*folders: Path) -> list:
    return [(str(p), s) for f in folders for p in f.rglob("*") if p.is_file() and not p.is_symlink()
            for s in SECRETS if s.encode() in p.read_bytes()]


def probe(args, workspace: Path, env: dict, cache: Path, *, rc: int, outputs=(), extra_env=None, timeout=120,
          cwd=None) -> subprocess.CompletedProcess:
    """Run `epigraph *args` and hold it to the five checks; `outputs` are the paths (in `workspace`) it may write or
    change. Returns the finished process for the probe's own checks."""
    before = _snapshot(workspace)
    t0 = time.monotonic()
    r = subprocess.run(["epigraph", *map(str, args)], capture_output=True, text=True, timeout=timeout,
                       env={**env, **(extra_env or {})}, cwd=cwd or workspace)
    r.seconds = time.monotonic() - t0
    said = r.stdout + r.stderr
    assert r.returncode == rc, (r.returncode, said)
    assert not INTERNAL.search(said), f"internal error text {INTERNAL.search(said)[0]!r} in: {said}"
    assert not [s for s in SECRETS if s in said], f"a secret printed: {said}"
    if rc: assert r.stderr.count("\n") == 1 and r.stderr.startswith("epigraph: error:"), r.stderr
    left = _left_behind()
    assert not left, f"processes left behind: {left}"
    after = _snapshot(workspace)
    allowed = {str(Path(o).relative_to(workspace)) for o in outputs}
    lost = {k: v for k, v in before.items() if k not in allowed and after.get(k) != v}
    assert not lost, f"user files lost or changed: {sorted(lost)}"
    for rel, v in after.items():
        if before.get(rel) != v and v != "folder" and not isinstance(v, tuple): _loads(workspace / rel)
    for folder in {p.parent for p in workspace.rglob("manifest.json")}:
        from epigraph.store import load_kg
        assert len(load_kg(folder).evidence), folder                      # verifies every table's hash
    assert not _secrets_in_files(workspace, cache), _secrets_in_files(workspace, cache)
    return r


def _users_file(folder: Path, name="my notes.txt") -> Path:
    p = folder / name; p.write_text(USERS, encoding="utf-8"); return p


# ---- graph folders from strangers ------------------------------------------------------------------------------------

class _Plants:
    "Unpickled, creates the folder `marker`: what a crafted file in a shared graph folder could do."
    def __init__(self, marker): self.marker = marker
    def __reduce__(self): return (os.makedirs, (self.marker,))


def _plant_pickles(folder: Path, marker: Path, env: dict) -> None:
    "A crafted served-*.pkl under every name a reader might look for, the real served key among them."
    key = subprocess.run([sys.executable, "-c", "import sys; from epigraph.ask import served_key; "
                                                "print(served_key(sys.argv[1]))", str(folder)],
                         capture_output=True, text=True, timeout=120, env=env).stdout.strip()
    crafted = pickle.dumps(_Plants(str(marker)))
    for name in {key, key[:16], "0" * 16, "0" * 32} - {""}:
        (folder / f"served-{name}.pkl").write_bytes(crafted)


def test_a_graph_folder_with_a_crafted_pickle_runs_no_code(graph, tmp_path, env, cache):
    marker = tmp_path.parent / f"{tmp_path.name}-code-ran"
    _plant_pickles(graph, marker, env)
    _users_file(tmp_path)
    for _ in range(2):                                    # the first call builds the served state, the second reads it
        r = probe(["ask", QUESTION, "--graph", graph, "--json"], tmp_path, env, cache, rc=0)
        assert "PMID:900000401" in json.loads(r.stdout)["cited"], r.stdout
        assert not marker.exists(), "a pickle from the graph folder was loaded"


def test_a_folder_holding_only_a_crafted_pickle(tmp_path, env, cache):
    marker = tmp_path.parent / f"{tmp_path.name}-code-ran"
    g = tmp_path / "g"; g.mkdir()
    (g / "served-0000000000000000.pkl").write_bytes(pickle.dumps(_Plants(str(marker))))
    r = probe(["ask", QUESTION, "--graph", g], tmp_path, env, cache, rc=1)
    assert "no saved graph there" in r.stderr and not marker.exists(), r.stderr


@pytest.mark.parametrize("kind", ["missing", "a user's folder", "a file"])
def test_ask_with_a_graph_folder_that_is_not_a_graph(tmp_path, env, cache, kind):
    g = tmp_path / "g"
    if kind == "a user's folder": g.mkdir(); _users_file(g)
    if kind == "a file": g.write_text(USERS, encoding="utf-8")
    r = probe(["ask", QUESTION, "--graph", g], tmp_path, env, cache, rc=1)
    assert str(g) in r.stderr, r.stderr
    if kind == "missing": assert not g.exists()                  # nothing made in its place


def test_ingest_and_remove_keep_a_users_file_in_the_graph_folder(graph, tmp_path, env, cache):
    more = _pubmed_xml(tmp_path / "more.xml", RECORDS[1:])
    _users_file(graph)
    r = probe(["ingest", more, "--graph", graph, "--workers", "0", "--quiet"], tmp_path, env, cache, rc=1)
    assert "my notes.txt" in r.stderr, r.stderr
    r = probe(["remove", "--graph", graph, "--docs", "900000401"], tmp_path, env, cache, rc=1)
    assert "my notes.txt" in r.stderr, r.stderr
    fresh = tmp_path / "fresh"; fresh.mkdir(); _users_file(fresh)         # a user's folder with no graph yet
    r = probe(["ingest", more, "--graph", fresh, "--base", "none", "--workers", "0", "--quiet"], tmp_path, env,
              cache, rc=1)
    assert "my notes.txt" in r.stderr, r.stderr
    r = probe(["ingest", more, "--graph", fresh / "my notes.txt", "--base", "none", "--workers", "0", "--quiet"],
              tmp_path, env, cache, rc=1)
    assert "is a file" in r.stderr, r.stderr


# ---- batch files -----------------------------------------------------------------------------------------------------

def _rows(path: Path) -> list:
    return [json.loads(l) for l in path.read_text(encoding="utf-8")[:-1].split("\n")]


def test_a_binary_batch_file(graph, tmp_path, env, cache):
    src = tmp_path / "q.bin"; src.write_bytes(b"\x00\x01\xff\xfe\x89PNG\r\n\x1a\n" + bytes(range(256)))
    r = probe(["ask", "--batch", src, "--out", tmp_path / "a.jsonl", "--graph", graph, "--quiet"], tmp_path, env,
              cache, rc=1)
    assert "binary" in r.stderr and not (tmp_path / "a.jsonl").exists(), r.stderr


def test_bad_batch_rows_are_recorded_as_valid_json(graph, tmp_path, env, cache):
    src = tmp_path / "q.jsonl"
    src.write_text('{"question": "Which drug?", "options": "a|b"}\n{"question": "Which drug?", "options": [1, null]}\n'
                   f'{{"question": "{QUESTION}", "id": 1e999}}\n{{not json\n{{"question": "{QUESTION}", "id": 7}}\n',
                   encoding="utf-8")
    out = tmp_path / "a.jsonl"
    r = probe(["ask", "--batch", src, "--out", out, "--graph", graph, "--quiet"], tmp_path, env, cache, rc=0,
              outputs=[out])
    rows = _rows(out)
    assert [x["line"] for x in rows] == [1, 2, 3, 4, 5], rows
    assert all(x.get("error") for x in rows[:4]) and "PMID:900000401" in rows[4]["cited"], rows
    assert "1 answered, 4 set aside (of 5 read)" in r.stdout, r.stdout


def test_a_line_separator_inside_a_batch_line(graph, tmp_path, env, cache):
    src = tmp_path / "q.txt"
    row = json.dumps(dict(question="Can\u2028cocaine cause seizures?", id="u"), ensure_ascii=False)
    src.write_text(f"Can cocaine\u2028cause seizures?\n{row}\nCan cocaine cause\x85seizures?\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    probe(["ask", "--batch", src, "--out", out, "--graph", graph, "--quiet"], tmp_path, env, cache, rc=0,
          outputs=[out])
    rows = _rows(out)
    assert [x["line"] for x in rows] == [1, 2, 3] and rows[1]["id"] == "u", rows
    assert all("PMID:900000401" in x["cited"] for x in rows), rows


# ---- outputs ---------------------------------------------------------------------------------------------------------

def test_outputs_that_are_a_folder_or_in_a_missing_folder(graph, tmp_path, env, cache):
    src = tmp_path / "q.txt"; src.write_text(QUESTION + "\n", encoding="utf-8")
    folder = tmp_path / "answers"; folder.mkdir(); _users_file(folder)
    r = probe(["ask", "--batch", src, "--out", folder, "--graph", graph, "--quiet"], tmp_path, env, cache, rc=1)
    assert "is a folder" in r.stderr, r.stderr
    r = probe(["ask", "--batch", src, "--out", tmp_path / "missing" / "a.jsonl", "--graph", graph, "--quiet"],
              tmp_path, env, cache, rc=1)
    assert "does not exist" in r.stderr and not (tmp_path / "missing").exists(), r.stderr
    r = probe(["ask", QUESTION, "--graph", graph, "--html", folder], tmp_path, env, cache, rc=1)
    assert "is a folder" in r.stderr, r.stderr
    r = probe(["ask", QUESTION, "--graph", graph, "--html", tmp_path / "missing" / "x.html"], tmp_path, env, cache,
              rc=1)
    assert "does not exist" in r.stderr and not (tmp_path / "missing").exists(), r.stderr


def test_outputs_that_are_symlinks_to_a_users_file(graph, tmp_path, env, cache):
    "The link's target is the output (written through the link); the user's other file is untouched."
    src = tmp_path / "q.txt"; src.write_text(QUESTION + "\n", encoding="utf-8")
    _users_file(tmp_path, "other.txt")
    target, link = _users_file(tmp_path, "target.jsonl"), tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    probe(["ask", "--batch", src, "--out", link, "--graph", graph, "--quiet"], tmp_path, env, cache, rc=0,
          outputs=[target])
    assert link.is_symlink() and "PMID:900000401" in _rows(target)[0]["cited"]
    page, plink = _users_file(tmp_path, "page.html"), tmp_path / "link.html"
    plink.symlink_to(page.name)
    probe(["ask", QUESTION, "--graph", graph, "--html", plink], tmp_path, env, cache, rc=0, outputs=[page])
    assert plink.is_symlink() and "Cocaine" in page.read_text(encoding="utf-8")


# ---- LLM faults ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("keys", ["EPIGRAPH_LLM_API_KEY", "OPENAI_API_KEY only"])
def test_an_unreachable_llm_with_a_key_and_url_credentials(graph, tmp_path, env, cache, keys):
    llm = dict(EPIGRAPH_LLM_MODEL=f"probe-unreachable-{uuid.uuid4().hex[:8]}", EPIGRAPH_LLM_DEADLINE_S="3")
    if keys == "OPENAI_API_KEY only": llm["EPIGRAPH_LLM_API_KEY"] = ""
    r = probe(["ask", QUESTION, "--reader", "llm", "--graph", graph], tmp_path, env, cache, rc=1, extra_env=llm)
    assert "LLM" in r.stderr and "[redacted]" in r.stderr, r.stderr


def test_an_unreachable_llm_in_a_batch_is_recorded(graph, tmp_path, env, cache):
    src = tmp_path / "q.txt"; src.write_text(QUESTION + "\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    llm = dict(EPIGRAPH_LLM_MODEL=f"probe-unreachable-{uuid.uuid4().hex[:8]}", EPIGRAPH_LLM_DEADLINE_S="3")
    r = probe(["ask", "--batch", src, "--out", out, "--reader", "llm", "--graph", graph, "--quiet"], tmp_path, env,
              cache, rc=0, outputs=[out], extra_env=llm)
    assert "0 answered, 1 set aside" in r.stdout and "LLM" in _rows(out)[0]["error"], r.stdout


# ---- scheduler addresses ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("address", ["closed", "tcp://127.0.0.1:notaport", "not an address::"])
def test_a_bad_scheduler_address_is_one_line_in_seconds(tmp_path, env, cache, address):
    if address == "closed": address = f"tcp://127.0.0.1:{_closed_port()}"
    xml = _pubmed_xml(tmp_path / "a.xml", RECORDS)
    r = probe(["ingest", xml, "--graph", tmp_path / "g", "--base", "none", "--workers", "0", "--quiet",
               "--scheduler", address], tmp_path, env, cache, rc=1, timeout=60)
    assert r.seconds < 15 and "scheduler" in r.stderr, (r.seconds, r.stderr)
    assert not (tmp_path / "g").exists()

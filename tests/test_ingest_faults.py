"""`epigraph ingest` with a cluster or an LLM that is not there (issue 45 #10, #11), from a shell, on synthetic records:
a scheduler address is checked before any work, and an unreachable LLM costs its own claims only."""
import json, socket, subprocess, time
from pathlib import Path
import pytest


def _epigraph(*args, timeout=600, env=None):
    import os
    return subprocess.run(["epigraph", *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def _notes(path: Path) -> Path:
    "Three synthetic JSONL records of a made-up corpus, each with a drug and an adverse effect the dictionaries know."
    rows = [dict(id="n1", title="Lamotrigine rash.", text="Lamotrigine induced a rash in an adolescent with epilepsy.",
                 date="2020-07"),
            dict(id="n2", title="Carbamazepine hyponatremia.", text="Carbamazepine induced hyponatremia in adults.",
                 date="2021"),
            dict(id="n3", title="Topiramate and kidney stones.", text="Topiramate caused nephrolithiasis.", date="2022")]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _closed_port() -> int:
    "A local port nothing listens on (bound, then let go)."
    with socket.socket() as s: s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


@pytest.mark.parametrize("address, says", [("not an address::", "not a scheduler address"),
                                           ("tcp://somehost", "not a scheduler address"),
                                           ("closed", "nothing answers at 127.0.0.1")])
def test_a_bad_scheduler_is_one_line_before_any_work(tmp_path, address, says):
    "A malformed or dead scheduler address: exit 1, one line, in seconds, no graph folder — whatever the corpus size."
    if address == "closed": address = f"tcp://127.0.0.1:{_closed_port()}"
    t0 = time.perf_counter()
    r = _epigraph("ingest", _notes(tmp_path / "mynotes.jsonl"), "--graph", tmp_path / "g", "--base", "none",
                  "--workers", "0", "--quiet", "--scheduler", address)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and says in r.stderr, (r.returncode, r.stdout, r.stderr)
    assert "unexpected" not in r.stderr and "Traceback" not in r.stderr
    assert time.perf_counter() - t0 < 20                 # start-up and a 3-s connect at most, not Dask's 30 s
    assert not (tmp_path / "g").exists()


def test_a_scheduler_not_used_for_a_small_corpus_is_said(tmp_path):
    "Something listens at the address, but 3 documents are extracted here: the summary says the scheduler was not used."
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); s.listen(); port = s.getsockname()[1]
        r = _epigraph("ingest", _notes(tmp_path / "mynotes.jsonl"), "--graph", tmp_path / "g", "--base", "none",
                      "--workers", "0", "--quiet", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert r.returncode == 0, r.stderr
    assert f"extracted here, not on the scheduler at tcp://127.0.0.1:{port}" in r.stdout, r.stdout


def test_an_unreachable_llm_keeps_the_other_extractors_claims(tmp_path):
    """ingest --llm with nothing at the endpoint: every document taken in with its dictionary claims, the LLM's failure
    said once per document (no traceback), nothing set aside."""
    import os
    from epigraph.store import load_kg
    env = dict(EPIGRAPH_LLM_BASE_URL=f"http://127.0.0.1:{_closed_port()}/v1",
               EPIGRAPH_LLM_MODEL=f"unreachable-{os.getpid()}", EPIGRAPH_LLM_DEADLINE_S="20")  # no cached answers
    r = _epigraph("ingest", _notes(tmp_path / "mynotes.jsonl"), "--graph", tmp_path / "g", "--base", "none",
                  "--workers", "0", "--quiet", "--llm", env=env)
    assert r.returncode == 0, r.stderr
    assert "new 3 + updated 0 + unchanged 0 + rejected 0" in r.stdout, r.stdout
    assert "the LLM failed on 3 documents" in r.stdout, r.stdout
    failed = [l for l in r.stderr.splitlines() if "mynotes.jsonl (record mynotes:n" in l]
    assert len(failed) == 3 and all("; document kept" in l for l in failed), r.stderr
    assert "Traceback" not in r.stderr and "set aside" not in r.stderr, r.stderr
    kg = load_kg(tmp_path / "g")
    assert set(kg.evidence.doc_id) == {"mynotes:n1", "mynotes:n2", "mynotes:n3"}


def test_a_batch_records_llm_failures_and_goes_on(tmp_path):
    """ask --batch --reader llm with nothing at the endpoint: every row recorded with a one-line reason (no key, no URL
    password), the batch finished, no temp file left."""
    import os
    g, out, qs = tmp_path / "g", tmp_path / "answers.jsonl", tmp_path / "questions.txt"
    made = _epigraph("ingest", _notes(tmp_path / "mynotes.jsonl"), "--graph", g, "--base", "none", "--workers", "0",
                     "--quiet")
    assert made.returncode == 0, made.stderr
    qs.write_text("Can lamotrigine cause a rash?\nCan carbamazepine cause hyponatremia?\n", encoding="utf-8")
    key, password = "sk-synthetic-0123456789abcdef", "synthetic-pass-4711"
    env = dict(EPIGRAPH_LLM_BASE_URL=f"http://synthuser:{password}@127.0.0.1:{_closed_port()}/v1",
               EPIGRAPH_LLM_API_KEY=key, EPIGRAPH_LLM_MODEL=f"unreachable-{os.getpid()}", EPIGRAPH_LLM_DEADLINE_S="5")
    r = _epigraph("ask", "--batch", qs, "--out", out, "--graph", g, "--reader", "llm", env=env)
    assert r.returncode == 0, r.stderr
    assert "0 answered, 2 set aside (of 2 read)" in r.stdout, r.stdout
    rows = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [x["line"] for x in rows] == [1, 2] and all("LLM" in x["error"] for x in rows), rows
    said = r.stdout + r.stderr + out.read_text(encoding="utf-8")
    assert key not in said and password not in said and "Traceback" not in said, said
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]

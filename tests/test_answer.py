"""Answers (epigraph.answer): the LLM reader's plumbing against a scripted OpenAI-compatible server, the arms,
bad input, determinism, and the secrets scan (no key ever lands in a cache, a log, a notebook or a figure).

The scripted server (from test_llm) replies with fixed JSON, so what is tested is how the reader builds its
prompt and reads the reply, never the quality of an answer. The key used here is synthetic."""
import json, logging, re
from pathlib import Path
import pandas as pd
import pytest

from test_llm import FakeServer, _chat_body
from epigraph.answer import CITATION, answer, arms, counterfactual_cases, default_retriever
from epigraph.manifest import manifest_of
from epigraph.readers import build_prompt, question_kind, read_offline
from epigraph.llm import LLM, LLMNotConfigured

Q = "Which antiseizure drug should be avoided in a patient who carries HLA-B*15:02?"
OPTS = ["carbamazepine", "levetiracetam", "ethosuximide", "vigabatrin"]
SYNTHETIC_KEY = "synthetic-test-key-not-a-secret-0123456789"   # not a real key: the test checks it is never stored


@pytest.fixture(scope="module")
def R():
    return default_retriever()


def _reply(choice, text):
    return (200, _chat_body(json.dumps({"reasoning": "synthetic", "choice": choice, "answer": text})), 0.0)


def test_llm_reader_reads_choice_and_keeps_manifest(R, tmp_path):
    m = manifest_of(R, R(Q, "ppr_pcst"))
    cite = next(CITATION.finditer(" ".join(f"[{k}, {t}]" for k, t in zip(m.key, m.tier))))[0]
    with FakeServer(default=_reply("A", f"Carbamazepine should be avoided {cite}.")) as srv:
        llm = LLM(base_url=srv.url, model="fake-model", cache_dir=tmp_path / "llm")
        a = answer(Q, OPTS, arm="ppr_pcst", reader="llm", retriever=R, llm=llm)
    assert a.choice == 0 and a.chosen == "carbamazepine" and a.reader.startswith("llm")
    assert a.cited and set(a.cited) <= set(a.manifest.key)
    body = srv.requests[0]["body"]
    user = body["messages"][1]["content"]
    assert body["temperature"] == 0.0 and "epileptologist" in body["messages"][0]["content"]
    assert "A) carbamazepine" in user and all(f"[{k}" in user for k in a.manifest.key.head(5))


def test_llm_reader_without_retrieval_says_no_evidence(R, tmp_path):
    with FakeServer(default=_reply(None, "I cannot tell.")) as srv:
        llm = LLM(base_url=srv.url, model="fake-model", cache_dir=tmp_path / "llm")
        a = answer("What is the first-line treatment for Dravet syndrome?", arm="none", reader="llm", retriever=R, llm=llm)
    assert a.choice is None and a.manifest.empty
    assert "No evidence is given" in srv.requests[0]["body"]["messages"][1]["content"]
    assert srv.requests[0]["body"]["temperature"] == 0.3          # free text


def test_llm_reader_out_of_range_choice_is_no_choice(R, tmp_path):
    with FakeServer(default=_reply("Z", "Option Z.")) as srv:
        a = answer(Q, OPTS, reader="llm", retriever=R, llm=LLM(base_url=srv.url, model="fake-model", cache_dir=tmp_path))
    assert a.choice is None


def test_llm_reader_without_endpoint_is_a_clear_error(R, tmp_path):
    with pytest.raises(LLMNotConfigured):
        answer(Q, OPTS, reader="llm", retriever=R, llm=LLM(base_url=None, model=None, cache_dir=tmp_path))


def test_bad_input_is_a_clear_error(R):
    with pytest.raises(ValueError, match="non-empty"): answer("", OPTS, retriever=R)
    with pytest.raises(ValueError, match="unknown arm"): answer(Q, OPTS, arm="oracle", retriever=R)
    with pytest.raises(ValueError, match="reader must be one of"): answer(Q, OPTS, reader="crystal-ball", retriever=R)


def test_nothing_recognised_gives_an_answer_not_a_crash(R):
    for arm in arms():
        a = answer("What is the weather like tomorrow?", ["rain", "sun"], arm=arm, retriever=R)
        assert a.choice is None and isinstance(a.text, str) and (a.text or a.reason)


def test_offline_answers_are_deterministic(R):
    a1 = answer(Q, OPTS, retriever=R)
    a2 = answer(Q, OPTS, retriever=default_retriever())
    assert (a1.choice, a1.text) == (a2.choice, a2.text) and a1.manifest.equals(a2.manifest)


def test_every_sentence_of_an_offline_answer_is_cited(R):
    for c in counterfactual_cases().itertuples():
        a = answer(c.question, c.options, retriever=R)
        assert a.chosen == c.gold, (c.question, a.text)
        for sentence in re.split(r"(?<=\.)\s+(?=[A-Z])", a.text):
            assert CITATION.search(sentence), sentence
        assert set(a.cited) <= set(a.manifest.key)


@pytest.mark.parametrize("question", ["Can carbamazepine or cocaine cause seizures?",
                                      "Which drugs should be avoided in Dravet syndrome and in carriers of HLA-B*15:02?",
                                      "Which drugs treat Dravet syndrome and Lennox-Gastaut syndrome?"])
def test_a_two_subject_answer_credits_each_subject_with_its_own_papers(R, question):
    "Issue 45: 'Carbamazepine can induce Seizures [its paper] [the cocaine paper]': every cited row names both ends."
    from epigraph.metrics import claim_support
    a = answer(question, retriever=R)
    s = claim_support(a.text, a.manifest)
    assert "a citation is about another subject" not in s.reason.tolist(), (a.text, s.reason.tolist())
    if question.startswith("Can"):
        assert "Cocaine can induce Seizures [PMID:" in a.text and "Carbamazepine can induce Seizures [PMID:" in a.text


def test_no_secret_reaches_cache_or_log(R, tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("EPIGRAPH_LLM_API_KEY", SYNTHETIC_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", SYNTHETIC_KEY)
    caplog.set_level(logging.DEBUG)
    with FakeServer(default=_reply("A", "Carbamazepine.")) as srv:
        llm = LLM(base_url=srv.url, model="fake-model", cache_dir=tmp_path / "llm")
        answer(Q, OPTS, reader="llm", retriever=R, llm=llm)
        sent = {k.lower(): v for k, v in srv.requests[0]["headers"].items()}.get("authorization", "")
    assert SYNTHETIC_KEY in sent                                   # the key is used ...
    files = [p for p in (tmp_path / "llm").rglob("*") if p.is_file()]
    assert files
    for p in files: assert SYNTHETIC_KEY not in p.read_text(errors="replace"), p      # ... and never stored
    assert SYNTHETIC_KEY not in caplog.text and SYNTHETIC_KEY not in repr(llm)


SECRET = re.compile(r"\bsk-[A-Za-z0-9_-]{16,}|Bearer\s+[A-Za-z0-9._-]{16,}|api[_-]?key\"?\s*[:=]\s*\"?[A-Za-z0-9_-]{16,}", re.I)


def test_no_secret_in_notebooks_figures_or_caches():
    "Committed notebooks, generated figures and tables, and the build caches hold nothing that looks like a key."
    root = Path(__file__).resolve().parents[1]
    places = list((root / "nbs").glob("*.ipynb")) + [p for d in ("figures", "data/build/llm", "data/cache/llm", "_site")
                                                    for p in (root / d).rglob("*") if p.is_file() and p.suffix in
                                                    {".html", ".md", ".csv", ".json", ".ipynb", ".txt", ".log"}]
    assert places
    for p in places:
        text = p.read_text(errors="replace")
        hits = [m for m in SECRET.findall(text) if "synthetic" not in m]
        assert not hits, f"{p}: {hits[:3]}"


def test_scan_pattern_catches_a_key():
    assert SECRET.search("Authorization: Bearer abcdefghijklmnopqrstuvwx") and SECRET.search('"api_key": "abcdefghijklmnop1234"')
    assert not SECRET.search("PMID:29392710 GOLD")

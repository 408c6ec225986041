"""Checks of `epigraph.hypergraph` that do not fit in the notebook.

Properties checked:
- the builders turn hand-made evidence rows into the hyperedges they describe (a small synthetic graph: ids SYN:…,
  names "synthetic …"/"synthdrug …", PMIDs >= 900000000, guideline "SYNGUIDE" — all of it synthetic);
- on the real graph, hyperedges agree with the source files themselves: `phenotype.hpoa` lines (disease, phenotype,
  onset, frequency, evidence code, PMIDs, no negated line) and `pair_2018.sql` lines (gene, drug, levels, testing,
  PMIDs), and every guidance row in the graph is in exactly one hyperedge, its recommendation's (guideline +
  locator), with the row's drug, condition and population (qualifiers);
- `Retriever(kg)(query, "hypergraph")` works after the import, repeats exactly (also on a freshly built, uncached
  index), and every inline citation of its text follows CONTRACTS.md and names a real evidence row;
- no query text, budget or weight setting makes it raise; an empty result always says why.
"""
import json, re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import epigraph.hypergraph as H
from epigraph.config import fetch
from epigraph.ontologies import hpo_data_dir
from epigraph.retrieval import GraphIndex, Retrieved, Retriever, approx_tokens, retriever_names

CITE = re.compile(r"\[(?P<key>PMID:\d+|[a-z0-9][a-z0-9._-]*:[^,\]\s]+)(?: \((?P<date>\d{4}(?:-\d{2}(?:-\d{2})?)?)\))?, "
                  r"(?P<tier>GUIDELINE|GOLD|SILVER|BRONZE)\]")
FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
QUERIES = ["Is carbamazepine safe for a patient who carries HLA-B*15:02?",
           "How should phenytoin be dosed in a CYP2C9 poor metabolizer?",
           "Which drugs should be avoided in Dravet syndrome, and what is first-line?"]


# ---------------------------------------------------------------- a synthetic graph (every record synthetic)
def synthetic_graph():
    ents = pd.DataFrame([
        ("SYN:gene1", "SYNGENE1", "L3", []), ("SYN:allele1", "SYNGENE1*01:01", "L3", []),
        ("SYN:drugA", "synthdrug alpha", "L4", []), ("SYN:drugB", "synthdrug beta", "L4", []),
        ("SYN:drugC", "synthdrug gamma", "L4", []), ("SYN:dis1", "synthetic syndrome one", "L1", []),
        ("SYN:phen1", "synthetic phenotype one", "L2", []), ("SYN:onset1", "synthetic onset", "L2", ["HP:9999999"])],
        columns=["entity_id", "name", "layer", "xrefs"])
    ents["synonyms"] = [[] for _ in range(len(ents))]
    trip = pd.DataFrame([
        ("t:1", "SYN:gene1", "gene_drug_interaction", "SYN:drugA", 2, "GOLD", [900000001, 900000002]),
        ("t:2", "SYN:drugA", "contraindicated_with", "SYN:allele1", 1, "GOLD", [900000003]),
        ("t:3", "SYN:dis1", "characterized_by", "SYN:phen1", 0, "BRONZE", []),
        ("t:4", "SYN:drugA", "aggravates", "SYN:dis1", 0, "GOLD", []),
        ("t:5", "SYN:drugB", "aggravates", "SYN:dis1", 0, "GOLD", []),
        ("t:6", "SYN:dis1", "characterized_by", "SYN:onset1", 0, "BRONZE", [])],
        columns=["triplet_id", "head", "predicate", "tail", "paper_count", "tier", "pmids"])
    cpic = json.dumps(dict(cpic_level="A", guideline_id=1, pgkb_guideline_id="PAX1", pgkb_level="1A", pgx_testing="Testing required"))
    def guide(loc, rel, qual, para, year=2099):   # a guidance evidence row's quote and detail, as guidance_claims writes them
        return (f"SYNGUIDE {loc} ({year}), {rel}: {para}",
                json.dumps(dict(guideline="SYNGUIDE", locator=loc, qualifiers=qual, reference=f"SYNGUIDE ({year})",
                                relation=rel), sort_keys=True))
    ev = pd.DataFrame([
        ("ev:1", "t:1", "cpic-pairs-2018", "pair_2018.sql:7", 900000001, "CPIC pair (synthetic)", cpic, "2013-05-01", "month"),
        ("ev:2", "t:1", "cpic-data", "guideline:1", 900000002, "CPIC guideline (synthetic)", cpic, "2018-04-01", "month"),
        ("ev:3", "t:3", "hpo", "phenotype.hpoa:42", None, "HPO annotation (synthetic)",
         json.dumps(dict(aspect="P", curator="synthetic", evidence_code="TAS", frequency="3/7", onset="HP:9999999")), "2025-01-16", "day"),
        ("ev:4", "t:4", "guidance", "syn-1.1-alpha", None,
         *guide("1.1", "avoid", [], "Synthdrug alpha may worsen seizures in synthetic syndrome one, even with synthdrug gamma."),
         "2099-01-01", "year"),
        ("ev:5", "t:5", "guidance", "syn-1.1-beta", None,
         *guide("1.1", "avoid", [], "Synthdrug beta may worsen seizures in synthetic syndrome one, even with synthdrug gamma."),
         "2099-01-01", "year"),
        ("ev:6", "t:2", "guidance", "syn-2-alpha", 900000003,
         *guide("table 2", "contraindicated", ["drug-naive"],
                "In SYNGENE1*01:01 carriers who have never taken synthdrug alpha, it must not be started.", 2018),
         "2018-04-01", "month")],
        columns=["evidence_id", "triplet_id", "source", "record_id", "pmid", "quote", "detail", "date", "date_precision"])
    ev["pmid"] = ev.pmid.astype("Int64")
    return SimpleNamespace(entities=ents, triplets=trip, evidence=ev)

CONTEXT = dict(alleles={"SYNGENE1": ["SYNGENE1*01:01"]}, phenotypes={"SYNGENE1": "high-risk genotype status (Positive, Negative)"},
               guidelines={1: "SYNGENE1 and synthdrug alpha (synthetic)"})


def test_synthetic_cpic_hyperedge():
    h = H.cpic_hyperedges(synthetic_graph(), CONTEXT)
    assert len(h) == 1
    r = h.iloc[0]
    assert r.hyperedge_id == "h:cpic:pair_2018.sql:7"
    assert (r.members, r.roles) == (["SYN:gene1", "SYN:allele1", "SYN:drugA"], ["gene", "allele", "drug"])
    assert r.evidence_keys == ["PMID:900000001", "PMID:900000002"] and r.pmids == [900000001, 900000002]
    assert r.record_ids == ["pair_2018.sql:7", "guideline:1"] and r.tier == "GOLD"
    for part in ("recommendation: Testing required", "CPIC level A, PharmGKB level 1A", "risk allele SYNGENE1*01:01",
                 "guideline: SYNGENE1 and synthdrug alpha (synthetic)", "high-risk genotype status"):
        assert part in r.text, (part, r.text)


def test_synthetic_hpo_hyperedge():
    kg = synthetic_graph()
    h = H.hpo_hyperedges(kg, GraphIndex(kg).canonical)
    assert len(h) == 1
    r = h.iloc[0]
    assert (r.members, r.roles) == (["SYN:dis1", "SYN:phen1", "SYN:onset1"], ["disease", "phenotype", "onset"])
    assert (r.evidence_keys, r.key_dates) == (["hpo:phenotype.hpoa:42"], ["2025-01-16"])
    assert r.text == ("HPO annotation: synthetic syndrome one has phenotype synthetic phenotype one; onset synthetic onset; "
                      "frequency 3 of 7 patients; evidence TAS (traceable author statement).")


def test_synthetic_guideline_hyperedges():
    kg = synthetic_graph()
    h = H.guideline_hyperedges(kg, GraphIndex(kg)).set_index("hyperedge_id")
    assert sorted(h.index) == ["h:guideline:SYNGUIDE 1.1", "h:guideline:SYNGUIDE table 2"]
    two = h.loc["h:guideline:SYNGUIDE 1.1"]            # one recommendation over two drugs, a third drug named in it
    assert (two.members, two.roles) == (["SYN:drugA", "SYN:drugB", "SYN:dis1", "SYN:drugC"], ["drug", "drug", "syndrome", "mentioned"])
    assert (two.evidence_keys, two.key_dates) == (["guidance:syn-1.1-alpha", "guidance:syn-1.1-beta"], ["2099", "2099"])
    assert two.record_ids == ["syn-1.1-alpha", "syn-1.1-beta"] and two.source == "guidance"
    a = json.loads(two.attributes)
    assert (a["actions"], a["constraints"], a["qualifiers"]) == (["avoid"], [], {})
    assert a["statements"] == ["Synthdrug alpha and synthdrug beta may worsen seizures in synthetic syndrome one, even with synthdrug gamma."]
    assert "population" not in two.text
    one = h.loc["h:guideline:SYNGUIDE table 2"]       # a qualified row: its population carried on the hyperedge
    assert (one.members, one.roles, one.evidence_keys) == (["SYN:drugA", "SYN:allele1"], ["drug", "genotype"], ["PMID:900000003"])
    a = json.loads(one.attributes)
    assert (a["constraints"], a["qualifiers"], a["actions"]) == (["who have never taken it"], {"syn-2-alpha": ["drug-naive"]}, ["contraindicated"])
    assert "; population: who have never taken it; action: contraindicated." in one.text


def test_synthetic_retrieval(monkeypatch):
    kg = synthetic_graph()
    monkeypatch.setattr(H, "cpic_context", lambda: CONTEXT)       # the synthetic graph's CPIC tables
    gi = GraphIndex(kg)
    hx = H.hypergraph_index(kg, gi, use_cache=False)
    assert hx.n == 4
    res = H.retrieve_hypergraph(gi, hx, "Is synthdrug alpha safe for SYNGENE1*01:01 carriers?", how="names")
    assert set(res.seeds.entity_id) == {"SYN:drugA", "SYN:allele1"}
    top2 = {h["hyperedge_id"] for h in res.params["hyperedges"][:2]}
    assert top2 == {"h:cpic:pair_2018.sql:7", "h:guideline:SYNGUIDE table 2"}      # the two facts holding both seeds
    assert set(res.edges.triplet_id) >= {"t:1", "t:2"}
    assert all(int(p) >= 900000000 for p in res.pmids)
    again = H.retrieve_hypergraph(GraphIndex(kg), H.hypergraph_index(kg, GraphIndex(kg), use_cache=False),
                                  "Is synthdrug alpha safe for SYNGENE1*01:01 carriers?", how="names")
    assert again.text == res.text and again.edges.equals(res.edges)


def test_synthetic_lsa_option(monkeypatch, tmp_path):
    kg = synthetic_graph()
    monkeypatch.setattr(H, "cpic_context", lambda: CONTEXT)
    gi = GraphIndex(kg)
    hx = H.hypergraph_index(kg, gi, dims=2, use_cache=False)
    assert hx.encoder.name == "tfidf-lsa-2" and hx.encoder.vectors.shape == (4, 2)
    hx.encoder.save(tmp_path)
    back = H.HyperedgeEncoder.load(tmp_path)
    q = "synthdrug alpha carriers"
    assert np.allclose(back.cosine(back.embed(q)), hx.encoder.cosine(hx.encoder.embed(q)))
    res = H.retrieve_hypergraph(gi, hx, q, how="names")
    assert res.params["encoder"] == "tfidf-lsa-2" and res.paths


def test_no_evidence_and_empty_graph():
    kg = synthetic_graph()
    kg.evidence = kg.evidence.iloc[:0]
    gi = GraphIndex(kg)
    res = H.retrieve_hypergraph(gi, H.hypergraph_index(kg, gi, use_cache=False), "synthdrug alpha", how="names")
    assert res.is_empty and res.reason == "the graph has no hyperedges (no CPIC, HPO or guideline evidence)"
    empty = SimpleNamespace(entities=kg.entities.iloc[:0], triplets=kg.triplets.iloc[:0], evidence=kg.evidence)
    egi = GraphIndex(empty)
    assert H.retrieve_hypergraph(egi, H.hypergraph_index(empty, egi, use_cache=False), "x").reason == "the graph has no entities"


# ---------------------------------------------------------------- the real graph
@pytest.fixture(scope="module")
def real():
    from epigraph.build import built_kg
    kg = built_kg()
    R = Retriever(kg)
    hx = H.hypergraph_index(kg, R.graph)
    return SimpleNamespace(kg=kg, R=R, gi=R.graph, hx=hx, table=hx.table)


def test_hpo_hyperedges_match_phenotype_hpoa(real):
    lines = (hpo_data_dir()/"phenotype.hpoa").read_text().splitlines()
    names = {}
    cur = None
    for l in (hpo_data_dir()/"hp.obo").read_text().splitlines():
        if l.startswith("id: "): cur = l[4:]
        elif l.startswith("name: ") and cur: names.setdefault(cur, l[6:])
    hpo = real.table[real.table.kind == "hpo"]
    assert len(hpo) > 50_000
    canon = real.gi.canonical
    for r in hpo.sample(300, random_state=0).itertuples():
        n = int(r.record_ids[0].split(":")[-1])
        db, _, qual, hp, ref, code, onset, freq, _, _, aspect, _ = lines[n - 1].split("\t")
        assert qual == "", r.hyperedge_id                                    # no negated annotation is a hyperedge
        assert dict(zip(r.roles, r.members))["disease"] == canon.get(db, db)
        assert dict(zip(r.roles, r.members)).get("phenotype", dict(zip(r.roles, r.members)).get("clinical course")) == canon.get(hp, hp)
        assert f"evidence {code} (" in r.text
        want = (f"{freq.split('/')[0]} of {freq.split('/')[1]} patients" if "/" in freq else names.get(freq, freq)) if freq else None
        assert (f"frequency {want}" in r.text) if want else ("frequency" not in r.text)
        if onset: assert "; onset " in r.text
        ref_pmids = {int(x[5:]) for x in ref.split(";") if x.startswith("PMID:")}
        assert set(r.pmids) <= ref_pmids
        assert r.evidence_keys == ([f"PMID:{p}" for p in r.pmids] or [f"hpo:{r.record_ids[0]}"])


def test_cpic_hyperedges_match_pair_file(real):
    lines = fetch("cpic-pairs-2018").read_text().splitlines()
    cpic = real.table[real.table.kind == "cpic"]
    pair_rows = real.kg.evidence[real.kg.evidence.record_id.str.startswith("pair_2018.sql:")]
    assert len(cpic) == len(pair_rows) > 0
    names = dict(zip(real.kg.entities.entity_id, real.kg.entities.name))
    for r in cpic.itertuples():
        n = int(r.hyperedge_id.rsplit(":", 1)[1])
        gene, drug, _, level, pgkb, testing, cites = lines[n - 1].split("\t")
        roles = dict(zip(r.roles, r.members))
        assert (names[roles["gene"]], names[roles["drug"]].lower()) == (gene, drug.lower())
        assert f"CPIC level {level}" in r.text
        if pgkb: assert f"PharmGKB level {pgkb}" in r.text
        assert (f"recommendation: {testing}" in r.text) if testing else ("no testing recommendation" in r.text)
        assert {int(c) for c in re.findall(r"\d+", cites)} <= set(r.pmids)
    hla = cpic[cpic.hyperedge_id == "h:cpic:pair_2018.sql:39"].iloc[0]     # the line holding HLA-B / carbamazepine
    assert "HLA-B*15:02" in [names[m] for m, ro in zip(hla.members, hla.roles) if ro == "allele"]


def test_every_guidance_row_in_its_recommendation(real):
    from epigraph.guidance import load_guidance, qualifiers_of, qualifier_phrase
    table = load_guidance().set_index("rec_id")
    g = real.table[real.table.kind == "guideline"]
    ev = real.kg.evidence[real.kg.evidence.source == "guidance"]
    names = dict(zip(real.kg.entities.entity_id, real.kg.entities.name))
    assert sorted(r for rs in g.record_ids for r in rs) == sorted(set(ev.record_id))      # each row in exactly one
    T = real.kg.triplets.set_index("triplet_id")
    for rec, tid in zip(ev.record_id, ev.triplet_id):
        row = table.loc[rec]
        h = g[g.record_ids.map(lambda rs: rec in rs)].iloc[0]
        assert h.hyperedge_id == f"h:guideline:{row.guideline} {row.locator}"
        roles = dict(zip(h.members, h.roles))
        ends = {T.at[tid, "head"], T.at[tid, "tail"]}
        assert any(roles.get(e) == "drug" and names[e].lower() == row.drug.lower() for e in ends), rec
        assert any(roles.get(e) not in (None, "drug", "mentioned") for e in ends), rec       # its condition
        for t in qualifiers_of(row.qualifiers):                                              # its population
            assert qualifier_phrase(t) in h.text and t in json.loads(h.attributes)["qualifiers"][rec], (rec, t)
    assert g.text.str.contains("; population: ").sum() >= 20


def test_registered_deterministic_and_cited(real):
    assert "hypergraph" in retriever_names()
    ev = real.kg.evidence
    known = set("PMID:" + ev.pmid.dropna().astype(int).astype(str)) | set(ev.source + ":" + ev.record_id)
    fresh = Retriever(real.kg)
    uncached = H.hypergraph_index(real.kg, GraphIndex(real.kg), use_cache=False)
    for q in QUERIES:
        a, b = real.R(q, "hypergraph"), fresh(q, "hypergraph")
        c = H.retrieve_hypergraph(uncached.gi, uncached, q)
        assert a.retriever == "hypergraph" and not a.is_empty and a.paths
        for other in (b, c):
            assert (a.text, a.path_ids) == (other.text, other.path_ids)
            assert a.nodes.equals(other.nodes) and a.edges.equals(other.edges)
        cites = [m for line in a.paths for m in CITE.finditer(line)]
        assert cites and all(m.group("key") in known for m in cites)
        assert len(re.findall(r"\[[^\]]*, (?:GUIDELINE|GOLD|SILVER|BRONZE)\]", a.text)) == len(cites)   # no malformed bracket
        edge_trip = real.kg.triplets.set_index("triplet_id").loc[a.edges.triplet_id]
        assert list(edge_trip.tier) == list(a.edges.tier)


@FUZZ
@given(st.text(max_size=120), st.integers(-5, 10**7), st.integers(-3, 5_000),
       st.sampled_from([None, dict(semantic=1.0), dict(overlap=0.0, entity=0.0), dict(centrality=5.0)]))
def test_never_raises(real, query, token_budget, k, weights):
    res = real.R(query, "hypergraph", token_budget=token_budget, k=k, weights=weights)
    assert isinstance(res, Retrieved) and res.retriever == "hypergraph"
    if res.is_empty: assert res.reason
    assert approx_tokens(res.text) <= max(token_budget, 0)
    assert len(res.paths) == len(res.path_ids) <= H.MAX_POOL

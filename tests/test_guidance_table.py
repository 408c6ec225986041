"""The one guidance table checked row by row and against the graph (issue 44).

Every row: its relation and its population (qualifier tokens) agree with the words of its paraphrase; no two rows
give one drug contrary relations for one condition and one population; and every first-line claim the graph makes
stands on a first-line row for the whole condition it names (never on a row for part of its population). Each check
is also run on a copy of the table with one row spoiled, to show that it fails."""
from __future__ import annotations
import json
import pandas as pd
import pytest
from epigraph.guidance import (load_guidance, guidance_path, contradictions, qualifiers_of, qualifier_agrees,
                               relation_agrees, condition_ids, _population_problem)

@pytest.fixture(scope="module")
def table():
    return load_guidance()

def test_every_row_states_its_relation_and_population(table):
    for r in table.itertuples(index=False):
        assert relation_agrees(r.relation, r.paraphrase), r.rec_id
        for t in qualifiers_of(r.qualifiers): assert qualifier_agrees(t, r.paraphrase), (r.rec_id, t)
        assert _population_problem(r.relation, qualifiers_of(r.qualifiers), r.paraphrase) is None, r.rec_id

def test_every_row_has_a_locator_and_one_table(table):
    assert (table.locator.str.strip() != "").all()
    assert not (guidance_path().parent/"guideline_rules.csv").exists()      # the hand table without locators is gone

def test_a_spoiled_row_is_caught(table, tmp_path):
    rows = pd.read_csv(guidance_path(), dtype=str, keep_default_na=False)
    i = rows.index[rows.rec_id == "ng217-5.3.4-lamotrigine"][0]
    p = tmp_path/"bad.csv"
    lost = rows.copy(); lost.loc[i, "qualifiers"] = ""                     # 5.3.4 read as for every absence seizure
    lost.to_csv(p, index=False)
    with pytest.raises(ValueError, match="narrower population: add the qualifier other-seizure-types"): load_guidance(p)
    spoiled = rows.copy(); spoiled.loc[i, "qualifiers"] = "tsc"            # a population its words do not state
    spoiled.to_csv(p, index=False)
    with pytest.raises(ValueError, match="does not state the qualifier tsc"): load_guidance(p)
    later = rows.copy(); j = rows.index[rows.rec_id == "ng217-5.3.2-lamotrigine"][0]
    later.loc[j, "qualifiers"] = ""                                        # a second-line row that lost its line
    later.to_csv(p, index=False)
    with pytest.raises(ValueError, match="after-first-line"): load_guidance(p)

def test_no_contrary_rows(table):
    assert contradictions(table) == []
    extra = table[table.rec_id == "ng217-6.1.2-valproate"].assign(rec_id="x", relation="avoid")
    assert contradictions(pd.concat([table, extra])) == ["ng217-6.1.2-valproate (first_line) and x (avoid): "
                                                         "valproic acid for OMIM:607208"]

def _first_line_claims(kg):
    t = kg.triplets[kg.triplets.predicate == "first_line_for"]
    ev = kg.evidence[kg.evidence.triplet_id.isin(set(t.triplet_id))]
    return t, ev

def test_graph_first_line_claims_map_to_first_line_rows(table):
    from epigraph.build import built_kg
    kg = built_kg()
    rows = table.set_index("rec_id")
    t, ev = _first_line_claims(kg)
    guided = ev[ev.source == "guidance"]
    assert len(guided) > 20
    canon = {x: e for e, xs in zip(kg.entities.entity_id, kg.entities.xrefs) for x in [e, *xs]}
    tails = t.set_index("triplet_id")["tail"]
    for rec, tid in zip(guided.record_id, guided.triplet_id):
        r = rows.loc[rec]
        assert r.relation == "first_line" and not qualifiers_of(r.qualifiers), rec    # no narrower population
        assert tails[tid] in {canon.get(c, c) for c in condition_ids(r.condition_id)}, rec
    # a GUIDELINE first-line triplet rests on guidance rows (literature may add to it, never stand in for it)
    gl = t[t.tier == "GUIDELINE"]
    assert set(gl.triplet_id) <= set(guided.triplet_id)
    # and the qualified first-line rows are there, as treatments of their condition
    qualified = [k for k, r in rows.iterrows() if r.relation == "first_line" and qualifiers_of(r.qualifiers)]
    assert len(qualified) >= 10
    q_ev = kg.evidence[kg.evidence.record_id.isin(qualified) & (kg.evidence.source == "guidance")]
    preds = set(kg.triplets.set_index("triplet_id").predicate[q_ev.triplet_id])
    assert preds == {"treated_with"}
    assert {json.loads(d)["qualifiers"] != [] for d in q_ev.detail} == {True}

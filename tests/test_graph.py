"""The evidence graph on real data: provenance bars, independent counts from the raw files, byte-identical
rebuilds and the exports. Builds the full graph (about 15 s per assembly on 2 cores)."""
import csv, json, re
from collections import Counter
from pathlib import Path

import networkx as nx
import pandas as pd
import pytest

from epigraph.config import SOURCES, fetch
from epigraph.graph import assemble, GOLD, GUIDELINE
from epigraph.graph_checks import unresolvable_evidence, split_names
from epigraph.guidance import load_guidance, qualifiers_of, condition_ids
from epigraph.store import save_kg, load_kg, to_igraph, export_graphml, export_neo4j
from epigraph.ontologies import hpo_data_dir
from epigraph.pmids import load_pmid_registry


# the whole module on one worker (scripts/test runs pytest with --dist loadgroup): the kg fixture (the full graph
# assembled, about 55 s) is built once, not once on each worker that runs one of its tests
pytestmark = pytest.mark.xdist_group("test_graph")


@pytest.fixture(scope="module")
def registry():
    return load_pmid_registry()


@pytest.fixture(scope="module")
def kg(registry):
    return assemble(registry)


@pytest.fixture(scope="module")
def saved(kg, tmp_path_factory):
    return save_kg(kg, tmp_path_factory.mktemp("kg"))


# --- the three provenance bars -------------------------------------------------------------------

def test_every_triplet_has_resolvable_evidence(kg, registry):
    n_ev = kg.evidence.groupby("triplet_id").size().reindex(kg.triplets.triplet_id).fillna(0)
    assert (n_ev >= 1).all()
    assert unresolvable_evidence(kg, registry).empty
    assert kg.evidence.doc_id.notna().all() and (kg.evidence.doc_id.str.strip() != "").all()


def test_every_graph_pmid_is_in_registry(kg, registry):
    pmids = {int(p) for p in kg.evidence.pmid.dropna()} | {p for ps in kg.triplets.pmids for p in ps}
    assert pmids, "the graph cites no PMID at all"
    assert [p for p in pmids if p not in registry] == []
    # a triplet's PMID list is exactly the PMIDs of its evidence rows
    ev = kg.evidence.dropna(subset=["pmid"]).groupby("triplet_id").pmid.agg(lambda s: sorted({int(x) for x in s}))
    t = kg.triplets.set_index("triplet_id").pmids
    assert all(t[i] == ev.get(i, []) for i in t.index[:5000])
    assert (kg.triplets.paper_count == kg.triplets.pmids.map(len)).all()


def test_no_curated_pmid_outside_registry(kg, registry):
    curated = kg.evidence[kg.evidence.source.isin(["hpo", "cpic-data", "cpic-pairs-2018", "guidance"])]
    assert curated.pmid.notna().sum() > 1000
    assert not curated.pmid.dropna().map(lambda p: int(p) not in registry).any()


def test_guidance_pmids_only_from_registry(kg, registry):
    from epigraph.treatment_sources import guidance_claims
    g = load_guidance().set_index("rec_id")
    ev = kg.evidence[(kg.evidence.source == "guidance") & kg.evidence.pmid.notna()]
    assert len(ev) >= 5 and ev.pmid.map(lambda p: int(p) in registry).all()
    assert (ev.pmid.astype(int).to_numpy() == g.pmid.loc[ev.record_id].astype(int).to_numpy()).all()   # its row's PMID
    # a registry that lacks the guideline papers gives the rows no PMID at all (nothing typed from memory)
    table = g.reset_index()
    claims, _ = guidance_claims(table, {d: f"CURATED:{d}" for d in table.drug}, set())
    assert len(claims) and claims.pmid.isna().all()


def test_guidance_rows_each_in_graph(kg):
    g = load_guidance()
    ev = kg.evidence[kg.evidence.source == "guidance"]
    assert len(ev) and set(ev.record_id) <= set(g.rec_id)
    n = ev.groupby("record_id").size()
    placed = g[g.condition_id.str.strip() != ""]
    assert len(placed) > 100
    for r in placed.itertuples():            # one evidence row per condition id, under the row's rec_id
        assert n.get(r.rec_id, 0) == len(condition_ids(r.condition_id)), r.rec_id
    detail = ev.detail.map(json.loads)
    by_id = g.set_index("rec_id")
    assert all(d["qualifiers"] == list(qualifiers_of(by_id.qualifiers[r])) and d["locator"] == by_id.locator[r]
               for d, r in zip(detail, ev.record_id))
    assert ev.quote.str.len().min() > 20


def test_first_line_only_from_unqualified_rows(kg):
    g = load_guidance().set_index("rec_id")
    unqualified_first = {r for r, rel, q in zip(g.index, g.relation, g.qualifiers)
                         if rel == "first_line" and not qualifiers_of(q)}
    pred = dict(zip(kg.triplets.triplet_id, kg.triplets.predicate))
    ev = kg.evidence[kg.evidence.source == "guidance"]
    ev = ev.assign(predicate=ev.triplet_id.map(pred))
    fl = ev[ev.predicate == "first_line_for"]
    assert len(fl) >= 10
    assert set(fl.record_id) <= unqualified_first                 # every first_line_for stands on such a row
    qualified_first = set(g.index[(g.relation == "first_line") & (g.qualifiers.str.strip() != "")])
    q = ev[ev.record_id.isin(qualified_first)]
    assert len(q) and (q.predicate == "treated_with").all()       # a qualified first-line row is a treated_with claim


# --- facts the benchmarks rely on -----------------------------------------------------------------

def test_scn1a_dravet_with_pmids(kg):
    e = kg.entities.set_index("entity_id")
    dravet = e[e.name == "Dravet syndrome"].index.tolist()
    scn1a = e[(e.name == "SCN1A") & (e.type == "gene")].index.tolist()
    assert len(dravet) == 1 and len(scn1a) == 1
    t = kg.triplets[(kg.triplets["head"] == dravet[0]) & (kg.triplets.predicate == "caused_by_gene")
                    & (kg.triplets["tail"] == scn1a[0])]
    assert len(t) == 1 and t.paper_count.iloc[0] >= 1 and t.tier.iloc[0] == GOLD


def test_hla_b_carbamazepine_gold(kg):
    e = kg.entities.set_index("entity_id")
    hla = e[(e.name == "HLA-B") & (e.type == "gene")].index[0]
    cbz = e[e.name.str.lower() == "carbamazepine"].index[0]
    t = kg.triplets[(kg.triplets["head"] == hla) & (kg.triplets["tail"] == cbz)]
    assert t.predicate.tolist() == ["gene_drug_interaction"] and t.tier.iloc[0] == GOLD
    # the allele-level rule (CPIC 2017): carbamazepine contraindicated with HLA-B*15:02 — a guideline's own tier
    allele = e[e.name == "HLA-B*15:02"].index[0]
    r = kg.triplets[(kg.triplets["head"] == cbz) & (kg.triplets["tail"] == allele)]
    assert r.predicate.tolist() == ["contraindicated_with"] and r.tier.iloc[0] == GUIDELINE


# --- counts checked against the raw files, parsed here independently --------------------------------

def test_bc5cdr_cid_count_matches_raw_files(kg):
    cid = set()
    for name in ("bc5cdr-train", "bc5cdr-dev"):
        for line in fetch(name).read_text(encoding="utf-8").splitlines():
            p = line.split("\t")
            if len(p) >= 4 and p[1] == "CID": cid.add((int(p[0]), p[2], p[3]))
    ev = kg.evidence[kg.evidence.extractor == "bc5cdr-gold-annotation"]
    assert len(ev) == len(cid)
    assert set(ev.pmid.astype(int)) == {c[0] for c in cid}


def test_hpo_dravet_phenotype_rows_match_raw_file(kg):
    "Evidence rows of OMIM:607208's phenotype annotations = its non-NOT P/C lines, one per cited PMID."
    expected = {}
    with open(hpo_data_dir()/"phenotype.hpoa", encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            c = line.rstrip("\n").split("\t")
            if c[0] == "OMIM:607208" and c[2] != "NOT" and c[10] in ("P", "C"):
                expected[f"phenotype.hpoa:{no}"] = max(1, sum(r.startswith("PMID:") for r in c[4].split(";")))
    ev = kg.evidence[(kg.evidence.extractor == "hpo-annotation") & kg.evidence.record_id.isin(expected)]
    assert len(expected) > 10
    assert ev.record_id.value_counts().to_dict() == expected


def test_genes4epilepsy_pairs_match_raw_files(kg):
    pairs = set()
    for k in SOURCES:
        if not k.startswith("genes4epilepsy-"): continue
        with open(fetch(k), encoding="utf-8") as f:
            r = csv.DictReader(f, delimiter="\t")
            pheno = next(c for c in r.fieldnames if "henotype" in c)
            for row in r:
                for p in row[pheno].split(","):
                    if p.strip() and p.strip() != "NA": pairs.add((p.strip(), row["HGNC_ID"].strip()))
    ev = kg.evidence[kg.evidence.extractor == "genes4epilepsy"]
    assert len(ev) == len(pairs)


# --- storage and exports --------------------------------------------------------------------------

def test_rebuild_is_byte_identical(saved, registry, tmp_path):
    again = save_kg(assemble(registry), tmp_path/"again")
    files = sorted(p.name for p in saved.iterdir())
    assert "manifest.json" in files and len(files) == 7   # six tables and the manifest
    for f in files: assert (saved/f).read_bytes() == (again/f).read_bytes(), f


def test_manifest_and_tamper_detection(kg, saved, tmp_path):
    m = json.loads((saved/"manifest.json").read_text())
    assert set(m["tables"]) == {"entities", "triplets", "evidence", "conflicts", "rejects", "merges"}
    back = load_kg(saved)
    assert len(back.merges) == len(kg.merges) > 0 and back.merges.applied.dtype == bool
    assert len(back.triplets) == m["tables"]["triplets"]["rows"]
    copy = tmp_path/"copy"; copy.mkdir()
    for p in saved.iterdir(): (copy/p.name).write_bytes(p.read_bytes())
    (copy/"triplets.parquet").write_bytes((copy/"triplets.parquet").read_bytes()[:-10] + b"0123456789")
    with pytest.raises(ValueError, match="differs from manifest"): load_kg(copy)


def test_exports(kg, tmp_path):
    kept = kg.triplets[~kg.triplets.suppressed]
    g = to_igraph(kg)
    assert (g.vcount(), g.ecount()) == (len(kg.entities), len(kept))
    nxg = nx.read_graphml(export_graphml(kg, tmp_path/"kg.graphml"))
    assert nxg.number_of_nodes() == len(kg.entities) and nxg.number_of_edges() == len(kept)
    paths = export_neo4j(kg, tmp_path/"neo4j")
    rel = pd.read_csv(tmp_path/"neo4j"/"relationships.csv")
    nodes = pd.read_csv(tmp_path/"neo4j"/"nodes.csv")
    assert len(rel) == len(kept) and len(nodes) == len(kg.entities)
    assert set(rel[":START_ID"]) | set(rel[":END_ID"]) <= set(nodes["entity_id:ID"])
    cypher = (tmp_path/"neo4j"/"load.cypher").read_text()
    for rtype in rel[":TYPE"].unique(): assert f"[r:{rtype} " in cypher


# --- one entity per concept -----------------------------------------------------------------------

def _duplicate_names(kg) -> dict[str, list[str]]:
    "Names (lower case, trimmed) that two or more entities used by triplets carry — counted here, not by graph code."
    used = set(kg.triplets["head"]) | set(kg.triplets["tail"])
    e = kg.entities[kg.entities.entity_id.isin(used)]
    ids = e.groupby(e.name.str.lower().str.strip()).entity_id.agg(sorted)
    return {k: v for k, v in ids.items() if len(v) > 1}


def test_every_duplicate_name_left_is_explained(kg):
    left = split_names(kg)
    assert sorted(map(sorted, left.entity_ids)) == sorted(_duplicate_names(kg).values())
    assert set(left.why) <= {"different kinds", "one vocabulary", "ambiguous name", "merge held back"}
    # two records of one kind in two vocabularies, one id each (OMIM + Orphanet, HP + MeSH), stay apart only when
    # merging them was held back; MeSH conditions go with either kind
    kind = {"OMIM": "disease", "ORPHA": "disease", "DECIPHER": "disease", "MONDO": "disease", "DOID": "disease",
            "HP": "phenotype"}
    conditions = {"disease", "syndrome", "phenotype", "adverse_effect"}
    for r in left.itertuples():
        prefixes = [i.split(":")[0] for i in r.entity_ids]
        kinds = {kind.get(p) for p in prefixes if p != "MESH"}
        one_each = len(set(prefixes)) == len(prefixes) > 1
        if one_each and len(kinds) == 1 and None not in kinds and set(r.types) <= conditions:
            assert r.why == "merge held back", r


def test_issue_examples_are_one_entity(kg):
    e = kg.entities.set_index("entity_id")
    # "Argininosuccinic aciduria": the OMIM and Orphanet disease records are one entity; the HP term of that name
    # stays apart — HPO annotates other diseases with it (an L2 tail), the disease is the L1 head of its own
    assert "ORPHA:23" in e.loc["OMIM:207900", "xrefs"] and "ORPHA:23" not in e.index
    assert e.loc["HP:0025630", "layer"] == "L2"
    # hypotension, BC5CDR's MESH:D007022 and HPO's HP:0002615: the first CID line (PMID 227508, methyldopa) uses one
    assert "MESH:D007022" in e.loc["HP:0002615", "xrefs"] and "MESH:D007022" not in e.index
    t = kg.triplets
    t = t[(t["head"] == "MESH:D008750") & (t.predicate == "induces") & (t["tail"] == "HP:0002615")]
    assert len(t) == 1 and 227508 in t.pmids.iloc[0]


def test_merges_set_aside_no_evidence(kg, registry, monkeypatch):
    "Against the graph built without the merges across vocabularies: no record set aside more often, no evidence lost."
    import epigraph.graph as graph
    no_rows = lambda *a, **k: pd.DataFrame(columns=["a", "b", "basis", "reason"])
    monkeypatch.setattr(graph, "name_merges", no_rows)
    monkeypatch.setattr(graph, "epio_xref_pairs", no_rows)
    unmerged = graph.assemble(registry)
    before = Counter(zip(unmerged.rejects.source, unmerged.rejects.record_id))
    after = Counter(zip(kg.rejects.source, kg.rejects.record_id))
    assert {k: n for k, n in after.items() if n > before[k]} == {}
    assert len(kg.rejects) <= len(unmerged.rejects) and len(kg.evidence) >= len(unmerged.evidence)
    # the merges happened: fewer entities, fewer duplicate names, and every merge kept says why
    assert len(kg.entities) < len(unmerged.entities)
    assert len(_duplicate_names(kg)) < len(_duplicate_names(unmerged))
    assert kg.merges.reason.str.len().min() > 10 and kg.merges.applied.dtype == bool


# --- the guidance layer --------------------------------------------------------------------------

def test_guidance_rows_enter_as_guideline_tier(kg):
    "Every guidance row with a condition id is GUIDELINE evidence on a triplet naming its drug by its generic name."
    from epigraph.guidance import load_guidance, condition_ids
    g = load_guidance()
    ev = kg.evidence[kg.evidence.source == "guidance"].merge(kg.triplets[["triplet_id", "head", "tail", "tier"]],
                                                             on="triplet_id")
    with_id = g[g.condition_id != ""]
    assert set(ev.record_id) == set(with_id.rec_id)                                  # none lost on the way in
    assert len(ev) == sum(len(condition_ids(c)) for c in with_id.condition_id)        # one row per condition id
    assert (ev.tier == GUIDELINE).all()
    names = kg.entities.set_index("entity_id").name.str.lower()
    drug = g.set_index("rec_id").drug.str.lower()
    ends = ev.assign(h=ev["head"].map(names), t=ev["tail"].map(names), d=ev.record_id.map(drug))
    assert ((ends.h == ends.d) | (ends.t == ends.d)).all(), ends[(ends.h != ends.d) & (ends.t != ends.d)][["record_id", "h", "t"]]
    aside = kg.rejects[kg.rejects.source == "guidance"]
    assert set(aside.record_id) == set(g[g.condition_id == ""].rec_id)                # population rules, counted


def test_dravet_first_line_answer_cites_locators():
    "The issue's question: first line, add-on as add-on, the drugs that may worsen it — each with its guidance row."
    from epigraph.answer import answer
    a = answer("What is the first-line treatment for Dravet syndrome?")
    def sentence(start: str) -> str:                  # a citation holds no ". ", so it ends the sentence
        i = a.text.index(start); j = a.text.find(". ", i)
        return a.text[i:j if j > 0 else None]
    first = sentence("Valproic acid")
    assert a.text.startswith(first) and first.startswith("Valproic acid is a first-line treatment for Dravet syndrome")
    assert "guidance:ng217-6.1.2" in first
    assert "stiripentol [guidance:ng217-6.1.3" in sentence("Add-on treatments for Dravet syndrome (once earlier "
                                                           "treatment has failed): ")
    assert "[guidance:ng217-6.1.7" in sentence("Drugs that may worsen Dravet syndrome: ")
    assert "first-line treatment for Dravet syndrome" not in a.text.replace(first, "")   # no add-on called first line

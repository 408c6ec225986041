"""Checks of epigraph.bench on the real records: every item of every task, gold answers in their options,
distractors not gold (re-checked from the raw sources or the graph's triplet table, not through the builders'
own helpers), gold evidence keys that resolve, provenance records that exist, determinism and a stable split.
Builds every task twice or three times (about a minute).

Run: python -m pytest -q tests/test_bench.py
"""
import json
from dataclasses import asdict

import pandas as pd
import pytest

from epigraph import bench, tasks as task_builders
from epigraph.config import fetch
from epigraph.curated import load_cpic, load_genes4epilepsy
from epigraph.guidance import load_guidance
from epigraph.ontologies import hpo_data_dir
from epigraph.pmids import load_pmid_registry


# the whole module on one worker (scripts/test runs pytest with --dist loadgroup): the tasks fixture (every EpiBench
# task built, about 80 s) is built once, not once on each worker that runs one of its tests
pytestmark = pytest.mark.xdist_group("test_bench")


@pytest.fixture(scope="module")
def tasks():
    return {n: bench.build_task(n) for n in bench.task_names()}


@pytest.fixture(scope="module")
def kg():
    return bench.bench_kg()


@pytest.fixture(scope="module")
def items(tasks):
    return [i for v in tasks.values() for i in v]


def test_all_requested_tasks_are_registered_and_nonempty(tasks):
    want = {"t1_pubmedqa", "t1_graph_mc", "t3_precision", "t4_constraints", "drug_induced", "temporal", "clinical_course"}
    assert want <= set(bench.task_names())
    assert all(len(tasks[n]) > 0 for n in want)


def test_gold_is_the_option_at_answer_index_and_options_are_distinct(items):
    for it in items:
        assert it.options, it.item_id
        assert it.options[it.answer_index] == it.answer
        assert len(set(it.options)) == len(it.options)
        assert sum(o == it.answer for o in it.options) == 1     # no distractor equals the gold
        assert len(it.option_ids) == len(it.options)
        assert it.split in ("tune", "report") and it.kind
    assert len({i.item_id for i in items}) == len(items)


def test_multiple_choice_tasks_have_four_options(tasks):
    for n in ("t1_graph_mc", "t3_precision", "t4_constraints"):
        assert {len(i.options) for i in tasks[n]} == {4}, n


def test_gold_evidence_keys_resolve(items, kg):
    registry = load_pmid_registry()
    ev_keys = {f"{s}:{r}" for s, r in zip(kg.evidence.source, kg.evidence.record_id)}
    for it in items:
        assert it.gold_evidence
        for k in it.gold_evidence:
            assert (k.startswith("PMID:") and int(k[5:]) in registry) or k in ev_keys, (it.item_id, k)


def test_provenance_record_exists_in_its_source(items):
    for it in items:
        rec = bench.source_record(it.provenance["source"], it.provenance["record_id"])
        assert rec is not None, it.item_id


def test_pubmedqa_labels_from_the_raw_json(tasks):
    raw = json.loads(fetch("pubmedqa").read_text())
    for it in tasks["t1_pubmedqa"]:
        r = raw[it.provenance["record_id"]]
        assert (it.answer, it.question) == (r["final_decision"], r["QUESTION"])
        assert it.gold_evidence == [f"PMID:{it.provenance['record_id']}"]


def test_graph_mc_gold_linked_and_distractors_not_linked(tasks, kg):
    t = kg.triplets[~kg.triplets.suppressed.astype(bool)]
    linked = set(zip(t["head"], t["tail"])) | set(zip(t["tail"], t["head"]))
    layer = dict(zip(kg.entities.entity_id, kg.entities.layer))
    etype = dict(zip(kg.entities.entity_id, kg.entities.type))
    for it in tasks["t1_graph_mc"]:
        q = it.meta["question_entity"]
        gold = it.option_ids[it.answer_index]
        assert (q, gold) in linked
        between = t[t.triplet_id.isin(it.provenance["triplet_ids"])]
        assert {frozenset(p) for p in zip(between["head"], between["tail"])} == {frozenset((q, gold))}
        for o in it.option_ids:
            assert layer[o] == layer[gold] and etype[o] == etype[gold], it.item_id
            if o != gold: assert (q, o) not in linked, (it.item_id, o)


def test_graph_mc_holds_out_its_own_publication_and_another_answers(tasks, kg):
    "The rows held out are the fact's, citing the item's publication or none; what stays cites other PMIDs only."
    ev = kg.evidence.set_index("evidence_id")
    for it in tasks["t1_graph_mc"]:
        on_fact = ev[ev.triplet_id.isin(it.provenance["triplet_ids"])]
        held = on_fact.loc[on_fact.index.isin(it.meta["held_out_evidence"])]
        rest = on_fact.drop(held.index)
        assert len(held) == len(it.meta["held_out_evidence"]) and "held_out" not in it.meta
        assert all(pd.isna(p) or int(p) == it.provenance["pmid"] for p in held.pmid), it.item_id
        assert int(held.loc[held.record_id == it.provenance["record_id"]].pmid.iloc[0]) == it.provenance["pmid"]
        assert len(rest) and rest.pmid.notna().all(), it.item_id
        assert it.provenance["pmid"] not in {int(p) for p in rest.pmid}
        assert it.gold_evidence == sorted({f"PMID:{int(p)}" for p in rest.pmid}), it.item_id


def _guidance_ids(kg):
    "Guidance rows resolved to graph ids from their evidence rows: rec_id → [(drug, relation, condition), …]."
    ev = kg.evidence[kg.evidence.source == "guidance"].merge(kg.triplets[["triplet_id", "head", "predicate", "tail"]], on="triplet_id")
    rel = load_guidance().set_index("rec_id").relation
    out = {}
    for r, h, p, t in zip(ev.record_id, ev["head"], ev.predicate, ev["tail"]):
        flip = p in ("treated_with", "pharmacogenomic_recommendation")        # these run condition (or gene) → drug
        out.setdefault(r, []).append((t, rel[r], h) if flip else (h, rel[r], t))
    return out


def test_guidance_ids_agree_with_the_table(kg):
    name = kg.entities.set_index("entity_id").name.str.lower()
    rows = _guidance_ids(kg)
    table = load_guidance().set_index("rec_id")
    group = {}                                            # applied merges, chained (ORPHA:1942 → MONDO → OMIM)
    for a, b, ok in zip(kg.merges.a, kg.merges.b, kg.merges.applied):
        if ok:
            g = group.get(a, {a}) | group.get(b, {b})
            for x in g: group[x] = g
    merged = {(a, b) for a, g in group.items() for b in g}
    assert len(rows) >= 150 and set(rows) <= set(table.index)
    for rec, edges in rows.items():
        r = table.loc[rec]
        for d, rel, c in edges:
            ids = r.condition_id.split("|")
            assert rel == r.relation and (c in ids or any((c, x) in merged or (x, c) in merged for x in ids)), rec
            assert name[d] == r.drug.lower(), (rec, name[d], r.drug)


def test_t3_and_t4_contraindications_follow_the_table(tasks, kg):
    rows = load_guidance()
    edges = [(rec, *e) for rec, es in _guidance_ids(kg).items() for e in es]
    harm = {(d, c) for _, d, rel, c in edges if rel in ("avoid", "contraindicated")}
    unqualified = set(rows[rows.qualifiers == ""].rec_id)
    helps = {(d, c) for rec, d, rel, c in edges if rel == "first_line" and rec in unqualified}
    named = {(d, c) for _, d, rel, c in edges if rel in ("first_line", "adjunctive", "alternative")}
    drug_of = rows.set_index("rec_id").drug
    against_all = rows[(rows.condition_id == "") & rows.relation.isin(["avoid", "contraindicated"])]   # no condition id
    anyone = {d for rec, d, *_ in edges if drug_of[rec] in set(against_all.drug)}
    for it in tasks["t4_constraints"]:
        c = it.meta["constraints"]
        conds = {c["syndrome"]} | ({"CURATED:women-of-childbearing-potential"} if c["childbearing_potential"] else set()) \
                | ({c["genotype"]} if c["genotype"] else set())
        assert it.meta["contraindicated"] == [i for i, o in enumerate(it.option_ids)
                                              if any((o, x) in harm for x in conds) or o in anyone]
        gold = it.option_ids[it.answer_index]
        assert (gold, c["syndrome"]) in helps and it.answer_index not in it.meta["contraindicated"]
        # no other option is a drug the table names first-line for the condition and allows for this patient
        assert not [o for i, o in enumerate(it.option_ids) if o != gold and (o, c["syndrome"]) in helps and i not in it.meta["contraindicated"]]
    for it in tasks["t3_precision"]:
        gold = it.option_ids[it.answer_index]
        if it.kind == "avoid":
            assert it.meta["contraindicated"] == [it.answer_index]
        if it.kind == "recommend":
            s = it.meta["chain"][1]
            assert (gold, s) in named and not [o for o in it.option_ids if o != gold and (o, s) in named]
            assert it.meta["contraindicated"] == [i for i, o in enumerate(it.option_ids) if (o, s) in harm]


def test_t3_pgx_pairs_from_the_cpic_pair_table(tasks, kg):
    cpic = load_cpic()
    name = kg.entities.set_index("entity_id").name.str.lower()
    pairs = set(zip(cpic["pairs"].gene_symbol, cpic["pairs"].drug_name))
    for it in (i for i in tasks["t3_precision"] if i.kind == "pgx_pair"):
        rec = bench.source_record(it.provenance["source"], it.provenance["record_id"])
        assert (rec.gene_symbol, rec.drug_name) == (it.meta["gene"], name[it.option_ids[it.answer_index]])
        assert [(it.meta["gene"], name[o]) in pairs for o in it.option_ids] == [i == it.answer_index for i in range(4)]


def test_drug_induced_against_the_raw_pubtator_file(tasks):
    cid = {tuple(l.split("\t")) for l in fetch("bc5cdr-train").read_text().splitlines() if "\tCID\t" in l}
    seiz = {s.split(":")[1] for s in task_builders.seizure_disease_ids()}
    by_chem = {}
    for pmid, _, chem, dis in cid:
        if dis in seiz: by_chem.setdefault("MESH:" + chem, set()).add(int(pmid))
    its = tasks["drug_induced"]
    assert sum(i.answer == "yes" for i in its) == sum(i.answer == "no" for i in its)
    for it in its:
        chem = it.meta["chemical"]
        cited = {int(k[5:]) for k in it.gold_evidence}
        if it.answer == "yes": assert cited <= by_chem[chem]
        else: assert chem not in by_chem


def test_temporal_gold_from_publication_and_release_rows(tasks):
    cpic, g4e = load_cpic(), load_genes4epilepsy()["genes"]
    pubs = cpic["publications"].dropna(subset=["pmid", "guideline_id"])
    for it in tasks["temporal"]:
        if it.kind == "guideline_in_force":
            gid = cpic["guidelines"].set_index("name").guideline_id[it.meta["guideline"]]
            day = pd.Timestamp(it.meta["as_of"])
            before = pubs[(pubs.guideline_id == gid) & (pubs.publication_date <= day)]
            if it.answer.startswith("No CPIC"):
                assert len(before) == 0 or (it.meta["drug"] == "fosphenytoin" and day < cpic["phenytoin_2020"].date.min())
            else:
                assert it.answer.endswith(f"PMID {int(before.sort_values('publication_date').pmid.iloc[-1])})")
        elif it.kind == "g4e_membership":
            rel = g4e[g4e.release_date <= pd.Timestamp(it.meta["as_of"])].release.max()
            on = set(g4e[g4e.release == rel].hgnc_id)
            assert [o in on for o in it.option_ids] == [i == it.answer_index for i in range(4)]


def test_clinical_course_gold_from_the_raw_hpo_line(tasks):
    lines = (hpo_data_dir()/"phenotype.hpoa").read_text().splitlines()
    for it in tasks["clinical_course"]:
        cols = lines[int(it.provenance["record_id"].split(":")[1]) - 1].split("\t")
        assert cols[0] == it.meta["disease"] and cols[2] != "NOT"
        gold = it.option_ids[it.answer_index]
        if it.kind == "onset_window":
            assert cols[3] == gold and cols[10] == "C"
            assert not set(it.option_ids) - {gold} & set(it.meta["annotated"])
        else:
            assert (cols[3], cols[6]) == (gold, it.meta["onsets"][gold])


def test_two_builds_are_identical(tasks):
    again = {n: bench.build_task(n) for n in bench.task_names()}
    assert {n: [asdict(i) for i in v] for n, v in again.items()} == {n: [asdict(i) for i in v] for n, v in tasks.items()}


def test_split_is_stable_and_about_one_fifth_tune(tasks, items):
    other = {i.item_id: i for n in ("t3_precision", "t4_constraints", "clinical_course") for i in bench.build_task(n, seed=7)}
    base = {i.item_id: i for i in items}
    shared = set(other) & set(base)
    assert shared and all(other[k].split == base[k].split for k in shared)
    assert any(other[k].options != base[k].options for k in shared)          # another seed, other distractors
    groups = pd.DataFrame([(i.meta["group"], i.split) for i in items], columns=["group", "split"])
    assert (groups.groupby("group").split.nunique() == 1).all()            # variants of one fact never straddle
    share = (groups.split == "tune").mean()
    assert 0.12 < share < 0.28, share
    assert all(i.split == bench.split_of(i.meta["group"]) for i in items)


def test_registry_and_errors():
    with pytest.raises(KeyError, match="not registered"):
        bench.build_task("no such task")
    # a synthetic task (sentinel PMID) through the registry: the split is assigned and a wrong gold is caught
    def synthetic(seed=0):
        return [bench.Item("synthetic", "synthetic:1", "Synthetic?", ["yes", "no"], [None, None], "yes", 1,
                           ["PMID:900000001"], dict(source="synthetic", record_id="1"))]
    bench.register_task("synthetic", synthetic, "synthetic, sentinel PMID")
    try:
        with pytest.raises(ValueError, match="is not option 1"):
            bench.build_task("synthetic")
    finally:
        bench.TASKS.pop("synthetic")
    assert "synthetic" not in bench.task_names()


def test_graph_mc_hpo_provenance_lines_name_the_fact(tasks, kg):
    "An HPO item's record is the phenotype.hpoa line of its fact, and that line cites the item's publication."
    lines = (hpo_data_dir() / "phenotype.hpoa").read_text().splitlines()
    E = kg.entities.set_index("entity_id")
    hpo_items = [i for i in tasks["t1_graph_mc"] if i.provenance["source"] == "hpo"]
    assert {i.kind for i in hpo_items} == {"disease_phenotype"}
    for it in hpo_items:
        f, line = it.provenance["record_id"].rsplit(":", 1)
        cols = lines[int(line) - 1].split("\t")
        q, gold = it.meta["question_entity"], it.option_ids[it.answer_index]
        assert f == "phenotype.hpoa" and cols[0] in {q, *E.xrefs[q]} and cols[3] == gold, (it.item_id, cols)
        assert f"PMID:{it.provenance['pmid']}" in cols[4].split(";"), (it.item_id, cols[4])

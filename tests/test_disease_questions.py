"""Fast checks of the disease dev benchmark (scripts/disease_questions.py, data/questions/disease_dev.jsonl).

The sampler: deterministic, every question asks by a label unlike HPO's name, every gold re-read from its HPO line,
no id or disease twice. The scorer: its verdict and error cause on hand-made answer records (synthetic: sentinel
PMIDs >= 900000000, made-up entity ids). No benchmark number is asserted here.

Run: python -m pytest -q tests/test_disease_questions.py
"""
import importlib.util, sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("disease_questions", ROOT/"scripts"/"disease_questions.py")
dq = sys.modules.setdefault("disease_questions", importlib.util.module_from_spec(spec)); spec.loader.exec_module(dq)


@pytest.fixture(scope="module")
def sources():
    if not (dq.mondo_dir()/"mondo_exactmatch_omim.sssom.tsv").exists(): pytest.skip("Mondo mapping sets not here")
    diseases, hp_names = dq.hpo_diseases()
    return diseases, hp_names, dq.mondo_labels()

@pytest.fixture(scope="module")
def committed():
    assert dq.QUESTIONS.exists(), "run python scripts/disease_questions.py build"
    return dq.read_items(dq.QUESTIONS)

def sample(sources, n=None, seed=dq.SEED):
    diseases, hp_names, mondo = sources
    return dq.sample_questions(n or {"gene": 100, "inheritance": 100, "onset": 50}, seed, diseases, hp_names, mondo)


# --- the sampler ------------------------------------------------------------------------------------------

def test_fold():
    assert dq.fold("Aicardi-Goutières syndrome, 1") == "aicardi goutieres syndrome 1" == dq.fold("AICARDI GOUTIERES Syndrome 1")

def test_committed_file_is_the_default_build(sources, committed):
    assert sample(sources) == committed          # same seed, same sources -> the same file

def test_seed_changes_the_sample(sources):
    a, b = sample(sources, {"gene": 20}), sample(sources, {"gene": 20}, seed=dq.SEED + 1)
    assert a == sample(sources, {"gene": 20}) and a != b

def test_labels_differ_from_hpo_names(committed):
    for i in committed:
        assert dq.fold(i["label_used"]) != dq.fold(i["hpo_name"]), i["id"]
        assert i["label_used"] in i["question"] and i["mondo_id"].startswith("MONDO:"), i["id"]

def test_labels_are_mondos(sources, committed):
    _, _, mondo = sources
    for i in committed:
        assert dq.mondo_dir().exists() and mondo.mondo_of[i["disease_id"]] == [i["mondo_id"]], i["id"]
        assert (i["label_used"], i["label_source"]) in mondo.labels[i["mondo_id"]], i["id"]

def test_ids_and_diseases_unique(committed):
    assert len({i["id"] for i in committed}) == len(committed)
    assert len({i["disease_id"] for i in committed}) == len(committed)      # no disease in two kinds
    assert set(Counter(i["kind"] for i in committed)) == set(dq.KINDS)
    for i in committed: assert i["question"] in {t.format(d=i["label_used"]) for t in dq.PHRASINGS[i["kind"]]}

def _lines(path: Path, wanted: set[int]) -> dict[int, list[str]]:
    out = {}
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if no in wanted: out[no] = line.rstrip("\n").split("\t")
    return out

def test_golds_are_in_hpo_files(committed):
    folder = dq.hpo_dir()
    names, children = dq.hp_terms(folder/"hp.obo")
    modes, onsets = dq.descendants(dq.INHERITANCE_ROOT, children), dq.descendants(dq.ONSET_ROOT, children)
    qualifiers = dq.descendants(dq.INHERITANCE_QUALIFIER, children)
    no = lambda g: int(g["record"].rsplit(":", 1)[1])
    hpoa = _lines(folder/"phenotype.hpoa", {no(g) for i in committed if i["kind"] != "gene" for g in i["gold"]})
    g2p = _lines(folder/"genes_to_phenotype.txt", {no(g) for i in committed if i["kind"] == "gene" for g in i["gold"]})
    for i in committed:
        assert i["gold"], i["id"]
        for g in i["gold"]:
            if i["kind"] == "gene":
                assert g["record"].startswith("genes_to_phenotype.txt:"), i["id"]
                c = g2p[no(g)]      # ncbi_gene_id, gene_symbol, hpo_id, hpo_name, frequency, disease_id
                assert (c[5], c[1], f"NCBIGene:{c[0]}") == (i["disease_id"], g["symbol"], g["id"]), i["id"]
            else:
                assert g["record"].startswith("phenotype.hpoa:"), i["id"]
                c = hpoa[no(g)]
                assert (c[0], c[2], c[3]) == (i["disease_id"], "", g["id"]), i["id"]
                assert dq.fold(c[1]) != dq.fold(i["label_used"]), i["id"]    # unlike every name HPO gives it
                assert c[10] == {"inheritance": "I", "onset": "C"}[i["kind"]] and names[g["id"]] == g["name"], i["id"]
                assert g["id"] in (modes - qualifiers if i["kind"] == "inheritance" else onsets), i["id"]


# --- the scorer (synthetic records) -----------------------------------------------------------------------

SYN_GRAPH = dq.GraphView(   # synthetic: a disease OMIM:9990001 (xref ORPHA:9990001), a phenotype, another disease
    types={"OMIM:9990001": "disease", "OMIM:9990002": "disease", "HP:9990003": "phenotype", "NCBIGene:9990004": "gene"},
    by_xref={"ORPHA:9990001": {"OMIM:9990001"}}, gene_names={"NCBIGene:9990004": "GENEX"},
    facts={"OMIM:9990001": {("caused_by_gene", "NCBIGene:9990004"), ("characterized_by", "HP:0000007")}})

def syn_item(kind="gene", disease_id="ORPHA:9990001"):
    gold = ([{"id": "NCBIGene:9990004", "symbol": "GENEX", "record": "genes_to_phenotype.txt:1"}] if kind == "gene" else
            [{"id": "HP:0000007", "name": "Autosomal recessive inheritance", "record": "phenotype.hpoa:1"}])
    return dict(id="syn-1", kind=kind, question="synthetic", disease_id=disease_id, mondo_id="MONDO:9990001",
                label_used="synthetic label disease", hpo_name="Synthetic disease, autosomal recessive", gold=gold)

def syn_record(answer, linked=(("OMIM:9990001", "disease"),), keys=("PMID:900000001", "hpo:genes_to_phenotype.txt:1")):
    return dict(answer=answer, evidence_keys=list(keys),
                parse=dict(entities=[dict(entity_id=i, name="Synthetic disease, autosomal recessive", type=t)
                                     for i, t in linked]))

def test_right_needs_gold_and_citation_in_one_clause():
    j = dq.judge(syn_item(), syn_record("Synthetic disease can be caused by variants in GENEX [PMID:900000001, GOLD] "
                                        "[hpo:genes_to_phenotype.txt:1 (2025-01-16), GOLD]."), SYN_GRAPH)
    assert j["right"] and j["cause"] == "" and j["fact_in_graph"]
    j = dq.judge(syn_item(), syn_record("Synthetic disease can be caused by variants in GENEX. Also [PMID:900000001]."),
                 SYN_GRAPH)
    assert not j["right"] and j["cause"] == "d"         # the gene's sentence has no citation
    j = dq.judge(syn_item(), syn_record("It is caused by GENEX [PMID:900000009]."), SYN_GRAPH)
    assert not j["right"]                               # cites a key that is not among the evidence given
    assert not dq.judge(syn_item(), syn_record("Caused by GENEXY [PMID:900000001]."), SYN_GRAPH)["right"]

def test_inheritance_by_name_words_not_by_the_disease_name():
    ok = "Yes. Synthetic disease is inherited as autosomal recessive inheritance [PMID:900000001, GOLD]."
    assert dq.judge(syn_item("inheritance"), syn_record(ok), SYN_GRAPH)["right"]
    echo = "Synthetic disease, autosomal recessive is characterized by seizures [PMID:900000001, GOLD]."
    j = dq.judge(syn_item("inheritance"), syn_record(echo), SYN_GRAPH)
    assert not j["right"] and j["cause"] == "d"        # the mode is only in the disease's own name

def test_causes_of_wrong_answers():
    none = "The evidence graph holds nothing on any entity named in the question."
    assert dq.judge(syn_item(), syn_record(none, linked=()), SYN_GRAPH)["cause"] == "a"
    assert dq.judge(syn_item(), syn_record(none, linked=(("HP:9990003", "phenotype"),)), SYN_GRAPH)["cause"] == "b"
    assert dq.judge(syn_item(), syn_record(none, linked=(("HP:9990003", "phenotype"), ("OMIM:9990002", "disease"))),
                    SYN_GRAPH)["cause"] == "c"
    assert dq.judge(syn_item(), syn_record(none, linked=(("HP:9990003", "phenotype"), ("NCBIGene:9990004", "gene"))),
                    SYN_GRAPH)["cause"] == "b"         # a gene the label names does not make it another disease
    j = dq.judge(syn_item(), syn_record(none), SYN_GRAPH)
    assert j["cause"] == "d" and j["fact_on_linked"]
    j = dq.judge(syn_item(disease_id="ORPHA:9990099"), syn_record(none, linked=()), SYN_GRAPH)
    assert j["cause"] == "e" and not j["disease_in_graph"]

def test_summary_and_limit():
    rows = [dict(kind="gene", right=True, cause="", fact_in_graph=True, fact_on_linked=True, label_in_graph=True),
            dict(kind="gene", right=False, cause="d", fact_in_graph=True, fact_on_linked=False, label_in_graph=False)]
    s = dq.summary(rows)
    assert "0.50" in s and "gene 1/2" in s and "1 only on another graph entity" in s
    items = [dict(kind=k, id=f"{k}{n}") for k in dq.KINDS for n in range(3)]
    assert [i["id"] for i in dq.limited(items, 2)] == ["gene0", "gene1", "inheritance0", "inheritance1", "onset0", "onset1"]

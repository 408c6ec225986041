"""scripts/free_questions.py: the scoring rule of the sealed free questions, on synthetic golds and answers (the
questions and PMIDs below are made up for the test; sentinel PMIDs ≥ 900000000). Fast: no graph is loaded.

Run: python -m pytest -q tests/test_free_questions.py
"""
import importlib.util
from pathlib import Path

_SCRIPT = Path(__file__).parent.parent / "scripts" / "free_questions.py"
_spec = importlib.util.spec_from_file_location("free_questions", _SCRIPT)
fq = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(fq)


def item(answers=(), yes_no=None, abstain=False):
    return dict(id="t", family="f", question="q?", gold=dict(answers=list(answers), yes_no=yes_no, abstain=abstain))


def test_abstention_is_right_only_without_citations():
    assert fq.correct(item(abstain=True), "The evidence graph holds nothing on X.", set(), {})
    assert not fq.correct(item(abstain=True), "X is Y [PMID:900000001, GOLD].", {"PMID:900000001"}, {})


def test_yes_no_reads_the_first_word_and_a_yes_needs_a_citation():
    assert fq.correct(item(yes_no="no"), "No. KCNQ2 is in every release.", set(), {})
    assert not fq.correct(item(yes_no="no"), "The evidence graph does not say: nothing links X.", set(), {})
    assert not fq.correct(item(yes_no="yes"), "Yes.", set(), {})
    assert fq.correct(item(yes_no="yes"), "Yes. X induces Y [PMID:900000001, GOLD].", {"PMID:900000001"}, {})
    assert not fq.correct(item(yes_no="yes"), "No. X does not induce Y [PMID:900000001, GOLD].", {"PMID:900000001"}, {})


def test_a_capitalised_gold_reads_as_the_same_yes_or_no():
    # the gene-named sealed set writes its golds "Yes"/"No": they must not fall through to the no-answer rule
    assert fq.correct(item(yes_no="Yes"), "Yes. X is inherited as autosomal dominant [PMID:900000001].",
                      {"PMID:900000001"}, {})
    assert not fq.correct(item(yes_no="Yes"), "The evidence graph does not say: nothing links X.", set(), {})
    assert not fq.correct(item(yes_no="No"), "The evidence graph does not say: nothing links X.", set(), {})


def test_every_answer_must_be_stated_by_name_id_or_release():
    two = item([dict(id="X:1", name="alpha"), dict(name="beta")])
    cited = {"PMID:900000001"}
    assert fq.correct(two, "Alpha and beta [PMID:900000001, GOLD].", cited, {})
    assert not fq.correct(two, "Alpha only [PMID:900000001, GOLD].", cited, {})
    assert not fq.correct(two, "Alpha and beta.", set(), {})                      # nothing cited
    assert fq.correct(two, "A1 and beta [PMID:900000001, GOLD].", cited, {"X:1": ["A1"]})   # a graph name of the id
    rel = item([dict(name="Genes4Epilepsy 2022-09", release="2022-09")])
    key = {"genes4epilepsy:HGNC:1/G@2022-09..2026-03"}
    assert fq.correct(rel, "G is listed since 2022-09 [genes4epilepsy:HGNC:1/G@2022-09..2026-03, GOLD].", key, {})
    assert not fq.correct(rel, "G is an epilepsy gene [genes4epilepsy:HGNC:1/G@2022-09..2026-03, GOLD].", key, {})


def test_a_pharmacogenomic_action_must_be_said():
    dose = item([dict(name="phenytoin", action="lower the dose")])
    cited = {"PMID:900000002"}
    assert fq.correct(dose, "Reduce the starting dose of phenytoin [PMID:900000002, GOLD].", cited, {})
    assert fq.correct(dose, "Phenytoin: start at a dose 25% lower [PMID:900000002, GOLD].", cited, {})
    assert not fq.correct(dose, "Phenytoin interacts with CYP2C9 [PMID:900000002, GOLD].", cited, {})
    avoid = item([dict(name="carbamazepine", action="avoid")])
    assert fq.correct(avoid, "Do not use carbamazepine [PMID:900000002, GOLD].", cited, {})
    assert not fq.correct(avoid, "Carbamazepine is first line [PMID:900000002, GOLD].", cited, {})


def test_an_empty_gold_wants_none_said_or_nothing_cited():
    assert fq.correct(item(), "None: every gene of 2025-09 is in 2026-03 [x:1, GOLD].", {"x:1"}, {})
    assert fq.correct(item(), "The evidence graph holds nothing on that.", set(), {})
    assert not fq.correct(item(), "SCN1A was removed [x:1, GOLD].", {"x:1"}, {})

"""Issue 44's treatment questions: the gold derivation and the scorer of `scripts/treatment_questions.py`, on small
hand-made tables and answers (no graph, retriever or reader); and the shapes of the dev and sealed files."""
import importlib.util, json
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("treatment_questions", ROOT/"scripts"/"treatment_questions.py")
tq = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(tq)


def row(rec_id, drug, relation, cond, quals=""):
    return dict(rec_id=rec_id, drug=drug, relation=relation, condition_id=cond, locator=rec_id,
                condition_ids=set(cond.split("|")), quals=frozenset(q for q in quals.split(";") if q))

TABLE = [row("abs-eto", "ethosuximide", "first_line", "HP:A"),
         row("abs-vpa-ost", "valproic acid", "first_line", "HP:A", "other-seizure-types"),
         row("abs-ltg-ost", "lamotrigine", "first_line", "HP:A", "other-seizure-types"),
         row("abs-vpa-add", "valproic acid", "adjunctive", "HP:A", "after-first-line"),
         row("abs-eto-add", "ethosuximide", "adjunctive", "HP:A", "other-seizure-types;after-first-line"),
         row("abs-cbz", "carbamazepine", "avoid", "HP:A"),
         row("wcbp-vpa", "valproic acid", "avoid", "CUR:W", "childbearing"),
         row("ts-vgb", "vigabatrin", "first_line", "HP:S|HP:T", "tsc")]


def ids(conds, pop, asks): return [r["rec_id"] for r in tq.gold_rows(TABLE, conds, pop, asks)]

def test_gold_without_population_takes_unqualified_rows():
    assert ids(["HP:A"], [], ["first_line"]) == ["abs-eto"]
    assert ids(["HP:A"], [], ["avoid"]) == ["abs-cbz"]
    assert ids(["HP:A"], [], ["adjunctive"]) == ["abs-vpa-add"]     # after-first-line alone does not qualify a row

def test_gold_with_population_takes_rows_holding_every_token():
    assert ids(["HP:A"], ["other-seizure-types"], ["first_line"]) == ["abs-vpa-ost", "abs-ltg-ost"]
    # "if ethosuximide fails": the add-on row for absences *with other seizure types* is for a population not stated
    assert ids(["HP:A"], ["after-first-line"], ["adjunctive"]) == ["abs-vpa-add"]
    assert ids(["HP:A"], ["other-seizure-types", "after-first-line"], ["adjunctive"]) == ["abs-eto-add"]
    assert ids(["HP:T"], ["tsc"], ["first_line"]) == ["ts-vgb"]        # one CURIE of a `|`-joined condition_id

def test_gold_population_token_absent_from_a_condition_reads_it_unqualified():
    # "absence seizures in a girl of 15": `childbearing` selects only the childbearing rows' condition
    assert ids(["HP:A", "CUR:W"], ["childbearing"], ["first_line", "avoid"]) == ["abs-eto", "abs-cbz", "wcbp-vpa"]

def item(conds, pop, asks):
    rows = tq.gold_rows(TABLE, conds, pop, asks)
    return dict(condition_ids=conds, population=pop, asks=asks, gold=[r["rec_id"] for r in rows],
                gold_rows=[dict(rec_id=r["rec_id"], drug=r["drug"], relation=r["relation"],
                                qualifiers=sorted(r["quals"]), locator=r["locator"]) for r in rows])

def group(relation, quals, *answers):
    return dict(subject="HP:A", relation=relation, qualifiers=list(quals),
                answers=[dict(id=f"MESH:{n}", name=n, keys=list(k)) for n, k in answers])

OST = dict(conds=["HP:A"], pop=["other-seizure-types"], asks=["first_line"])
RIGHT = [group("first_line", ["other-seizure-types"], ("Valproic Acid", ["guidance:abs-vpa-ost"]),
               ("lamotrigine", ["guidance:abs-ltg-ost", "PMID:1"])),
         group("avoid", [], ("carbamazepine", ["guidance:abs-cbz"])),          # a right extra group is allowed
         group("treated", [], ("zonisamide", ["PMID:2"]))]                     # literature: not scored

def judged(groups, it=None):
    return tq.judge(it or item(OST["conds"], OST["pop"], OST["asks"]), groups, TABLE)

def test_right_answer_scores_right():
    j = judged(RIGHT)
    assert j["right"] and j["cause"] == "", j

def test_sodium_valproate_is_valproic_acid():
    g = [group("first_line", ["other-seizure-types"], ("sodium valproate", ["guidance:abs-vpa-ost"]),
               ("lamotrigine", ["guidance:abs-ltg-ost"]))]
    assert judged(g)["right"]

def test_missing_gold_drug_or_wrong_qualifiers_is_wrong():
    g = [group("first_line", ["other-seizure-types"], ("lamotrigine", ["guidance:abs-ltg-ost"]))]
    assert judged(g)["cause"] == "missing"
    g = [group("first_line", [], ("valproic acid", ["guidance:abs-vpa-ost"]),
               ("lamotrigine", ["guidance:abs-ltg-ost"]))]
    assert judged(g)["cause"] == "missing"                             # the population dropped from the group

def test_drug_in_a_group_its_row_does_not_give_it_is_wrong():
    g = RIGHT + [group("adjunctive", ["after-first-line"], ("carbamazepine", ["guidance:abs-cbz"]))]
    j = judged(g)
    assert not j["right"] and j["cause"] == "wrong group" and "carbamazepine/adjunctive" in j["wrong"]

def test_missing_citation_is_wrong():
    g = [group("first_line", ["other-seizure-types"], ("valproic acid", ["guidance:abs-vpa-ost"]),
               ("lamotrigine", ["PMID:1", "guidance:abs-vpa-ost"]))]   # cites another drug's row
    j = judged(g)
    assert not j["right"] and j["cause"] == "uncited" and "lamotrigine" in j["uncited"]

def test_population_inappropriate_first_line_is_wrong():
    # ethosuximide is first line for absences in general, but not a gold first-line drug with other seizure types
    g = RIGHT + [group("first_line", [], ("ethosuximide", ["guidance:abs-eto"]))]
    j = judged(g)
    assert not j["right"] and j["cause"] == "population first line" and "ethosuximide" in j["population_first_line"]
    # without a stated population the same unqualified first-line group is right
    it = item(["HP:A"], [], ["first_line"])
    assert tq.judge(it, [group("first_line", [], ("ethosuximide", ["guidance:abs-eto"]))], TABLE)["right"]

def test_no_groups_is_wrong():
    assert judged(None)["cause"] == "no groups"


# ------------------------------------------------------------------------------------------------ the files
def test_files_golds_exist_in_the_table_and_ids_are_disjoint():
    table = tq.read_table()
    rec_ids = {r["rec_id"] for r in table}
    dev, sealed = tq.read_items(tq.DEV), tq.read_items(tq.SEALED)
    assert len(dev) >= 44 and len(sealed) == 24
    for it in dev + sealed:
        assert it["gold"] and set(it["gold"]) <= rec_ids, it["id"]
        assert [g["rec_id"] for g in it["gold_rows"]] == it["gold"]
        assert set(it["population"]) <= set(tq.TOKENS) and set(it["asks"]) <= set(tq.RELATIONS), it["id"]
    d, s = [i["id"] for i in dev], [i["id"] for i in sealed]
    assert len(set(d)) == len(d) and len(set(s)) == len(s) and not set(d) & set(s)
    assert not {i["question"] for i in dev} & {i["question"] for i in sealed}

@pytest.mark.parametrize("which", ["dev", "sealed"])
def test_files_golds_are_the_tables(which):
    "The files' golds are what the structured fields select from the current table (rebuild them if this fails)."
    table = tq.read_table()
    items = tq.read_items(tq.DEV if which == "dev" else tq.SEALED)
    for it in items:
        assert it["gold"] == [r["rec_id"] for r in tq.gold_rows(table, it["condition_ids"], it["population"],
                                                                it["asks"])], it["id"]
    if which == "dev": assert [i["question"] for i in items] == [q for q, *_ in tq.DEV_QUESTIONS]

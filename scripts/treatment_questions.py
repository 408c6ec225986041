#!/usr/bin/env python
"""Treatment questions in a clinician's own words, with golds from the guidance table (issue 44).

Each question is typed by hand below with structured fields: the conditions it is about (CURIEs of the table's
`condition_id`), the population it states (qualifier tokens of the table's controlled list; `after-first-line` for
"if X fails" / "what next" questions) and the relations it asks. The gold rows are computed from the table by those
fields only (`gold_rows`), never from the wording:

- the rows of an asked relation whose `condition_id` shares a CURIE with the question's conditions;
- per condition, the population tokens that occur among that condition's rows select: rows whose qualifiers hold
  every such token; and where the question describes its patient, a row for a population it does not state (a token
  of `HARD` it leaves out, e.g. "with other seizure types" for "if ethosuximide fails") is not gold (this clause was
  added after the first scoring run, for both sets alike). A condition none of whose rows carries a stated token (the absence rows, for "a girl of 15" whose
  token `childbearing` only the childbearing-potential rows carry) is read as with no population: rows with no
  qualifier but `after-first-line`, and first-line rows with none at all. Where every stated token occurs among a
  condition's rows this is exactly "rows whose qualifiers contain every population token".

    python scripts/treatment_questions.py build              # writes data/questions/treatment_dev.jsonl
    python scripts/treatment_questions.py build --sealed     # re-derives the sealed file's golds, questions unchanged
    python scripts/treatment_questions.py score [--file F] [--limit N]   # answers as `epigraph ask` does, scores,
                                                                          # writes /tmp/treatment_results.csv

Scoring reads the answer's structured field `groups` (a list of {subject, relation, qualifiers, answers: [{id,
name, keys}]}), never its prose. A question is right when (a) every gold row's drug is in a group of the row's
relation and qualifier set; (b) every answer in a group of a table relation matches a table row of one of the
question's conditions (drug, relation, qualifier set), and, for a question stating a population, no drug is given
first line unless a gold row gives it first line; (c) every such answer cites (`guidance:<rec_id>` in its keys) a row
it matches (or the PMID of a row whose guideline paper is in the PMID registry, as a CPIC row is cited). Without
`groups` a question is wrong with the cause "no groups".
"""
from __future__ import annotations
import argparse, csv, json, sys, time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT/"data"/"guidance"/"recommendations.csv"
DEV = ROOT/"data"/"questions"/"treatment_dev.jsonl"
SEALED = ROOT/"data"/"questions"/"sealed"/"treatment.jsonl"
RESULTS = Path("/tmp/treatment_results.csv")
RELATIONS = ("first_line", "adjunctive", "alternative", "avoid", "contraindicated", "dose_adjust", "test_before")
TOKENS = ("childbearing", "age:2-", "age:-54", "new-start", "other-seizure-types", "tsc", "not-tsc", "steroid-risk",
          "with-clobazam", "community", "no-emergency-plan", "iv-access", "activity-score-1", "drug-naive",
          "hla-b-negative", "alternatives-available", "after-first-line", "poor-metaboliser", "intermediate-metaboliser")
AFTER = "after-first-line"
# tokens that say who a row is for (epigraph.guidance.HARD_QUALIFIERS): a question that describes its patient and does
# not state one of these is not asking about that population
HARD = frozenset(("childbearing", "other-seizure-types", "tsc", "not-tsc", "steroid-risk", "community",
                  "no-emergency-plan", "iv-access", "poor-metaboliser", "intermediate-metaboliser"))

# the question's conditions, by the table's CURIEs
ABS, CAE, IS, TSC = "HP:0002121", "ORPHA:64280", "HP:0012469", "ORPHA:805"
DRAVET, LGS, FOCAL, GTCS = "OMIM:607208", "OMIM:606369", "HP:0007359", "HP:0002069"
MYO, TONIC, ATONIC, IGE, JME = "HP:0032794", "HP:0032792", "HP:0010819", "OMIM:600669", "OMIM:254770"
SELECTS, MAE, CSE, CLUSTER = "ORPHA:1945", "ORPHA:1942", "HP:0032660", "HP:0033349"
WCBP, HLAB, HLAA = "CURATED:women-of-childbearing-potential", "CPIC:HLA-B*15:02", "CPIC:HLA-A*31:01"
CYP2C9 = "HGNC:2623"


# ------------------------------------------------------------------------------------------------------- the table
def read_table(path: Path = TABLE) -> list[dict]:
    "The guidance rows, read directly (not through the loader), with `condition_ids` and `quals` as sets."
    import pandas as pd
    t = pd.read_csv(path, dtype=str, keep_default_na=False)
    rows = t.to_dict("records")
    for r in rows:
        r["condition_ids"] = {c.strip() for c in r["condition_id"].split("|") if c.strip()}
        r["quals"] = frozenset(q.strip() for q in r.get("qualifiers", "").split(";") if q.strip())
    return rows

def gold_rows(table: list[dict], condition_ids, population, asks) -> list[dict]:
    "The rows a question's structured fields select (see the module's docstring)."
    conds, pop, asks = set(condition_ids), set(population), set(asks)
    out = []
    for c in sorted(conds):
        of_c = [r for r in table if c in r["condition_ids"]]
        present = set().union(*(r["quals"] for r in of_c)) if of_c else set()
        sel = pop & present
        for r in of_c:
            if r["relation"] not in asks or r in out: continue
            if sel: keep = sel <= r["quals"]
            else: keep = (not r["quals"] if r["relation"] == "first_line" else r["quals"] <= {AFTER})
            if keep and pop and not (r["quals"] & HARD) <= pop: keep = False   # a population the question omits
            if keep: out.append(r)
    return sorted(out, key=lambda r: table.index(r))

def record(qid: str, question: str, condition_ids, population, asks, table: list[dict], **extra) -> dict:
    rows = gold_rows(table, condition_ids, population, asks)
    return dict(id=qid, question=question, condition_ids=list(condition_ids), population=list(population),
                asks=list(asks), gold=[r["rec_id"] for r in rows],
                gold_rows=[dict(rec_id=r["rec_id"], drug=r["drug"], relation=r["relation"],
                                qualifiers=sorted(r["quals"]), locator=r["locator"]) for r in rows], **extra)


# --------------------------------------------------------------------------------------------- the dev questions
# (question, condition_ids, population, asks), typed by hand; the sealed file's questions are not here.
DEV_QUESTIONS = [
    ("Absence seizures: which drug is first line?", [ABS], [], ["first_line"]),
    ("What should I start for absence seizures in a girl of 15?", [ABS, WCBP], ["childbearing"], ["first_line"]),
    ("Girl of 15 with absences - what is first line, and what should be avoided?", [ABS, WCBP], ["childbearing"],
     ["first_line", "avoid"]),
    ("What to add if ethosuximide fails for absences?", [ABS], [AFTER], ["adjunctive", "alternative"]),
    ("Kid has absences but other seizure types too. Which drug do we begin with?", [ABS], ["other-seizure-types"],
     ["first_line"]),
    ("Absences with other seizure types, first-line drug not working - what can be added on?", [ABS],
     ["other-seizure-types", AFTER], ["adjunctive"]),
    ("Are there ASMs I shouldn't use in someone with absence seizures?", [ABS], [], ["avoid"]),
    ("Childhood absence epilepsy - treatment of choice?", [CAE], [], ["first_line"]),
    ("Recommended initial therapy for infantile spasms in tuberous sclerosis complex?", [IS, TSC], ["tsc"],
     ["first_line"]),
    ("TSC baby with infantile spasms, vigabatrin hasn't stopped them; what do I add?", [IS, TSC], ["tsc", AFTER],
     ["adjunctive"]),
    ("For infantile spasms without tuberous sclerosis, what is recommended to begin with?", [IS], ["not-tsc"],
     ["first_line"]),
    ("West syndrome in an infant who is a poor candidate for steroids (high risk of side effects) - what to use?",
     [IS], ["steroid-risk"], ["first_line"]),
    ("Spasms continuing despite first-line treatment: which add-on drugs can be tried?", [IS], [AFTER],
     ["adjunctive"]),
    ("Infantile spasms: what testing is needed before prednisolone is started?", [IS], [], ["test_before"]),
    ("Dravet - which drug first?", [DRAVET], [], ["first_line"]),
    ("Dravet syndrome, valproate not enough: add-on therapies?", [DRAVET], [AFTER], ["adjunctive"]),
    ("What not to give in Dravet", [DRAVET], [], ["avoid"]),
    ("3-year-old with Dravet syndrome, already on valproate: could fenfluramine or cannabidiol be added?", [DRAVET],
     ["age:2-", AFTER], ["adjunctive"]),
    ("Lennox-Gastaut syndrome - initial drug of choice?", [LGS], [], ["first_line"]),
    ("LGS, age 6, clobazam on board, valproate failed: is there a place for cannabidiol?", [LGS],
     ["age:2-", "with-clobazam", AFTER], ["adjunctive"]),
    ("Which medicines should be avoided in Lennox-Gastaut?", [LGS], [], ["avoid"]),
    ("Focal onset seizures: what should I prescribe first?", [FOCAL], [], ["first_line"]),
    ("Lamotrigine and levetiracetam unsuitable or failed for focal seizures - which other monotherapies?", [FOCAL],
     [AFTER], ["alternative"]),
    ("Focal seizures refractory to first-line monotherapy: which add-on treatments are recommended?", [FOCAL],
     [AFTER], ["adjunctive"]),
    ("Generalised tonic-clonic seizures - first-line drugs please", [GTCS], [], ["first_line"]),
    ("GTCS poorly controlled on first line: what can I add?", [GTCS], [AFTER], ["adjunctive"]),
    ("Myoclonic seizures - what's first line?", [MYO], [], ["first_line"]),
    ("Which drugs are used as adjunctive treatment for myoclonic seizures?", [MYO], [], ["adjunctive"]),
    ("Tonic or atonic seizures: initial ASM?", [TONIC, ATONIC], [], ["first_line"]),
    ("Atonic seizures still happening on valproate - what to add?", [ATONIC], [AFTER], ["adjunctive"]),
    ("Which drugs can aggravate tonic or atonic seizures?", [TONIC, ATONIC], [], ["avoid"]),
    ("IGE: first-choice drug?", [IGE], [], ["first_line"]),
    ("Idiopathic generalised epilepsy, first-line drug failed - add-on options?", [IGE], [AFTER], ["adjunctive"]),
    ("Which ASMs make juvenile myoclonic epilepsy worse?", [JME], [], ["avoid"]),
    ("16-year-old girl with JME: which drugs should I avoid?", [JME, WCBP], ["childbearing"], ["avoid"]),
    ("SeLECTS: first-line ASM?", [SELECTS], [], ["first_line"]),
    ("Rolandic epilepsy, first-line medicine didn't help: what's second line?", [SELECTS], [AFTER], ["alternative"]),
    ("Epilepsy with myoclonic-atonic seizures - which drug first?", [MAE], [], ["first_line"]),
    ("Doose syndrome: first-line drug failed, what can be added?", [MAE], [AFTER], ["adjunctive"]),
    ("What drugs can worsen myoclonic-atonic epilepsy?", [MAE], [], ["avoid"]),
    ("Convulsive status epilepticus outside hospital, no individualised emergency management plan - which "
     "benzodiazepine?", [CSE], ["community", "no-emergency-plan"], ["first_line"]),
    ("Patient fitting continuously in ED, cannula in, resus facilities at hand - which benzodiazepine first?", [CSE],
     ["iv-access"], ["first_line"]),
    ("Status epilepticus continuing after benzodiazepines: what's second line?", [CSE], [AFTER],
     ["adjunctive", "alternative"]),
    ("Repeated seizures at home, no emergency plan: what should be given?", [CLUSTER], ["no-emergency-plan"],
     ["first_line"]),
    ("Which ASMs should be avoided in women and girls of childbearing potential?", [WCBP], ["childbearing"],
     ["avoid"]),
    ("25-year-old woman with epilepsy planning a family: which drugs shouldn't she be started on?", [WCBP],
     ["childbearing"], ["avoid"]),
    ("Newly diagnosed patient, HLA-B*15:02 positive, no ASM yet: what is contraindicated?", [HLAB], ["drug-naive"],
     ["contraindicated"]),
    ("New patient HLA-A*31:01 positive and HLA-B*15:02 negative, other options available - which drug to avoid?",
     [HLAA], ["drug-naive", "hla-b-negative", "alternatives-available"], ["avoid"]),
    ("CYP2C9 poor metaboliser: which antiseizure drug doses need changing?", [CYP2C9], ["poor-metaboliser"],
     ["dose_adjust"]),
    ("CYP2C9 intermediate metabolizer, activity score 1, starting phenytoin - dose adjustment?", [CYP2C9],
     ["intermediate-metaboliser", "activity-score-1"], ["dose_adjust"]),
    ("Seizures in tuberous sclerosis complex in a 4-year-old: any add-on recommended?", [TSC], ["age:2-"],
     ["adjunctive"]),
]


def build(table: list[dict]) -> list[dict]:
    out = []
    for k, (q, c, p, a) in enumerate(DEV_QUESTIONS, 1):
        r = record(f"tq-{k:03d}", q, c, p, a, table)
        if not r["gold"]: raise ValueError(f"{r['id']} {q!r}: no gold row in the table")
        out.append(r)
    return out

def rebuild_sealed(table: list[dict], path: Path = SEALED) -> list[dict]:
    "The sealed rows with their golds derived again from the table; every other field as it was."
    out = []
    for old in read_items(path):
        new = record(old["id"], old["question"], old["condition_ids"], old["population"], old["asks"], table)
        if not new["gold"]: raise ValueError(f"{old['id']}: no gold row in the table")
        out.append({**old, "gold": new["gold"], "gold_rows": new["gold_rows"]})
    return out

def write_items(items: list[dict], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return path

def read_items(path: Path) -> list[dict]:
    return [json.loads(l) for l in Path(path).read_text(encoding="utf-8").splitlines() if l.strip()]

def kind(item: dict) -> str: return "with population" if item["population"] else "no population"


# -------------------------------------------------------------------------------------------------------- the scorer
ALIASES = {"valproate": "valproic acid", "sodium valproate": "valproic acid", "valproate sodium": "valproic acid",
           "phenobarbitone": "phenobarbital", "sulthiame": "sultiame", "eslicarbazepine": "eslicarbazepine acetate",
           "fosphenytoin sodium": "fosphenytoin", "phenytoin sodium": "phenytoin"}

def drug_key(name) -> str:
    "A drug name folded for matching: case and spacing folded, valproate/sodium valproate/valproic acid one name."
    s = " ".join(str(name or "").lower().replace("_", " ").split())
    return ALIASES.get(s, s)

def row_matches(table: list[dict], conditions, drug, relation, quals) -> list[dict]:
    "The table rows of the question's conditions with this drug, relation and qualifier set."
    conds, d, q = set(conditions), drug_key(drug), frozenset(quals or ())
    return [r for r in table if r["condition_ids"] & conds and drug_key(r["drug"]) == d
            and r["relation"] == relation and r["quals"] == q]

def row_keys(rows: list[dict]) -> set[str]:
    "The keys that cite these rows: `guidance:<rec_id>`, or the PMID of a row whose guideline paper the project cites."
    return {f"guidance:{r['rec_id']}" for r in rows} | {f"PMID:{r['pmid']}" for r in rows if r.get("pmid")}

def answer_names(a: dict) -> list[str]:
    return [n for n in (a.get("name"), a.get("id")) if n]

def judge(item: dict, groups, table: list[dict]) -> dict:
    ("Score one answer's `groups` against the item: right, the first cause that fails (no groups, missing, wrong "
     "group, population first line, uncited) and the details of each.")
    out = dict(right=False, cause="", missing="", wrong="", population_first_line="", uncited="")
    if not isinstance(groups, list):
        out["cause"] = "no groups"; return out
    table_groups = [g for g in groups if isinstance(g, dict) and g.get("relation") in RELATIONS]
    # (a) every gold row's drug in a group of its relation and qualifier set
    missing = []
    for gr in item["gold_rows"]:
        hit = any(g["relation"] == gr["relation"] and set(g.get("qualifiers") or ()) == set(gr["qualifiers"])
                  and any(drug_key(n) == drug_key(gr["drug"]) for a in g.get("answers") or () for n in answer_names(a))
                  for g in table_groups)
        if not hit: missing.append(f"{gr['drug']}/{gr['relation']}/{';'.join(gr['qualifiers'])}")
    # (b) no answer in a group its row does not give it; (c) each cites a row it matches
    wrong, uncited, firsts = [], [], []
    gold_first = {drug_key(gr["drug"]) for gr in item["gold_rows"] if gr["relation"] == "first_line"}
    for g in table_groups:
        quals = sorted(g.get("qualifiers") or ())
        for a in g.get("answers") or ():
            name = next(iter(answer_names(a)), "?")
            rows = [r for n in answer_names(a) for r in row_matches(table, item["condition_ids"], n, g["relation"],
                                                                      quals)]
            label = f"{name}/{g['relation']}/{';'.join(quals)}"
            if not rows: wrong.append(label)
            elif not row_keys(rows) & set(a.get("keys") or ()): uncited.append(label)
            if (item["population"] and g["relation"] == "first_line"
                    and not any(drug_key(n) in gold_first for n in answer_names(a))):
                firsts.append(label)
    out.update(missing="; ".join(missing), wrong="; ".join(wrong), population_first_line="; ".join(firsts),
               uncited="; ".join(uncited))
    for cause, what in (("missing", missing), ("wrong group", wrong), ("population first line", firsts),
                        ("uncited", uncited)):
        if what: out["cause"] = cause; return out
    out["right"] = True
    return out

def groups_of(a, rec: dict):
    "The answer's structured `groups`, wherever the reader puts it (the record, or the answer object); None if absent."
    g = rec.get("groups")
    if g is None: g = getattr(a, "groups", None)
    if g is None and isinstance(getattr(a, "extra", None), dict): g = a.extra.get("groups")
    return g

def answer_item(item: dict, retriever, arm: str = "ppr_pcst", reader: str = "offline") -> dict:
    "The item's answer as `epigraph ask --json` gives it (the same call as `ask_batch`), with its `groups`."
    from epigraph.answer import answer
    from epigraph.ask import answer_record
    a = answer(item["question"], None, arm=arm, reader=reader, retriever=retriever)
    rec = answer_record(a)
    rec["groups"] = groups_of(a, rec)
    return rec

def score(sets: dict[str, list[dict]], table: list[dict], arm: str = "ppr_pcst", graph_folder: str|None = None,
          progress: bool = True) -> list[dict]:
    from epigraph.ask import retriever_for
    t0 = time.perf_counter()
    R = retriever_for(arm, graph_folder)
    if progress: print(f"retriever ready in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    rows = []
    for name, items in sets.items():
        for item in items:
            try: rec = answer_item(item, R, arm)
            except Exception as e:          # one failing question is scored wrong, the run goes on
                rec = dict(answer="", groups=None, error=f"{type(e).__name__}: {e}")
            j = judge(item, rec.get("groups"), table)
            if rec.get("error"): j["cause"] = f"error: {rec['error']}"[:200]
            rows.append(dict(set=name, id=item["id"], kind=kind(item), question=item["question"], **j,
                             gold=";".join(item["gold"]),
                             groups=json.dumps(rec.get("groups"), ensure_ascii=False) if rec.get("groups") else "",
                             answer=rec.get("answer") or "", seconds=rec.get("seconds")))
            if progress: print(f"{name} {item['id']}: {'right' if j['right'] else 'wrong: ' + j['cause']}",
                               file=sys.stderr)
    return rows

def summary(rows: list[dict]) -> str:
    "Per set: each question right or wrong with its cause; the share right overall and by kind."
    lines = []
    for name in dict.fromkeys(r["set"] for r in rows):
        rs = [r for r in rows if r["set"] == name]
        lines.append(f"== {name} ({len(rs)} questions)")
        for r in rs:
            detail = next((r[k] for k in ("missing", "wrong", "population_first_line", "uncited") if r[k]), "")
            lines.append(f"  {r['id']:<8}{'right' if r['right'] else 'wrong':<7}{r['cause']:<24}{detail[:80]}")
        for k in ("all", "no population", "with population"):
            sub = [r for r in rs if k == "all" or r["kind"] == k]
            if sub: lines.append(f"  {k:<17}{sum(r['right'] for r in sub):>4}/{len(sub):<4}"
                                 f"{sum(r['right'] for r in sub) / len(sub):.2f}")
        causes = Counter(r["cause"] for r in rs if not r["right"])
        if causes: lines.append("  wrong by cause: " + ", ".join(f"{c} {n}" for c, n in causes.most_common()))
    return "\n".join(lines)

def write_results(rows: list[dict], path: Path = RESULTS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0])); w.writeheader(); w.writerows(rows)
    return path


# ----------------------------------------------------------------------------------------------------- command line
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help=f"write {DEV.relative_to(ROOT)} from the questions typed here")
    b.add_argument("--sealed", action="store_true", help=f"also re-derive the golds of {SEALED.relative_to(ROOT)} "
                                                         "(its questions unchanged)")
    b.add_argument("--table", type=Path, default=TABLE)
    s = sub.add_parser("score", help="answer the questions as `epigraph ask` does and score their `groups`")
    s.add_argument("--file", type=Path, action="append",
                   help="a questions file (repeatable; default the dev file and the sealed file, scored apart)")
    s.add_argument("--limit", type=int, default=None, help="only the first N questions of each file")
    s.add_argument("--table", type=Path, default=TABLE)
    s.add_argument("--arm", default="ppr_pcst")
    s.add_argument("--graph", help="a graph folder (default data/build/kg)")
    s.add_argument("--out", type=Path, default=RESULTS, help=f"CSV of per-question results (default {RESULTS})")
    a = p.parse_args(argv)
    table = read_table(a.table)
    if a.command == "build":
        items = build(table)
        path = write_items(items, DEV)
        print(f"{path}: {len(items)} questions ({dict(Counter(kind(i) for i in items))})")
        if a.sealed:
            sealed = rebuild_sealed(table)
            print(f"{write_items(sealed, SEALED)}: {len(sealed)} questions, golds re-derived")
        return 0
    files = a.file or [DEV, SEALED]
    sets = {("sealed" if f.resolve() == SEALED.resolve() else "dev" if f.resolve() == DEV.resolve() else f.stem):
            read_items(f)[:a.limit] if a.limit else read_items(f) for f in files}
    rows = score(sets, table, a.arm, a.graph)
    print(summary(rows))
    print(f"\nper-question results: {write_results(rows, a.out)}")
    return 0

if __name__ == "__main__":
    sys.exit(main())

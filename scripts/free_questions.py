#!/usr/bin/env python
"""The sealed free questions of issue 47 (`data/questions/sealed/free.jsonl`, 100 questions, never tuned on),
asked of the system and scored against their structured golds. Issue 47's bar: ≥ 0.85 correct with citations,
and ≥ 0.8 on the dates-and-versions family.

    python scripts/free_questions.py [--arms ppr_pcst hybrid ...] [--out results.csv] [--questions PATH]

The scoring rule was written from the gold's fields, before any answer was read, and is the same for every arm:

- `abstain: true` (no source answers): correct when the answer cites nothing.
- `yes_no` given: correct when the answer's first word is that Yes or No and, for a Yes, it cites something.
  "The evidence graph does not say" is not a No.
- answers listed: correct when the answer cites something and states every gold answer. An answer is stated when
  the text names it (its `name`, or any name the graph gives its `id`), or gives the release (`release`, e.g.
  2022-09), the date (`date`) or, for a dated publication, cites its PMID (`id`) or names its year (`year`); the
  text is read without its citations, so a release range inside a citation key does not count.
  Where the gold names an `action` (lower the dose, avoid, test first), the text must also say it (ACTIONS).
- no answers, no yes/no, not an abstention (e.g. "which genes were removed?" when none was): correct when the text
  says there were none (NONE) or cites nothing.

Prints accuracy per family and overall, for each arm.

`--history` scores the Genes4Epilepsy release-history questions instead: the development set
(`data/questions/history_dev.jsonl`, tuned on) and the sealed set (`data/questions/sealed/g4e_history.jsonl`,
written by a helper before the source-history reader, never tuned on). Rule (`history_correct`), written before
either was run: the answer cites something, and a `still_listed` question opens with the gold Yes or No, a
`first_release` question's earliest release named in the text (citations left out) is the gold one, a `class_since`
question names the gold release.
"""
from __future__ import annotations
import argparse, json, re, sys
from pathlib import Path
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SEALED = ROOT/"data"/"questions"/"sealed"/"free.jsonl"
HISTORY = {"development (tuned)": ROOT/"data"/"questions"/"history_dev.jsonl",
           "sealed": ROOT/"data"/"questions"/"sealed"/"g4e_history.jsonl"}
RELEASE = re.compile(r"\b(?:19|20)\d{2}-\d{2}\b")
ACTIONS = {   # the action a pharmacogenomic gold names -> how a sentence may say it
    "lower the dose": re.compile(r"\b(?:lower|reduc\w*|decreas\w*|smaller|cut)\b[^.]{0,40}\bdos|"
                                 r"\bdos\w*\b[^.]{0,40}\b(?:lower\w*|reduc\w*|decreas\w*)", re.I),
    "avoid": re.compile(r"\bavoid|\bdo not (?:use|start|give|offer|prescribe)|\bnot (?:be )?(?:used|recommended|"
                        r"started|offered)|contraindicat", re.I),
    "test first": re.compile(r"\btest|\bgenotyp|\bscreen", re.I)}
NONE = re.compile(r"^(?:No|None)\b|\bno (?:gene|change|row|guideline|recommendation)s?\b|\bnone\b", re.I)
FIRST = re.compile(r"^\W*(yes|no)\b", re.I)


def stated(a: dict, text: str, cited: set[str], names: dict) -> bool:
    "Whether the answer text (or its citations) states one gold answer, by the fields the gold gives."
    from epigraph.metrics import _mentions
    from epigraph.schema import CITATION
    text = CITATION.sub("", text)     # a citation key (e.g. a release range) is not the answer saying it
    said = [a.get("name")] + list(names.get(a.get("id"), []) if a.get("id") else [])
    ok = any(isinstance(n, str) and len(n) >= 2 and _mentions(text, n) for n in said)
    ok = ok or any(a.get(k) and str(a[k]) in text for k in ("release", "date"))
    ok = ok or (str(a.get("id", "")).startswith("PMID:") and (a["id"] in cited or str(a.get("year", "")) in text))
    if a.get("action") in ACTIONS: ok = ok and bool(ACTIONS[a["action"]].search(text))
    return ok


def correct(item: dict, text: str, cited: set[str], names: dict) -> bool:
    "The rule of the module docstring: one gold, one answer's text and cited keys."
    g, text = item["gold"], text.strip()
    if g.get("abstain"): return not cited
    yes_no = str(g.get("yes_no") or "").lower()        # a set may write "Yes" or "yes"
    if yes_no in ("yes", "no"):
        m = FIRST.match(text)
        return bool(m) and m.group(1).lower() == yes_no and (yes_no == "no" or bool(cited))
    if not g.get("answers"): return not cited or bool(NONE.search(text))
    return bool(cited) and all(stated(a, text, cited, names) for a in g["answers"])


def history_correct(item: dict, text: str, cited: set[str]) -> bool:
    "The rule for a release-history question (module docstring)."
    from epigraph.schema import CITATION
    g, plain = item["gold"], CITATION.sub("", text.strip())
    if not cited: return False
    if item["kind"] == "still_listed":
        m = FIRST.match(plain)
        return bool(m) and m.group(1).lower() == g["yes_no"]
    named = RELEASE.findall(plain)
    if item["kind"] == "first_release": return bool(named) and min(named) == g["first_release"]
    return g["class_since"] in named


def run_history(arms: list[str], retriever=None) -> pd.DataFrame:
    "Both release-history sets through every arm: one row per (set, question, arm)."
    from epigraph.answer import answer, default_retriever
    R, rows = retriever or default_retriever(), []
    for name, path in HISTORY.items():
        for it in read_items(path):
            for arm in arms:
                a = answer(it["question"], arm=arm, reader="offline", retriever=R)
                rows.append(dict(set=name, id=it["id"], kind=it["kind"], arm=arm, question=it["question"],
                                 answer=a.text, correct=float(history_correct(it, a.text, set(a.cited)))))
    return pd.DataFrame(rows)


def read_items(path: Path = SEALED) -> list[dict]:
    return [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]


def run_free(items: list[dict], arms: list[str], retriever=None) -> pd.DataFrame:
    "Every question through every arm (offline reader): one row per (question, arm) with its score."
    from epigraph.answer import answer, default_retriever
    from epigraph.metrics import entity_names
    R = retriever or default_retriever()
    names = entity_names(R.graph.kg.entities)
    rows = []
    for it in items:
        for arm in arms:
            a = answer(it["question"], arm=arm, reader="offline", retriever=R)
            rows.append(dict(id=it["id"], family=it["family"], arm=arm, question=it["question"], answer=a.text,
                             cited=len(a.cited), correct=float(correct(it, a.text, set(a.cited), names))))
    return pd.DataFrame(rows)


def family_table(res: pd.DataFrame) -> pd.DataFrame:
    "Share correct per family (rows) and arm (columns), with the family's size and an overall row."
    fam = res.pivot_table(index="family", columns="arm", values="correct", aggfunc="mean")
    fam.insert(0, "n", res.groupby("family").id.nunique())
    fam.loc["all"] = [res.id.nunique(), *res.groupby("arm").correct.mean()[fam.columns[1:]]]
    return fam.astype({"n": int})


def main(argv=None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arms", nargs="+", default=["ppr_pcst", "hybrid", "hypergraph", "bm25"])
    ap.add_argument("--out", type=Path, help="write one row per (question, arm) as CSV")
    ap.add_argument("--history", action="store_true", help="score the release-history sets instead")
    ap.add_argument("--questions", type=Path, default=SEALED,
                    help="another set in the same schema (e.g. data/questions/sealed/gene_named.jsonl)")
    args = ap.parse_args(argv)
    if args.history:
        res = run_history(args.arms)
        if args.out: res.to_csv(args.out, index=False)
        print(res.pivot_table(index=["set", "kind"], columns="arm", values="correct", aggfunc="mean").round(3)
              .to_string())
        return res
    res = run_free(read_items(args.questions), args.arms)
    if args.out: res.to_csv(args.out, index=False)
    print(f"sealed questions ({args.questions.resolve().relative_to(ROOT)}; never tuned on), share correct with "
          "citations:")
    print(family_table(res).round(3).to_string())
    return res


if __name__ == "__main__":
    sys.exit(0 if len(main()) else 1)

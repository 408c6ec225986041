"""Write data/questions/history_dev.jsonl: 12 development questions on Genes4Epilepsy release history (issue 47,
item 4). Tuned on: the source-history reader (nbs/11k_history.ipynb) was developed against them. Their wording is
typed here by hand; the golds come from the release tables (`epigraph.curated.load_genes4epilepsy`), never from an
answer. The sealed counterpart is data/questions/sealed/g4e_history.jsonl. Scored by scripts/free_questions.py
--history.

Run from the repository root: python scripts/history_dev.py
"""
import json
from pathlib import Path
from epigraph.curated import load_genes4epilepsy
g = load_genes4epilepsy()["genes"]
latest = g.release.max()
def gold(symbol, kind, yes_no=None):
    hg = g[g.symbol == symbol].hgnc_id.iloc[0]
    r = g[g.hgnc_id == hg].sort_values("release")
    first, last = r.release.iloc[0], r.release.iloc[-1]
    cur = r[r.release == last].phenotypes.iloc[0]
    since = last
    for rel, ph in zip(r.release[::-1], r.phenotypes[::-1]):
        if sorted(ph) != sorted(cur): break
        since = rel
    src = [f"{f}:{l}" for f, l in zip(r.file, r.line)][:1] + [f"{r.file.iloc[-1]}:{r.line.iloc[-1]}"]
    return dict(kind=kind, gene=dict(hgnc=hg, symbol=symbol), gold=dict(
        yes_no=yes_no, first_release=first, last_release=last, class_since=since if kind == "class_since" else None,
        current_classes=", ".join(cur), sources=src))
Q = [("Is SCN2A still on the Genes4Epilepsy list?", "SCN2A", "still_listed", "yes"),
     ("Since what release does Genes4Epilepsy include PCDH19?", "PCDH19", "first_release", None),
     ("Has G4E removed STXBP1?", "STXBP1", "still_listed", "no"),
     ("When was SOX2 added to Genes4Epilepsy?", "SOX2", "first_release", None),
     ("in which genes4epilepsy version does SF3B1 show up first", "SF3B1", "first_release", None),
     ("Does the current Genes4Epilepsy release still carry NPRL3?", "NPRL3", "still_listed", "yes"),
     ("Genes4Epilepsy and UGGT1: from which release is its present classification?", "UGGT1", "class_since", None),
     ("For how many releases has Genes4Epilepsy had HCN2 in its current category?", "HCN2", "class_since", None),
     ("Was CDKL5 taken off Genes4Epilepsy at some point?", "CDKL5", "still_listed", "no"),
     ("What is the first G4E release that lists KMT2C?", "KMT2C", "first_release", None),
     ("Is KCNT1 part of the newest Genes4Epilepsy release?", "KCNT1", "still_listed", "yes"),
     ("Since when is MED12 classed the way it is now in Genes4Epilepsy?", "MED12", "class_since", None)]
with open(Path(__file__).resolve().parents[1]/"data"/"questions"/"history_dev.jsonl", "w") as f:
    for i, (q, s, k, yn) in enumerate(Q, 1):
        f.write(json.dumps(dict(id=f"hist-dev-{i:03d}", question=q, **gold(s, k, yn),
                                written_by="session 2026-12-07, development set, tuned on")) + "\n")

"""Shape checks of the sealed question set (data/questions/sealed, issue 47 #6). Fast: no retriever, reader or
chapter runs here, and only the cheapest EpiBench tasks are built (the others' item ids are checked by format)."""
import json, re
from collections import Counter
from pathlib import Path
import pandas as pd, pytest

ROOT = Path(__file__).resolve().parents[1]
SEALED = ROOT / "data" / "questions" / "sealed"
WRITTEN_BY = "session 2026-12-06, before the parse change"
CHAIN_KINDS = ["gene → drug → event", "syndrome → gene → drug → event", "gene → syndrome → gene → drug → event"]
BUILT = ("t1_pubmedqa", "temporal", "t4_constraints")        # each builds in a few seconds
# tasks whose items were rebuilt after the set was sealed: a reworded item that no longer exists is not scored
REBUILT = {"t4_constraints": "issue 44 builds T4 from the one guidance table (45 of its 60 sealed rows ask items "
                             "that are gone)",
           "t1_graph_mc": "issue 47 asks only facts two publications state (54 of its 60 sealed rows ask items that "
                          "are gone, the gene → disease and syndrome → treatment kinds among them)"}


def rows(name: str) -> list[dict]:
    return [json.loads(l) for l in (SEALED / name).read_text().splitlines() if l.strip()]


def test_ids_unique_and_common_fields():
    seen = set()
    for name in ("chain_rewordings.jsonl", "epibench_rewordings.jsonl", "free.jsonl"):
        rs = rows(name)
        assert rs, name
        for r in rs:
            assert r["id"] not in seen, r["id"]
            seen.add(r["id"])
            assert r["written_by"] == WRITTEN_BY and "sealed_at" in r
            assert (r.get("text") or r.get("question", "")).strip()


def test_chain_rows_refer_to_chapter_24_items():
    q = pd.read_csv(ROOT / "figures" / "24_retrieval" / "question_list.csv").set_index("qid")
    nb = json.loads((ROOT / "nbs" / "24_retrieval.ipynb").read_text())
    chapter = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    rs = rows("chain_rewordings.jsonl")
    per_item, per_kind = Counter(), Counter()
    for r in rs:
        assert set(r) >= {"id", "of", "kind", "text", "written_by", "sealed_at"}
        assert r["of"]["kind"] == r["kind"]
        per_kind[r["kind"]] += 1
        if r["set"] == "chapter24_questions":
            item = q.loc[r["of"]["qid"]]
            assert item.kind == r["kind"] and item.start == r["of"]["start"] and item.hops >= 2
            assert r["text"] != item.question and item.start_name in r["text"]
            per_item[r["of"]["qid"]] += 1
        else:
            assert r["set"] == "chapter24_well_posed" and f'"{r["kind"]}": ' in chapter
            assert "{s}" in r["text"]
    chain_items = q[q.kind.isin(CHAIN_KINDS)]
    assert set(per_item) == set(chain_items.index) and min(per_item.values()) >= 3   # every chain item, 3 each
    assert min(per_kind.values()) >= 3 and set(CHAIN_KINDS) <= set(per_kind)


def test_epibench_rows_refer_to_tasks_and_items():
    from epigraph.bench import task_names, build_task
    names = task_names()
    rs = rows("epibench_rewordings.jsonl")
    for r in rs:
        assert set(r) == {"id", "task", "item_id", "text", "written_by", "sealed_at"}   # nothing that names the gold
        assert r["task"] in names and re.fullmatch(rf"{re.escape(r['task'])}:[\w.\-:]+", r["item_id"]), r["item_id"]
    per_task = Counter(r["task"] for r in rs)
    assert set(per_task) == set(names) and min(per_task.values()) >= 3
    for task in BUILT:
        items = {i.item_id: i for i in build_task(task)}
        mine = [r for r in rs if r["task"] == task]
        alive = [r for r in mine if r["item_id"] in items and items[r["item_id"]].split == "report"]
        if task in REBUILT: assert len(alive) >= 3, (task, len(alive))     # the rest ask items that are gone
        else: assert len(alive) == len(mine), task
        for r in alive: assert r["text"] != items[r["item_id"]].question


def test_free_golds_cite_a_source():
    rs = rows("free.jsonl")
    assert len(rs) == 100
    families = Counter(r["family"] for r in rs)
    assert {"dates_versions", "pharmacogenomics", "inheritance_genes", "onset", "drug_induced", "treatment",
            "negation", "two_subjects"} <= set(families)
    for r in rs:
        assert set(r) >= {"id", "family", "question", "gold", "written_by"}
        g = r["gold"]
        assert set(g) >= {"answers", "yes_no", "abstain", "sources"} and g["sources"], r["id"]
        assert g["yes_no"] in (None, "yes", "no")
        assert all(a.get("name") is not None for a in g["answers"])
        if g["abstain"]: assert g["answers"] == [] and g["yes_no"] is None
        else:   # at least one source names a file and a line (file:line) or a record of a named file
            assert any(re.search(r"\.(tsv|csv|sql|hpoa|txt):\d+", s) for s in g["sources"]) or \
                   all(re.search(r"\.(tsv|csv|sql)\b", s) for s in g["sources"]), r["id"]
        for s in g["sources"]:   # never a sentinel or made-up PMID: PMIDs here are real records of a cited file
            for pmid in re.findall(r"PMID:(\d+)", s): assert int(pmid) < 900000000

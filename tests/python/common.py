"""Shared by the Python tests: the command line (dctwin executable, source folder, work folder)
and the reference scenario, shortened where a test needs less than a year."""
import copy
import json
import os
import sys

EXE, SOURCE, WORK = sys.argv[1:4]
REFERENCE = os.path.join(SOURCE, "scenarios", "azure_gb300_64.json")
os.makedirs(WORK, exist_ok=True)


def reference(**study):
    """The reference scenario as a dict; `study` replaces /study when given."""
    with open(REFERENCE) as f:
        sc = json.load(f)
    sc.pop("$schema", None)
    # A dict has no folder of its own: the weather path is made absolute.
    sc["site"]["weather"] = os.path.join(SOURCE, sc["site"]["weather"])
    if study:
        sc["study"] = dict(study)
    return copy.deepcopy(sc)


def write_json(name, obj):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        json.dump(obj, f)
    return path

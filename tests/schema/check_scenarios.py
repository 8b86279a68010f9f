#!/usr/bin/env python3
"""Checks the scenario JSON Schema with an independent validator (python3-jsonschema).

1. The checked-in schema (scenarios/schema/scenario.schema.json) and scenario reference
   (docs/scenario-reference.md) are what `dctwin schema [--markdown]` generates from the
   scenario specs today (not edited by hand, not stale).
2. It is a valid draft 2020-12 schema.
3. Every shipped scenario validates against it.
4. Broken copies of the reference scenario fail it, and `dctwin validate` rejects the same
   copies with exit status 2 — the schema and the loader agree.

Usage: check_scenarios.py DCTWIN_EXE SOURCE_DIR
"""
import copy
import importlib.metadata
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema

exe, source = sys.argv[1], pathlib.Path(sys.argv[2])
schema_file = source / "scenarios" / "schema" / "scenario.schema.json"
schema = json.loads(schema_file.read_text())

generated = json.loads(subprocess.run([exe, "schema"], check=True, capture_output=True,
                                      text=True).stdout)
if generated != schema:
    sys.exit(f"{schema_file} differs from `dctwin schema`; regenerate it with "
             f"`dctwin schema -o {schema_file}`")

reference_doc = source / "docs" / "scenario-reference.md"
generated_doc = subprocess.run([exe, "schema", "--markdown"], check=True, capture_output=True,
                               text=True).stdout
if reference_doc.read_text() != generated_doc:
    sys.exit(f"{reference_doc} differs from `dctwin schema --markdown`; regenerate it with "
             f"`dctwin schema --markdown -o {reference_doc}`")

jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

shipped = 0
for f in sorted((source / "scenarios").glob("*.json")):
    doc = json.loads(f.read_text())
    if "study" not in doc:  # sweep files describe variants, not a scenario
        continue
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        sys.exit(f"{f.name}: " + "; ".join(f"/{'/'.join(map(str, e.path))}: {e.message}"
                                           for e in errors))
    shipped += 1
if shipped < 5:
    sys.exit(f"only {shipped} shipped scenarios found")

reference = json.loads((source / "scenarios" / "azure_gb300_64.json").read_text())


def broken(edit):
    doc = copy.deepcopy(reference)
    edit(doc)
    return doc


cases = {
    "key typo racks_per_cud": broken(lambda d: d["cooling"].setdefault("cdu", {}).update(
        {"racks_per_cud": 8})),
    "TCS supply 100 C (range 15-50)": broken(lambda d: d["cooling"].update(
        {"tcs_supply_temp_C": 100})),
    "rack count as text": broken(lambda d: d["it"]["racks"][0].update({"count": "sixty-four"})),
    "heat rejection type 'chiller'": broken(lambda d: d["cooling"]["heat_rejection"].update(
        {"type": "chiller"})),
    "no study section": broken(lambda d: d.pop("study")),
    "pump trip with a 'units' key": broken(lambda d: d.update(
        {"events": [{"type": "cdu_pump_trip", "at_s": 60, "units": 2}]})),
}
failed = []
with tempfile.TemporaryDirectory() as tmp:
    for name, doc in cases.items():
        if validator.is_valid(doc):
            failed.append(f"schema accepts broken scenario: {name}")
        path = pathlib.Path(tmp) / "broken.json"
        path.write_text(json.dumps(doc))
        run = subprocess.run([exe, "validate", str(path)], capture_output=True, text=True)
        if run.returncode != 2:
            failed.append(f"dctwin validate exits {run.returncode} (expected 2) on: {name}\n"
                          f"{run.stdout}{run.stderr}")
        else:
            print(f"rejected ({name}): {run.stderr.strip().splitlines()[-1]}")
if failed:
    sys.exit("\n".join(failed))
print(f"schema OK: {shipped} shipped scenarios validate, {len(cases)} broken ones fail "
      f"(jsonschema {importlib.metadata.version('jsonschema')})")

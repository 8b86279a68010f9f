#pragma once
// Catalog files of the thermal layer: data/catalog/thermal/<file>.json, each an object of
// named entries. Every numeric field "<stem>_<unit>" (or "<stem>") is cited by a sibling
// "<stem>_source" ending in its domain-facts confidence (", H" / ", M" / ", L" / ", L-M" /
// ", M-H"); tests/thermal/catalog_sources_test.cpp checks it. Readers skip those keys.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace dctwin::thermal {

/// dataDir()/catalog/thermal (core/data_dir.h). InputError if no data folder is found.
std::filesystem::path catalogDirectory();

/// The entry `name` of catalog file `file` ("cdus.json"), merged with `overrides` (a JSON
/// object, may be null). InputError naming the file and the valid entries if absent.
Json loadCatalogEntry(std::string_view file, std::string_view name, const Json& overrides = {});

/// Names of the entries of a catalog file.
std::vector<std::string> catalogEntries(std::string_view file);

/// Keys of an entry that are documentation, not parameters: "description", "source" and
/// every "*_source" / "*_note".
bool isDocumentationKey(std::string_view key);

/// A view of a merged entry for its reader. With `user_path` (the scenario object that named
/// the model) errors name the scenario's key first and the record second; without it, the
/// record ("cdus.json/vertiv_xdu1350").
JsonView recordView(const Json& merged, std::string_view file, std::string_view name,
                    const Json& overrides, std::string_view user_path);

/// checkKeys() on an entry, allowing `allowed` plus every documentation key.
void checkEntryKeys(const JsonView& entry, std::vector<std::string> allowed);

}  // namespace dctwin::thermal

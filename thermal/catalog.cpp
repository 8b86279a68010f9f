#include "thermal/catalog.h"

#include <fmt/format.h>

#include "core/data_dir.h"
#include "core/errors.h"

namespace dctwin::thermal {

std::filesystem::path catalogDirectory() { return dataDir() / "catalog" / "thermal"; }

std::vector<std::string> catalogEntries(std::string_view file) {
    const Json doc = readJsonFile(catalogDirectory() / file);
    std::vector<std::string> names;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (it.value().is_object()) names.push_back(it.key());
    }
    return names;
}

Json loadCatalogEntry(std::string_view file, std::string_view name, const Json& overrides) {
    const auto path = catalogDirectory() / file;
    const Json doc = readJsonFile(path);
    auto it = doc.find(std::string(name));
    if (it == doc.end() || !it->is_object()) {
        std::string list;
        for (const auto& n : catalogEntries(file)) list += (list.empty() ? "" : ", ") + n;
        const std::string near = nearestName(name, catalogEntries(file));
        throw InputError(fmt::format("{}: no entry '{}'{}; valid choices: {}", path.string(), name,
                                     near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near),
                                     list));
    }
    if (overrides.is_null()) return *it;
    return mergePatch(*it, overrides);
}

bool isDocumentationKey(std::string_view key) {
    auto ends = [&](std::string_view suffix) {
        return key.size() >= suffix.size() && key.substr(key.size() - suffix.size()) == suffix;
    };
    return key == "description" || key == "source" || ends("_source") || ends("_note");
}

void checkEntryKeys(const JsonView& entry, std::vector<std::string> allowed) {
    // Documentation keys are accepted but never offered as choices for a typo.
    entry.checkKeys(allowed, [](std::string_view k) { return isDocumentationKey(k); });
}

JsonView recordView(const Json& merged, std::string_view file, std::string_view name,
                    const Json& overrides, std::string_view user_path) {
    const std::string record = fmt::format("{}/{}", file, name);
    if (user_path.empty()) return JsonView(merged, record);
    JsonProvenance p;
    p.user_path = std::string(user_path);
    p.record = record;
    if (overrides.is_object()) {
        for (const auto& item : overrides.items()) p.overridden.push_back(item.key());
    }
    return JsonView::merged(merged, std::move(p));
}

}  // namespace dctwin::thermal

// ResultSet (time-series channels) and Table (sizing tables): lookups and consistency checks.
#include "core/results.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.h"

namespace dctwin {

namespace {

std::string channelKey(std::string_view group, std::string_view name) {
    std::string k;
    k.reserve(group.size() + 1 + name.size());
    k.append(group).push_back('\0');  // no group or name holds a NUL
    k.append(name);
    return k;
}

}  // namespace

void ResultSet::reindex() {
    if (indexed_ > channels.size()) {  // emptied or replaced by a shorter list
        index_.clear();
        indexed_ = 0;
    }
    // emplace keeps the first of equal keys: the channel a linear search would find.
    for (; indexed_ < channels.size(); ++indexed_) {
        index_.emplace(channelKey(channels[indexed_].group, channels[indexed_].name), indexed_);
    }
}

std::size_t ResultSet::position(std::string_view group, std::string_view name) const {
    auto is = [&](std::size_t i) { return channels[i].group == group && channels[i].name == name; };
    const std::size_t known = std::min(indexed_, channels.size());
    const auto it = index_.find(channelKey(group, name));
    if (it != index_.end() && it->second < known && is(it->second)) return it->second;
    // Not in the index: appended since, or the list changed under it (then search it all).
    const bool index_holds = it == index_.end() && indexed_ <= channels.size();
    for (std::size_t i = index_holds ? known : 0; i < channels.size(); ++i) {
        if (is(i)) return i;
    }
    return std::string::npos;
}

Channel& ResultSet::addChannel(std::string group, std::string name, std::string unit,
                               std::string description) {
    if (name.empty()) {
        throw ModelError(fmt::format("result channel in group '{}' needs a name", group));
    }
    reindex();
    if (position(group, name) != std::string::npos) {
        throw ModelError(fmt::format("result channel '{}/{}' is added twice", group, name));
    }
    channels.push_back(
        Channel{std::move(group), std::move(name), std::move(unit), std::move(description), {}});
    return channels.back();
}

const Channel* ResultSet::find(std::string_view group, std::string_view name) const {
    const std::size_t i = position(group, name);
    return i == std::string::npos ? nullptr : &channels[i];
}

Channel* ResultSet::find(std::string_view group, std::string_view name) {
    reindex();
    const std::size_t i = position(group, name);
    return i == std::string::npos ? nullptr : &channels[i];
}

const Channel& ResultSet::at(std::string_view group, std::string_view name) const {
    if (const Channel* c = find(group, name)) return *c;
    // The list is capped: a 1,000-rack run has tens of thousands of channels.
    constexpr std::size_t shown = 20;
    std::string valid;
    for (std::size_t i = 0; i < channels.size() && i < shown; ++i) {
        valid += fmt::format("{}{}/{}", i ? ", " : "", channels[i].group, channels[i].name);
    }
    if (channels.size() > shown) valid += fmt::format(", ... ({} in all)", channels.size());
    throw ModelError(fmt::format("no result channel '{}/{}'; channels: {}", group, name,
                                 valid.empty() ? "(none)" : valid));
}

std::size_t Table::rows() const {
    if (columns.empty()) return 0;
    return std::visit([](const auto& v) { return v.size(); }, columns.front().data);
}

namespace {

void checkNewColumn(const Table& table, const std::string& name, std::size_t length) {
    for (const auto& c : table.columns) {
        if (c.name == name) {
            throw ModelError(fmt::format("table '{}' already has a column '{}'", table.path, name));
        }
    }
    if (!table.columns.empty() && length != table.rows()) {
        throw ModelError(fmt::format("table '{}': column '{}' has {} rows, the others have {}",
                                     table.path, name, length, table.rows()));
    }
}

}  // namespace

void Table::addNumbers(std::string name, std::string unit, std::vector<double> v) {
    checkNewColumn(*this, name, v.size());
    columns.push_back(Column{std::move(name), std::move(unit), std::move(v)});
}

void Table::addText(std::string name, std::vector<std::string> v) {
    checkNewColumn(*this, name, v.size());
    columns.push_back(Column{std::move(name), "", std::move(v)});
}

}  // namespace dctwin

// ResultSet (time-series channels) and Table (sizing tables): lookups and consistency checks.
#include "core/results.h"

#include <fmt/format.h>

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

std::size_t ResultSet::position(std::string_view group, std::string_view name) const {
    if (indexed_data_ != channels.data() || indexed_ > channels.size()) {
        index_.clear();
        indexed_ = 0;
        indexed_data_ = channels.data();
    }
    // emplace keeps the first of equal keys: the channel a linear search would find.
    for (; indexed_ < channels.size(); ++indexed_) {
        index_.emplace(channelKey(channels[indexed_].group, channels[indexed_].name), indexed_);
    }
    const auto it = index_.find(channelKey(group, name));
    return it == index_.end() ? std::string::npos : it->second;
}

Channel& ResultSet::addChannel(std::string group, std::string name, std::string unit,
                               std::string description) {
    if (name.empty()) {
        throw ModelError(fmt::format("result channel in group '{}' needs a name", group));
    }
    if (find(group, name)) {
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

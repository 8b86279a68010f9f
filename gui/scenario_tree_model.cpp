#include "gui/scenario_tree_model.h"

#include <fmt/format.h>

#include <QBrush>
#include <QPalette>
#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace dctwin::gui {

struct ScenarioTreeModel::Node {
    Node* parent = nullptr;
    std::string key;  // member name in an object; unused for array elements
    Json::value_t type = Json::value_t::null;
    Json scalar;  // the value when not a container
    std::vector<std::unique_ptr<Node>> children;

    bool isObject() const { return type == Json::value_t::object; }
    bool isArray() const { return type == Json::value_t::array; }
    bool isContainer() const { return isObject() || isArray(); }
    int row() const {
        if (!parent) return 0;
        const auto& sib = parent->children;
        const auto it =
            std::find_if(sib.begin(), sib.end(), [this](const auto& c) { return c.get() == this; });
        return static_cast<int>(it - sib.begin());
    }
    Node* child(const std::string& token) const {
        if (isObject()) {
            for (const auto& c : children) {
                if (c->key == token) return c.get();
            }
            return nullptr;
        }
        if (isArray() && !token.empty() && std::all_of(token.begin(), token.end(), [](char ch) {
                return ch >= '0' && ch <= '9';
            })) {
            const std::size_t i = std::stoul(token);
            return i < children.size() ? children[i].get() : nullptr;
        }
        return nullptr;
    }
};

namespace {

QString typeName(Json::value_t t) {
    switch (t) {
        case Json::value_t::object:
            return QStringLiteral("object");
        case Json::value_t::array:
            return QStringLiteral("array");
        case Json::value_t::string:
            return QStringLiteral("string");
        case Json::value_t::boolean:
            return QStringLiteral("boolean");
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
            return QStringLiteral("integer");
        case Json::value_t::number_float:
            return QStringLiteral("number");
        default:
            return QStringLiteral("null");
    }
}

}  // namespace

ScenarioTreeModel::ScenarioTreeModel(QObject* parent)
    : QAbstractItemModel(parent), root_(build(Json::object(), nullptr, {})) {}

ScenarioTreeModel::~ScenarioTreeModel() = default;

std::unique_ptr<ScenarioTreeModel::Node> ScenarioTreeModel::build(const Json& json, Node* parent,
                                                                  std::string key) {
    auto n = std::make_unique<Node>();
    n->parent = parent;
    n->key = std::move(key);
    n->type = json.type();
    if (json.is_object()) {
        // nlohmann::json keeps members sorted by key; the rows follow the same order so that
        // toJson() and the tree agree and inserted keys land where the file will have them.
        for (const auto& [k, v] : json.items()) n->children.push_back(build(v, n.get(), k));
    } else if (json.is_array()) {
        for (const Json& v : json) n->children.push_back(build(v, n.get(), {}));
    } else {
        n->scalar = json;
    }
    return n;
}

Json ScenarioTreeModel::toJson(const Node& node) {
    if (node.isObject()) {
        Json o = Json::object();
        for (const auto& c : node.children) o[c->key] = toJson(*c);
        return o;
    }
    if (node.isArray()) {
        Json a = Json::array();
        for (const auto& c : node.children) a.push_back(toJson(*c));
        return a;
    }
    return node.scalar;
}

std::string ScenarioTreeModel::pointerOf(const Node* node) {
    std::string p;
    while (node && node->parent) {
        const std::string token = node->parent->isArray() ? std::to_string(node->row())
                                                          : escapeJsonPointerToken(node->key);
        p = "/" + token + p;
        node = node->parent;
    }
    return p;
}

void ScenarioTreeModel::setJson(const Json& json) {
    beginResetModel();
    root_ = build(json, nullptr, {});
    endResetModel();
    emit jsonChanged();
}

Json ScenarioTreeModel::toJson() const { return toJson(*root_); }

ScenarioTreeModel::Node* ScenarioTreeModel::find(const std::string& pointer) const {
    Node* n = root_.get();
    for (const std::string& t : splitJsonPointer(pointer)) {
        n = n->child(t);
        if (!n) return nullptr;
    }
    return n;
}

std::optional<Json> ScenarioTreeModel::value(const std::string& pointer) const {
    const Node* n = find(pointer);
    if (!n) return std::nullopt;
    return toJson(*n);
}

QModelIndex ScenarioTreeModel::indexOf(const Node* node, int column) const {
    if (!node || !node->parent) return {};
    return createIndex(node->row(), column, const_cast<Node*>(node));
}

QModelIndex ScenarioTreeModel::indexForPointer(const std::string& pointer, int column) const {
    try {
        return indexOf(find(pointer), column);
    } catch (const Error&) {
        return {};
    }
}

QString ScenarioTreeModel::jsonPointer(const QModelIndex& index) const {
    return QString::fromStdString(pointerOf(nodeAt(index)));
}

ScenarioTreeModel::Node* ScenarioTreeModel::nodeAt(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : root_.get();
}

void ScenarioTreeModel::replace(Node* node, const Json& value) {
    const bool was_container = node->isContainer();
    const bool becomes_container = value.is_object() || value.is_array();
    if (!was_container && !becomes_container) {
        node->type = value.type();
        node->scalar = value;
        emit dataChanged(indexOf(node, ValueColumn), indexOf(node, TypeColumn));
        return;
    }
    const QModelIndex idx = indexOf(node);
    if (!node->children.empty()) {
        beginRemoveRows(idx, 0, static_cast<int>(node->children.size()) - 1);
        node->children.clear();
        endRemoveRows();
    }
    std::unique_ptr<Node> fresh = build(value, nullptr, {});
    node->type = fresh->type;
    node->scalar = fresh->scalar;
    if (!fresh->children.empty()) {
        beginInsertRows(idx, 0, static_cast<int>(fresh->children.size()) - 1);
        node->children = std::move(fresh->children);
        for (auto& c : node->children) c->parent = node;
        endInsertRows();
    }
    if (node->parent) emit dataChanged(indexOf(node, KeyColumn), indexOf(node, TypeColumn));
}

ScenarioTreeModel::Node* ScenarioTreeModel::insertChild(Node* parent, const std::string& token,
                                                        const Json& value) {
    int row = 0;
    if (parent->isObject()) {
        const auto it = std::lower_bound(
            parent->children.begin(), parent->children.end(), token,
            [](const std::unique_ptr<Node>& c, const std::string& k) { return c->key < k; });
        row = static_cast<int>(it - parent->children.begin());
    } else if (parent->isArray() &&
               (token == "-" || token == std::to_string(parent->children.size()))) {
        row = static_cast<int>(parent->children.size());
    } else {
        return nullptr;
    }
    beginInsertRows(indexOf(parent), row, row);
    auto child = build(value, parent, parent->isObject() ? token : std::string());
    Node* raw = child.get();
    parent->children.insert(parent->children.begin() + row, std::move(child));
    endInsertRows();
    return raw;
}

ScenarioTreeModel::EditGroup::EditGroup(ScenarioTreeModel* model, QString what) : model_(model) {
    model_->beginEdit(what);
}

ScenarioTreeModel::EditGroup::~EditGroup() { model_->endEdit(); }

void ScenarioTreeModel::beginEdit(const QString& what) {
    if (restoring_) return;
    if (edit_depth_++ == 0) {
        edit_before_ = toJson();
        edit_what_ = what;
    }
}

void ScenarioTreeModel::endEdit() {
    if (restoring_ || edit_depth_ == 0 || --edit_depth_ > 0) return;
    Json after = toJson();
    // A form field re-written with its own value, or a rejected edit, is not an undo step.
    if (after != edit_before_) emit edited(edit_before_, after, edit_what_);
    edit_before_ = Json();
}

void ScenarioTreeModel::restore(const Json& target) {
    restoring_ = true;
    try {
        // Only the keys that differ are touched (RFC 6902 operations from nlohmann's diff), so
        // a tree the user has opened stays open after Ctrl+Z.
        const Json patch = Json::diff(toJson(), target);
        for (const Json& op : patch) {
            const std::string path = op.at("path").get<std::string>();
            const std::string kind = op.at("op").get<std::string>();
            if (kind == "remove") {
                removeValue(path);
            } else if (kind == "add" || kind == "replace") {
                setValue(path, op.at("value"));
            }
        }
    } catch (const std::exception&) {
        // Fall through to the whole-document replacement below.
    }
    restoring_ = false;
    // diff emits only add/remove/replace, all handled above; should a patch ever not land
    // (a path this model cannot address), the document is replaced whole rather than left
    // half-undone.
    if (toJson() != target) setJson(target);
}

bool ScenarioTreeModel::setValue(const std::string& pointer, const Json& value, QString* error) {
    const EditGroup group(this, tr("set %1").arg(QString::fromStdString(pointer)));
    const auto fail = [&](const std::string& msg) {
        if (error) *error = QString::fromStdString(msg);
        return false;
    };
    std::vector<std::string> tokens;
    try {
        tokens = splitJsonPointer(pointer);
    } catch (const Error& e) {
        return fail(e.what());
    }
    if (tokens.empty()) {
        setJson(value);
        return true;
    }
    Node* n = root_.get();
    std::string path;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        path += "/" + escapeJsonPointerToken(tokens[i]);
        Node* c = n->child(tokens[i]);
        if (!c) {
            if (!n->isObject()) {
                return fail(fmt::format("{}: no such element in the array at {}", path,
                                        pointerOf(n).empty() ? "/" : pointerOf(n)));
            }
            c = insertChild(n, tokens[i], Json::object());
        }
        if (!c->isContainer()) {
            return fail(fmt::format("{}: is a {}, not an object or array; cannot set {}", path,
                                    typeName(c->type).toStdString(), pointer));
        }
        n = c;
    }
    if (Node* c = n->child(tokens.back())) {
        replace(c, value);
    } else if (!insertChild(n, tokens.back(), value)) {
        return fail(fmt::format("{}: cannot add '{}' to {}", pointer, tokens.back(),
                                n->isArray() ? "an array (use an existing index or '-')"
                                             : "a value that is not an object"));
    }
    emit jsonChanged();
    return true;
}

bool ScenarioTreeModel::removeValue(const std::string& pointer) {
    const EditGroup group(this, tr("remove %1").arg(QString::fromStdString(pointer)));
    Node* n = nullptr;
    try {
        n = find(pointer);
    } catch (const Error&) {
        return false;
    }
    if (!n || !n->parent) return false;
    return removeRows(n->row(), 1, indexOf(n->parent));
}

bool ScenarioTreeModel::removeRows(int row, int count, const QModelIndex& parent) {
    Node* p = nodeAt(parent);
    if (row < 0 || count <= 0 || row + count > static_cast<int>(p->children.size())) return false;
    const EditGroup group(this, tr("remove %1")
                                    .arg(QString::fromStdString(pointerOf(
                                        p->children[static_cast<std::size_t>(row)].get()))));
    beginRemoveRows(parent, row, row + count - 1);
    p->children.erase(p->children.begin() + row, p->children.begin() + row + count);
    endRemoveRows();
    emit jsonChanged();
    return true;
}

QModelIndex ScenarioTreeModel::index(int row, int column, const QModelIndex& parent) const {
    const Node* p = nodeAt(parent);
    if (row < 0 || column < 0 || column >= ColumnCount ||
        row >= static_cast<int>(p->children.size())) {
        return {};
    }
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex ScenarioTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    return indexOf(nodeAt(child)->parent);
}

int ScenarioTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != KeyColumn) return 0;
    return static_cast<int>(nodeAt(parent)->children.size());
}

int ScenarioTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ScenarioTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Node* n = nodeAt(index);
    if (role == Qt::ToolTipRole) return QString::fromStdString(pointerOf(n));
    if (index.column() == KeyColumn) {
        if (role != Qt::DisplayRole) return {};
        if (n->parent && n->parent->isArray()) return QStringLiteral("[%1]").arg(n->row());
        return QString::fromStdString(n->key);
    }
    if (index.column() == TypeColumn) {
        return role == Qt::DisplayRole ? typeName(n->type) : QVariant();
    }
    // Value column.
    if (n->isContainer()) {
        if (role == Qt::DisplayRole) {
            const auto size = static_cast<qulonglong>(n->children.size());
            const bool one = size == 1;  // "{1 key}", not "{1 keys}"
            return n->isObject() ? QStringLiteral("{%1 %2}").arg(size).arg(one ? "key" : "keys")
                                 : QStringLiteral("[%1 %2]").arg(size).arg(one ? "item" : "items");
        }
        if (role == Qt::ForegroundRole) return QPalette().brush(QPalette::PlaceholderText);
        return {};
    }
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        if (n->scalar.is_string()) return QString::fromStdString(n->scalar.get<std::string>());
        if (n->scalar.is_boolean()) {
            // A bool EditRole gives the default delegate's true/false combo box.
            if (role == Qt::EditRole) return n->scalar.get<bool>();
            return n->scalar.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
        }
        // Numbers are edited as text: a QDoubleSpinBox would round 1e-5 to two decimals.
        return QString::fromStdString(n->scalar.dump());
    }
    return {};
}

bool ScenarioTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::EditRole || index.column() != ValueColumn) return false;
    Node* n = nodeAt(index);
    if (n->isContainer()) return false;
    const std::string path = pointerOf(n);
    const EditGroup group(this, tr("edit %1").arg(QString::fromStdString(path)));
    const QString text = value.toString().trimmed();
    const auto reject = [&](const QString& expected) {
        emit editRejected(QStringLiteral("%1: expected %2, got '%3'; the value was not changed")
                              .arg(QString::fromStdString(path), expected, value.toString()));
        return false;
    };
    Json v;
    switch (n->type) {
        case Json::value_t::string:
            v = value.toString().toStdString();
            break;
        case Json::value_t::boolean:
            if (value.typeId() == QMetaType::Bool) {
                v = value.toBool();
            } else if (text.compare(QStringLiteral("true"), Qt::CaseInsensitive) == 0) {
                v = true;
            } else if (text.compare(QStringLiteral("false"), Qt::CaseInsensitive) == 0) {
                v = false;
            } else {
                return reject(QStringLiteral("true or false"));
            }
            break;
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned: {
            bool ok = false;
            const qlonglong i = text.toLongLong(&ok);
            if (ok) {
                // nlohmann reads non-negative integers as unsigned; keep that exact type.
                if (n->type == Json::value_t::number_unsigned && i >= 0) {
                    v = static_cast<std::uint64_t>(i);
                } else {
                    v = static_cast<std::int64_t>(i);
                }
                break;
            }
            const double d = text.toDouble(&ok);
            if (!ok || !std::isfinite(d)) return reject(QStringLiteral("a number"));
            if (d == std::floor(d) && std::abs(d) < 9.0e15) {
                v = static_cast<std::int64_t>(d);
            } else {
                v = d;
            }
            break;
        }
        case Json::value_t::number_float: {
            bool ok = false;
            const double d = text.toDouble(&ok);
            if (!ok || !std::isfinite(d)) return reject(QStringLiteral("a number"));
            v = d;
            break;
        }
        default:
            try {
                v = Json::parse(text.toStdString());
            } catch (const Json::exception&) {
                return reject(
                    QStringLiteral("JSON text (a number, \"string\", true, false, "
                                   "null, {...} or [...])"));
            }
            break;
    }
    if (v == n->scalar && v.type() == n->type) return true;
    replace(n, v);
    emit jsonChanged();
    return true;
}

Qt::ItemFlags ScenarioTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == ValueColumn && !nodeAt(index)->isContainer()) f |= Qt::ItemIsEditable;
    return f;
}

QVariant ScenarioTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case KeyColumn:
            return tr("key");
        case ValueColumn:
            return tr("value");
        case TypeColumn:
            return tr("type");
        default:
            return {};
    }
}

}  // namespace dctwin::gui

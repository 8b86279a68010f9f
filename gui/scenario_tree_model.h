#pragma once
// The scenario as an editable tree (DESIGN.md §5.4: "tree for the rest"): every key the form
// does not cover is still reachable here. The model owns the scenario JSON; the form edits it
// through setValue() so that both views always show the same document.
//
// Columns: key, value, type. Only scalar values are editable in place, and an edit keeps the
// JSON type of the value it replaces: a string stays a string (so "35" typed into a string
// field does not become a number), a boolean accepts true/false, a float stays a float, an
// integer stays an integer when the text is integral (a fractional entry makes it a float,
// since JSON has one number type and the facility reports where it needs an integer). A null
// accepts any JSON text. Rejected edits are reported through editRejected() with the path.
// Items are addressed by JSON pointers (RFC 6901, "/cooling/cdu/racks_per_cdu"), the same paths
// the facility's error messages name.
//
// Undo: every change made through setValue(), removeValue(), setData() or removeRows() is
// reported once by edited() with the whole document before and after (a scenario is a few
// kilobytes, so snapshots are cheaper to get right than inverse operations). Several changes
// that make one user action (a study length written in one spelling and the others removed)
// are grouped by an EditGroup into one edited(). restore() goes back to a snapshot by patching
// only the keys that differ, so the tree keeps its expansion, and reports no edit of its own.
#include <QAbstractItemModel>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace dctwin::gui {

class ScenarioTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { KeyColumn = 0, ValueColumn = 1, TypeColumn = 2, ColumnCount = 3 };

    explicit ScenarioTreeModel(QObject* parent = nullptr);
    ~ScenarioTreeModel() override;

    /// Replaces the whole document (model reset).
    void setJson(const Json& json);
    /// The document as JSON; equal to what setJson() received plus the edits since.
    Json toJson() const;

    /// The value at a JSON pointer, or nullopt if there is none.
    std::optional<Json> value(const std::string& pointer) const;
    /// Sets the value at a JSON pointer, creating missing parent objects (not arrays); "-" as
    /// the last token appends to an array. Replacing a scalar keeps the rows around it, so views
    /// keep their expansion. Returns false with `error` naming the path when the pointer goes
    /// through a scalar or a missing array element.
    bool setValue(const std::string& pointer, const Json& value, QString* error = nullptr);
    /// Removes the member or element at the pointer; false if absent or the root.
    bool removeValue(const std::string& pointer);

    /// Makes the document equal to `target` by setting and removing only the keys that differ
    /// (undo and redo). Emits jsonChanged() but not edited().
    void restore(const Json& target);

    /// Groups the changes made while it lives into one edited() (one undo step) named `what`.
    /// Groups nest; the outermost one reports.
    class EditGroup {
    public:
        EditGroup(ScenarioTreeModel* model, QString what);
        ~EditGroup();
        EditGroup(const EditGroup&) = delete;
        EditGroup& operator=(const EditGroup&) = delete;

    private:
        ScenarioTreeModel* model_;
    };

    /// The JSON pointer of an item ("" for an invalid index, i.e. the root).
    QString jsonPointer(const QModelIndex& index) const;
    /// The item at a pointer in the given column, or an invalid index if absent.
    QModelIndex indexForPointer(const std::string& pointer, int column = KeyColumn) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    /// After any change of the document (edit, insert, remove, reset).
    void jsonChanged();
    /// An edit in the tree could not be applied; the text names the path and what is expected.
    void editRejected(const QString& message);
    /// One user edit (or EditGroup) changed the document from `before` to `after`; `what`
    /// names it for the Edit menu ("set /cooling/tcs_supply_temp_C"). Not emitted by setJson()
    /// (a new document) or restore() (undo/redo itself).
    void edited(const Json& before, const Json& after, const QString& what);

private:
    struct Node;
    static std::unique_ptr<Node> build(const Json& json, Node* parent, std::string key);
    static Json toJson(const Node& node);
    static std::string pointerOf(const Node* node);
    Node* nodeAt(const QModelIndex& index) const;
    Node* find(const std::string& pointer) const;
    QModelIndex indexOf(const Node* node, int column = KeyColumn) const;
    void replace(Node* node, const Json& value);
    Node* insertChild(Node* parent, const std::string& token, const Json& value);

    void beginEdit(const QString& what);
    void endEdit();

    std::unique_ptr<Node> root_;
    int edit_depth_ = 0;
    Json edit_before_;
    QString edit_what_;
    bool restoring_ = false;
};

}  // namespace dctwin::gui

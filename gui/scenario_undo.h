#pragma once
// Undo and redo of scenario edits (issue 13: "Undo/redo for every edit"). The form and the tree
// both edit through ScenarioTreeModel, which reports each user edit once with the document
// before and after; this file turns those reports into QUndoStack commands, so one stack covers
// form fields, choices, the tree, Delete in the tree and "scale the jobs" alike.
#include <QUndoCommand>

#include "core/json.h"

class QUndoStack;

namespace dctwin::gui {

class ScenarioTreeModel;

/// One edit of the scenario: undo restores `before`, redo restores `after`.
class ScenarioEditCommand : public QUndoCommand {
public:
    ScenarioEditCommand(ScenarioTreeModel* model, Json before, Json after, const QString& text);
    void undo() override;
    void redo() override;

private:
    ScenarioTreeModel* model_;
    Json before_, after_;
    // QUndoStack::push() calls redo(); the edit it records has already been made.
    bool applied_ = true;
};

/// Pushes every edit the model reports onto `stack`. Loading a document (setJson) is not an
/// edit; the caller clears the stack then.
void recordEdits(ScenarioTreeModel* model, QUndoStack* stack);

}  // namespace dctwin::gui

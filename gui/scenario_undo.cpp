#include "gui/scenario_undo.h"

#include <QUndoStack>

#include "gui/scenario_tree_model.h"

namespace dctwin::gui {

ScenarioEditCommand::ScenarioEditCommand(ScenarioTreeModel* model, Json before, Json after,
                                         const QString& text)
    : model_(model), before_(std::move(before)), after_(std::move(after)) {
    setText(text);
}

void ScenarioEditCommand::undo() { model_->restore(before_); }

void ScenarioEditCommand::redo() {
    if (applied_) {
        applied_ = false;
        return;
    }
    model_->restore(after_);
}

void recordEdits(ScenarioTreeModel* model, QUndoStack* stack) {
    QObject::connect(model, &ScenarioTreeModel::edited, stack,
                     [model, stack](const Json& before, const Json& after, const QString& what) {
                         stack->push(new ScenarioEditCommand(model, before, after, what));
                     });
}

}  // namespace dctwin::gui

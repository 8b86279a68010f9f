#include "gui/export_check.h"

#include <filesystem>

#include "core/errors.h"
#include "core/io/report_writer.h"

namespace dctwin::gui {

bool checkExportFile(const QString& path, const char* what, QString* error) {
    try {
        checkOutputFile(std::filesystem::path(path.toStdString()), what);
    } catch (const InputError& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

}  // namespace dctwin::gui

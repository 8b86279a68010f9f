#pragma once
// The printable report (issue 13): a PDF an engineer can hand to a client, drawn with Qt's
// own PDF writer from what the results tabs show — a title block, the summary metrics, the
// electrical and cooling sizing tables (as displayed, with units and loading colours), the
// power and cooling charts and the one-line diagram, page numbers at the foot.
#include <QString>

namespace dctwin::gui {

class ResultsView;

/// What the title block says.
struct PdfReportInfo {
    QString scenario;  ///< the scenario's name
    QString file;      ///< the scenario file ("not saved")
    QString run;       ///< where and when the results came from
    QString study;     ///< the study ("annual, 365 days")
};

/// Writes the report to `path` through a temporary file in the same folder that is renamed
/// only when complete, so a failed export never leaves a partial or truncated file. Returns
/// the number of pages, or 0 with the reason in `error` when nothing was written.
int writePdfReport(const QString& path, ResultsView& results, const PdfReportInfo& info,
                   QString* error);

}  // namespace dctwin::gui

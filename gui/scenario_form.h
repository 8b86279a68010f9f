#pragma once
// The form for the scenario's main choices (DESIGN.md §5.4). It holds no copy of the scenario:
// every edit goes into the ScenarioTreeModel at the key's JSON pointer, and every change of the
// model (a tree edit, Open) refreshes the form, so the form, the tree and the saved file cannot
// disagree. Keys the form does not cover are left untouched.
//
// Where a scenario can spell a quantity several ways (days / hours / duration_s,
// output_interval_s / _min / _h, tcs_supply_temp_C / _F / _K), the form reads any of them and
// writes one, removing the others: the loader rejects a study that gives its length twice.
#include <QString>
#include <QWidget>
#include <filesystem>

#include "core/json.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace dctwin::gui {

class ScenarioTreeModel;

class ScenarioForm : public QWidget {
    Q_OBJECT
public:
    ScenarioForm(ScenarioTreeModel* model, QWidget* parent = nullptr);

    /// Folder the scenario's relative paths resolve against (the scenario file's folder).
    void setBaseDir(const std::filesystem::path& dir) { base_dir_ = dir; }

    // The editors, for tests and for focusing a field named in an error message.
    QLineEdit* nameEdit() const { return name_; }
    QSpinBox* racksSpin() const { return racks_; }
    QComboBox* rackModelCombo() const { return rack_model_; }
    QComboBox* upsTopologyCombo() const { return ups_topology_; }
    QComboBox* coolantCombo() const { return coolant_; }
    QDoubleSpinBox* supplyTempSpin() const { return supply_temp_; }
    QSpinBox* racksPerCduSpin() const { return racks_per_cdu_; }
    QComboBox* heatRejectionCombo() const { return heat_rejection_; }
    QLineEdit* weatherEdit() const { return weather_; }
    QComboBox* studyKindCombo() const { return study_kind_; }
    QDoubleSpinBox* daysSpin() const { return days_; }
    QDoubleSpinBox* outputIntervalSpin() const { return output_interval_; }

    /// Re-reads every field from the model.
    void refresh();

signals:
    /// A form edit could not be stored (e.g. /it is a string in the file); text names the path.
    void problem(const QString& message);

private:
    void write(const std::string& pointer, const Json& value);
    void remove(const std::string& pointer);
    void writeRackField(const char* key, const Json& value);
    void writeDays(double days);
    void writeStudyKind(const QString& kind);
    void writeOutputInterval(double seconds);
    void writeSupplyTemp(double celsius);
    void browseWeather();

    ScenarioTreeModel* model_;
    std::filesystem::path base_dir_;
    bool refreshing_ = false;

    QLineEdit* name_;
    QSpinBox* racks_;
    QComboBox* rack_model_;
    QLabel* rack_groups_note_;
    QComboBox* ups_topology_;
    QComboBox* coolant_;
    QDoubleSpinBox* supply_temp_;
    QSpinBox* racks_per_cdu_;
    QComboBox* heat_rejection_;
    QLineEdit* weather_;
    QPushButton* browse_weather_;
    QComboBox* study_kind_;
    QDoubleSpinBox* days_;
    QDoubleSpinBox* output_interval_;
};

/// How a chosen data file is written into the scenario: relative to the scenario's folder when
/// inside it, else relative to the repository root (the facility resolves both), else absolute.
std::string scenarioDataPath(const std::filesystem::path& chosen,
                             const std::filesystem::path& scenario_dir);

/// A number as JSON: integral values as integers so a saved file reads "days": 365.
Json jsonNumber(double v);

}  // namespace dctwin::gui

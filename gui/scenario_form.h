#pragma once
// The form for the scenario's main choices (DESIGN.md §5.4). It holds no copy of the scenario:
// every edit goes into the ScenarioTreeModel at the key's JSON pointer, and every change of the
// model (a tree edit, Open) refreshes the form, so the form, the tree and the saved file cannot
// disagree. Keys the form does not cover are left untouched.
//
// Limits, units, defaults and choices are not the GUI's: each field looks its key up in the
// model's own scenario specification (facility::scenarioSpec(), the one the JSON Schema is
// generated from). A key the file does not give shows the model's default as greyed
// placeholder text (or "(default)" in a list), never the previous file's value. Input is never
// changed silently: text that is not a number, is out of the key's range or is not one of its
// choices is shown as invalid with the reason beside the field, nothing is written, and
// hasInvalidInput() lets the window refuse to run or save until it is fixed.
//
// Numbers are written when an edit is finished (Return, focus leaving, or commitEdits() before
// a run or save), so "100" typed on the way to "1000" never lands in the model.
//
// Where a scenario can spell a quantity several ways (days / hours / duration_s,
// output_interval_s / _min / _h, tcs_supply_temp_C / _F), the form reads any of them and
// writes one, removing the others: the loader rejects a study that gives its length twice.
#include <QString>
#include <QWidget>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/object_spec.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace dctwin::gui {

class ScenarioTreeModel;

/// @brief The declaration of the scenario key at a JSON pointer ("/cooling/tcs_supply_temp_C",
/// "/it/racks/0/count"), looked up in facility::scenarioSpec(); array indices step into the
/// element's declaration and /power follows its delegated electrical sizing options.
/// @param pointer JSON pointer of the key
/// @return the declaration, or nullptr when the key is not declared
const KeySpec* scenarioKeySpec(const std::string& pointer);

/// @brief What a number typed for a key means, checked against the key's declaration.
struct NumberCheck {
    std::optional<double> value;  ///< [key unit] the accepted number; empty when refused
    QString error;                ///< why it was refused ("" when accepted or empty text)
};

/// @brief Parses `text` as a number for `spec`: not a number, not an integer where one is
/// needed, or outside [min, max] is refused with the reason and the valid range. Empty text is
/// neither a value nor an error (the key is absent).
/// @param text what the user typed
/// @param spec the key's declaration (range in the key's own unit)
/// @param unit_label the unit as shown to the user ("°C", "days")
NumberCheck checkNumber(const QString& text, const KeySpec& spec, const QString& unit_label);

class ScenarioForm : public QWidget {
    Q_OBJECT
public:
    /// The fields, for tests and for focusing a field named in an error message.
    enum Field {
        Name,
        Racks,
        RackModel,
        UpsTopology,
        Coolant,
        SupplyTemp,
        RacksPerCdu,
        CduPumpReset,
        HeatRejection,
        FacilityPumpControl,
        FacilityCoolant,
        OutdoorLoopCoolant,
        Weather,
        StudyKind,
        Length,
        OutputInterval,
        FieldCount
    };

    explicit ScenarioForm(ScenarioTreeModel* model, QWidget* parent = nullptr);
    ~ScenarioForm() override;

    /// Folder the scenario's relative paths resolve against (the scenario file's folder).
    void setBaseDir(const std::filesystem::path& dir) { base_dir_ = dir; }

    /// The text editor of a text or number field (nullptr for list fields).
    QLineEdit* lineEdit(Field f) const;
    /// The list of a choice field, or the unit list of Length / OutputInterval.
    QComboBox* combo(Field f) const;
    /// Why the field's input was refused ("" when it is valid).
    QString fieldError(Field f) const;
    /// The label shown beside a field ("TCS supply temperature").
    static QString fieldLabel(Field f);

    /// Every refused input as "label (/json/pointer): reason", in form order.
    QStringList invalidInputs() const;
    bool hasInvalidInput() const { return !invalidInputs().isEmpty(); }

    /// Writes every number field whose text differs from the scenario (as if Return had been
    /// pressed in each); refused input stays refused and is not written.
    void commitEdits();

    /// Forgets typed text and refusals and shows the scenario as it is (after Open).
    void reset();

    /// The warning about racks, jobs and name not matching ("" when they match).
    QString workloadNotice() const;
    /// On a campus (/halls): its halls, and which of the form's cooling fields a hall sets for
    /// itself ("" without halls).
    QString hallsNotice() const;
    /// Rack total the jobs and the name were made for (the total when the scenario was opened
    /// or last scaled); scaleWorkloadToRacks() scales from it.
    int referenceRackTotal() const { return reference_racks_; }
    /// Scales every job's rack count (and /workload/racks) from referenceRackTotal() to the
    /// current rack total, keeping their proportions (largest remainder, at least 1 each), and
    /// writes the new total into a name that states the old one ("64 racks" → "128 racks").
    /// Returns false when there is nothing to scale.
    bool scaleWorkloadToRacks();

public slots:
    /// Re-reads every field from the model (fields with refused input keep their text while
    /// the model's value under them is unchanged).
    void refresh();

signals:
    /// A form edit could not be stored (e.g. /it is a string in the file); text names the path.
    void problem(const QString& message);
    /// A field became valid or invalid.
    void validityChanged();

private:
    struct FieldState;
    void buildFields();
    void write(const std::string& pointer, const Json& value);
    void remove(const std::string& pointer);
    void commit(Field f);
    void writeRackCount(int count);
    void writeChoice(Field f);
    void writeStudyKind();
    void changeUnit(Field f);
    void browseWeather();
    void showNumberField(Field f);
    void showChoiceField(Field f);
    void showTextField(Field f);
    void setError(Field f, const QString& error);
    void updateWorkloadNotice();
    int rackTotal() const;
    std::string pointerOf(Field f) const;

    ScenarioTreeModel* model_;
    std::filesystem::path base_dir_;
    bool refreshing_ = false;
    std::vector<FieldState> fields_;
    QLabel* rack_groups_note_ = nullptr;
    QLabel* halls_note_ = nullptr;
    void updateHallsNotice();
    QLabel* workload_note_ = nullptr;
    QPushButton* scale_button_ = nullptr;
    QPushButton* browse_weather_ = nullptr;
    int reference_racks_ = 0;
};

/// How a chosen data file is written into the scenario: relative to the scenario's folder when
/// inside it, else relative to the repository root (the facility resolves both), else absolute.
std::string scenarioDataPath(const std::filesystem::path& chosen,
                             const std::filesystem::path& scenario_dir);

/// Folder a weather file dialog starts in: the folder of the scenario's weather file as the
/// facility resolves it, else the shipped data/weather.
std::filesystem::path weatherDialogDir(const std::string& weather,
                                       const std::filesystem::path& scenario_dir);

/// A number as JSON: integral values as integers so a saved file reads "days": 365.
Json jsonNumber(double v);

/// Job rack counts scaled by to/from, summing to round(sum·to/from), each at least 1, by
/// largest remainder (so 32+8+24 on 64 racks becomes 64+16+48 on 128).
std::vector<int> scaleCounts(const std::vector<int>& counts, int from, int to);

}  // namespace dctwin::gui

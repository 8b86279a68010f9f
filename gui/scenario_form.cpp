#include "gui/scenario_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

#include "core/data_dir.h"
#include "core/units.h"
#include "gui/scenario_tree_model.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

// Suggestions only: the combo boxes stay editable, so a name added to the catalog later can be
// typed, and Validate reports the facility's list of valid choices for a wrong one.
const QStringList kRackModels = {"gb300_nvl72"};
const QStringList kUpsTopologies = {"N", "N+1", "2N", "4N/3", "3N/2", "block_redundant"};
const QStringList kCoolants = {"PG25", "PG20", "PG30", "water"};
const QStringList kHeatRejection = {"dry_cooler", "adiabatic_cooler", "cooling_tower",
                                    "closed_cooling_tower", "chiller"};
const QStringList kStudyKinds = {"design_point", "annual", "transient", "contingency"};

const char* const kDurationKeys[] = {"days",         "hours",      "duration_s",
                                     "duration_min", "duration_h", "duration_days"};

QComboBox* editableCombo(const QStringList& items) {
    auto* c = new QComboBox;
    c->setEditable(true);
    c->addItems(items);
    c->setInsertPolicy(QComboBox::NoInsert);
    return c;
}

std::optional<double> numberAt(const ScenarioTreeModel& m, const std::string& pointer) {
    const auto v = m.value(pointer);
    if (v && v->is_number()) return v->get<double>();
    return std::nullopt;
}

std::optional<QString> stringAt(const ScenarioTreeModel& m, const std::string& pointer) {
    const auto v = m.value(pointer);
    if (v && v->is_string()) return QString::fromStdString(v->get<std::string>());
    return std::nullopt;
}

void showText(QComboBox* c, const std::optional<QString>& v) {
    const QString text = v.value_or(QString());
    if (c->currentText() == text) return;
    const QSignalBlocker block(c);
    if (c->isEditable()) {
        c->setCurrentText(text);
    } else {
        c->setCurrentIndex(c->findText(text));
    }
}

void showNumber(QDoubleSpinBox* s, const std::optional<double>& v) {
    if (!v || s->value() == *v) return;
    const QSignalBlocker block(s);
    s->setValue(*v);
}

void showNumber(QSpinBox* s, const std::optional<double>& v) {
    if (!v || s->value() == static_cast<int>(*v)) return;
    const QSignalBlocker block(s);
    s->setValue(static_cast<int>(*v));
}

}  // namespace

Json jsonNumber(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 9.0e15) {
        return static_cast<std::int64_t>(v);
    }
    return v;
}

std::string scenarioDataPath(const fs::path& chosen, const fs::path& scenario_dir) {
    const fs::path file = fs::weakly_canonical(chosen);
    const auto inside = [&](const fs::path& dir) -> std::optional<std::string> {
        if (dir.empty()) return std::nullopt;
        const fs::path rel = file.lexically_relative(fs::weakly_canonical(dir));
        if (rel.empty() || *rel.begin() == "..") return std::nullopt;
        return rel.generic_string();
    };
    if (auto r = inside(scenario_dir)) return *r;
    // Shipped data are written as scenarios write them: "data/weather/X.epw".
    if (auto r = inside(dataDir())) return "data/" + *r;
    return file.string();
}

ScenarioForm::ScenarioForm(ScenarioTreeModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
    name_ = new QLineEdit;
    racks_ = new QSpinBox;
    racks_->setRange(1, 1000000);
    racks_->setKeyboardTracking(false);
    rack_model_ = editableCombo(kRackModels);
    rack_groups_note_ = new QLabel;
    rack_groups_note_->setWordWrap(true);
    rack_groups_note_->hide();
    ups_topology_ = editableCombo(kUpsTopologies);
    coolant_ = editableCombo(kCoolants);
    supply_temp_ = new QDoubleSpinBox;
    supply_temp_->setRange(5.0, 70.0);
    supply_temp_->setDecimals(1);
    supply_temp_->setSingleStep(0.5);
    supply_temp_->setSuffix(QStringLiteral(" °C"));
    supply_temp_->setKeyboardTracking(false);
    racks_per_cdu_ = new QSpinBox;
    racks_per_cdu_->setRange(1, 10000);
    racks_per_cdu_->setKeyboardTracking(false);
    heat_rejection_ = editableCombo(kHeatRejection);
    weather_ = new QLineEdit;
    weather_->setPlaceholderText(tr("EPW file, e.g. data/weather/USA_VA_Leesburg.Exec.epw"));
    browse_weather_ = new QPushButton(tr("Browse…"));
    study_kind_ = new QComboBox;
    study_kind_->addItems(kStudyKinds);
    days_ = new QDoubleSpinBox;
    days_->setRange(0.001, 3650.0);
    days_->setDecimals(3);
    days_->setSuffix(QStringLiteral(" days"));
    days_->setValue(365.0);
    days_->setKeyboardTracking(false);
    output_interval_ = new QDoubleSpinBox;
    output_interval_->setRange(0.001, 86400.0);
    output_interval_->setDecimals(3);
    output_interval_->setSuffix(QStringLiteral(" s"));
    output_interval_->setValue(600.0);
    output_interval_->setKeyboardTracking(false);

    auto* weather_row = new QHBoxLayout;
    weather_row->setContentsMargins(0, 0, 0, 0);
    weather_row->addWidget(weather_, 1);
    weather_row->addWidget(browse_weather_);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Racks"), racks_);
    form->addRow(tr("Rack model"), rack_model_);
    form->addRow(QString(), rack_groups_note_);
    form->addRow(tr("UPS topology"), ups_topology_);
    form->addRow(tr("Coolant"), coolant_);
    form->addRow(tr("TCS supply temperature"), supply_temp_);
    form->addRow(tr("Racks per CDU"), racks_per_cdu_);
    form->addRow(tr("Heat rejection"), heat_rejection_);
    form->addRow(tr("Weather file"), weather_row);
    form->addRow(tr("Study"), study_kind_);
    form->addRow(tr("Length"), days_);
    form->addRow(tr("Output interval"), output_interval_);

    connect(name_, &QLineEdit::textEdited, this,
            [this](const QString& t) { write("/name", t.toStdString()); });
    connect(racks_, &QSpinBox::valueChanged, this, [this](int n) { writeRackField("count", n); });
    connect(rack_model_, &QComboBox::currentTextChanged, this,
            [this](const QString& t) { writeRackField("model", t.toStdString()); });
    connect(ups_topology_, &QComboBox::currentTextChanged, this,
            [this](const QString& t) { write("/power/ups/topology", t.toStdString()); });
    connect(coolant_, &QComboBox::currentTextChanged, this,
            [this](const QString& t) { write("/cooling/coolant", t.toStdString()); });
    connect(supply_temp_, &QDoubleSpinBox::valueChanged, this, &ScenarioForm::writeSupplyTemp);
    connect(racks_per_cdu_, &QSpinBox::valueChanged, this,
            [this](int n) { write("/cooling/cdu/racks_per_cdu", n); });
    connect(heat_rejection_, &QComboBox::currentTextChanged, this,
            [this](const QString& t) { write("/cooling/heat_rejection/type", t.toStdString()); });
    connect(weather_, &QLineEdit::textEdited, this,
            [this](const QString& t) { write("/site/weather", t.toStdString()); });
    connect(browse_weather_, &QPushButton::clicked, this, &ScenarioForm::browseWeather);
    connect(study_kind_, &QComboBox::currentTextChanged, this, &ScenarioForm::writeStudyKind);
    connect(days_, &QDoubleSpinBox::valueChanged, this, &ScenarioForm::writeDays);
    connect(output_interval_, &QDoubleSpinBox::valueChanged, this,
            &ScenarioForm::writeOutputInterval);
    connect(model_, &ScenarioTreeModel::jsonChanged, this, &ScenarioForm::refresh);
    refresh();
}

void ScenarioForm::write(const std::string& pointer, const Json& value) {
    if (refreshing_) return;
    QString error;
    if (!model_->setValue(pointer, value, &error)) emit problem(error);
}

void ScenarioForm::remove(const std::string& pointer) {
    if (!refreshing_) model_->removeValue(pointer);
}

void ScenarioForm::writeRackField(const char* key, const Json& value) {
    if (refreshing_) return;
    const auto racks = model_->value("/it/racks");
    if (racks && racks->is_array() && !racks->empty()) {
        write(std::string("/it/racks/0/") + key, value);
        return;
    }
    // No rack group yet: create the first one with both fields so it is complete.
    const QString model =
        rack_model_->currentText().isEmpty() ? kRackModels.front() : rack_model_->currentText();
    Json group = {{"model", model.toStdString()}, {"count", racks_->value()}};
    group[key] = value;
    write("/it/racks", Json::array({group}));
}

void ScenarioForm::writeDays(double days) {
    if (refreshing_ || study_kind_->currentText() == QStringLiteral("design_point")) return;
    for (const char* k : kDurationKeys) {
        if (std::string(k) != "days") remove(std::string("/study/") + k);
    }
    write("/study/days", jsonNumber(days));
}

void ScenarioForm::writeStudyKind(const QString& kind) {
    if (refreshing_) return;
    write("/study/kind", kind.toStdString());
    if (kind == QStringLiteral("design_point")) {
        // The loader rejects a length on a design-point study.
        for (const char* k : kDurationKeys) remove(std::string("/study/") + k);
    } else {
        bool has_length = false;
        for (const char* k : kDurationKeys) {
            has_length = has_length || model_->value(std::string("/study/") + k).has_value();
        }
        if (!has_length) write("/study/days", jsonNumber(days_->value()));
    }
    refresh();
}

void ScenarioForm::writeOutputInterval(double seconds) {
    if (refreshing_) return;
    remove("/study/output_interval_min");
    remove("/study/output_interval_h");
    write("/study/output_interval_s", jsonNumber(seconds));
}

void ScenarioForm::writeSupplyTemp(double celsius) {
    if (refreshing_) return;
    remove("/cooling/tcs_supply_temp_F");
    remove("/cooling/tcs_supply_temp_K");
    write("/cooling/tcs_supply_temp_C", jsonNumber(celsius));
}

void ScenarioForm::browseWeather() {
    const QString start =
        weather_->text().isEmpty()
            ? QString::fromStdString((dataDir() / "weather").string())
            : QString::fromStdString((base_dir_ / weather_->text().toStdString()).string());
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Weather file"), start, tr("EPW weather files (*.epw);;All files (*)"));
    if (file.isEmpty()) return;
    const std::string stored = scenarioDataPath(file.toStdString(), base_dir_);
    weather_->setText(QString::fromStdString(stored));
    write("/site/weather", stored);
}

void ScenarioForm::refresh() {
    refreshing_ = true;
    const ScenarioTreeModel& m = *model_;
    if (const auto name = stringAt(m, "/name"); name && name_->text() != *name) {
        const QSignalBlocker block(name_);
        name_->setText(*name);
    }
    showNumber(racks_, numberAt(m, "/it/racks/0/count"));
    showText(rack_model_, stringAt(m, "/it/racks/0/model"));
    const auto racks = m.value("/it/racks");
    const std::size_t groups = racks && racks->is_array() ? racks->size() : 0;
    rack_groups_note_->setVisible(groups > 1);
    rack_groups_note_->setText(
        tr("First of %1 rack groups; edit the others in the tree (/it/racks).").arg(groups));
    showText(ups_topology_, stringAt(m, "/power/ups/topology"));
    showText(coolant_, stringAt(m, "/cooling/coolant"));
    if (const auto c = numberAt(m, "/cooling/tcs_supply_temp_C")) {
        showNumber(supply_temp_, c);
    } else if (const auto f = numberAt(m, "/cooling/tcs_supply_temp_F")) {
        showNumber(supply_temp_, units::kelvinToCelsius(units::fahrenheitToKelvin(*f)));
    } else if (const auto k = numberAt(m, "/cooling/tcs_supply_temp_K")) {
        showNumber(supply_temp_, units::kelvinToCelsius(*k));
    }
    showNumber(racks_per_cdu_, numberAt(m, "/cooling/cdu/racks_per_cdu"));
    showText(heat_rejection_, stringAt(m, "/cooling/heat_rejection/type"));
    if (const auto w = stringAt(m, "/site/weather"); w && weather_->text() != *w) {
        const QSignalBlocker block(weather_);
        weather_->setText(*w);
    }
    showText(study_kind_, stringAt(m, "/study/kind"));
    const bool design_point = study_kind_->currentText() == QStringLiteral("design_point");
    days_->setEnabled(!design_point);
    output_interval_->setEnabled(!design_point);
    const std::pair<const char*, double> lengths[] = {{"/study/days", 1.0},
                                                      {"/study/hours", 1.0 / 24.0},
                                                      {"/study/duration_s", 1.0 / units::day},
                                                      {"/study/duration_min", 1.0 / 1440.0},
                                                      {"/study/duration_h", 1.0 / 24.0},
                                                      {"/study/duration_days", 1.0}};
    for (const auto& [pointer, to_days] : lengths) {
        if (const auto v = numberAt(m, pointer)) {
            showNumber(days_, *v * to_days);
            break;
        }
    }
    if (const auto s = numberAt(m, "/study/output_interval_s")) {
        showNumber(output_interval_, s);
    } else if (const auto mi = numberAt(m, "/study/output_interval_min")) {
        showNumber(output_interval_, *mi * units::minute);
    } else if (const auto h = numberAt(m, "/study/output_interval_h")) {
        showNumber(output_interval_, *h * units::hour);
    }
    refreshing_ = false;
}

}  // namespace dctwin::gui

#include "gui/scenario_form.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

#include "core/data_dir.h"
#include "core/errors.h"
#include "core/units.h"
#include "facility/scenario.h"
#include "gui/display_units.h"
#include "gui/scenario_tree_model.h"
#include "power/sizing.h"

namespace dctwin::gui {
namespace {

namespace fs = std::filesystem;

// One spelling of a quantity: the unit shown, the key written for it and its size in the
// quantity's base unit (seconds for lengths and intervals).
struct Spelling {
    const char* label;
    const char* key;
    double base;
};
const Spelling kLengths[] = {{"days", "days", units::day},
                             {"h", "hours", units::hour},
                             {"min", "duration_min", units::minute},
                             {"s", "duration_s", 1.0}};
// Keys that mean the same unit as one of kLengths (read, never written).
const std::pair<const char*, int> kLengthAliases[] = {{"duration_days", 0}, {"duration_h", 1}};
const Spelling kIntervals[] = {{"s", "output_interval_s", 1.0},
                               {"min", "output_interval_min", units::minute},
                               {"h", "output_interval_h", units::hour}};

const char* const kFieldPointers[] = {"/name",
                                      "/it/racks/0/count",
                                      "/it/racks/0/model",
                                      "/power/ups/topology",
                                      "/cooling/coolant",
                                      "/cooling/tcs_supply_temp_C",
                                      "/cooling/cdu/racks_per_cdu",
                                      "/cooling/cdu/dp_reset",
                                      "/cooling/heat_rejection/type",
                                      "/cooling/facility_loop/pump_control",
                                      "/cooling/facility_loop/coolant",
                                      "/cooling/heat_rejection/outdoor_loop/coolant",
                                      "/site/weather",
                                      "/study/kind",
                                      "/study/days",
                                      "/study/output_interval_s"};

std::optional<double> numberAt(const ScenarioTreeModel& m, const std::string& pointer) {
    const auto v = m.value(pointer);
    if (v && v->is_number()) return v->get<double>();
    return std::nullopt;
}

QString numberText(double v) { return QString::number(v, 'g', 10); }

// The optional glycol loop behind a plate heat exchanger (its liquid is a form field).
constexpr const char* kOutdoorLoop = "/cooling/heat_rejection/outdoor_loop";

// The TCS setpoint's two spellings (the scenario accepts either, facility/scenario.cpp).
constexpr const char* kSupplyTempC = "/cooling/tcs_supply_temp_C";
constexpr const char* kSupplyTempF = "/cooling/tcs_supply_temp_F";
double celsiusToFahrenheit(double c) { return c * 1.8 + 32.0; }
QString rangeText(double v) { return QString::number(v, 'g', 6); }

QString unitLabel(const std::string& unit) {
    if (unit == "C") return QStringLiteral("°C");
    if (unit == "F") return QStringLiteral("°F");
    return QString::fromStdString(unit);
}

QString withUnit(double v, const QString& unit) {
    return unit.isEmpty() ? numberText(v) : QStringLiteral("%1 %2").arg(numberText(v), unit);
}

// "64 racks" in a name, with the number as written ("1,390"); not the 72 of "NVL72 racks".
QRegularExpressionMatch rackCountInName(const QString& name) {
    static const QRegularExpression re(
        QStringLiteral("(?<![\\w,.])(\\d{1,3}(?:,\\d{3})+|\\d+)(\\s*-?\\s*racks?)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(name);
}

}  // namespace

struct ScenarioForm::FieldState {
    enum Kind { Text, Number, Choice } kind = Text;
    QLineEdit* edit = nullptr;
    QComboBox* combo = nullptr;    // the choices, or the units of a number
    QLabel* unit_label = nullptr;  // a number's fixed unit ("°C", "°F" in IP units)
    QLabel* error_label = nullptr;
    QString error;
    QString shown;  // the text the scenario gave the field at the last refresh
    // The model's value under the field when the input was refused: while it is unchanged, a
    // refresh keeps the refused text in view instead of silently putting the old value back.
    std::optional<Json> value_at_error;
};

const KeySpec* scenarioKeySpec(const std::string& pointer) {
    std::vector<std::string> tokens;
    try {
        tokens = splitJsonPointer(pointer);
    } catch (const Error&) {
        return nullptr;
    }
    const ObjectSpec* spec = &facility::scenarioSpec();
    const KeySpec* key = nullptr;
    std::string path;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (key && key->type == KeyType::Array) {
            // An index into an array: the element's declaration is the array key's object.
            if (!key->object) return nullptr;
            spec = key->object.get();
            key = nullptr;
            continue;
        }
        if (key) {
            if (!key->object) return nullptr;
            spec = key->object.get();
        }
        key = spec->find(tokens[i]);
        // /power hands its electrical sizing keys to power::sizingOptionsSpec() (delegated).
        if (!key && path == "/power") key = power::sizingOptionsSpec()->find(tokens[i]);
        if (!key) return nullptr;
        path += "/" + tokens[i];
    }
    return key;
}

NumberCheck checkNumber(const QString& text, const KeySpec& spec, const QString& unit_label) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return {};
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    const QString range = [&] {
        const bool lo = std::isfinite(spec.min), hi = std::isfinite(spec.max);
        const QString u = unit_label.isEmpty() ? QString() : QStringLiteral(" ") + unit_label;
        // A bound that reads poorly in the key's unit gets its SI equivalent, and then its
        // own unit: "1.15741e-05 days (1 s) to 3650 days".
        const auto bound = [&](double b) {
            const std::string eq = boundEquivalent(b, spec.unit);
            return eq.empty() ? rangeText(b) : rangeText(b) + u + QString::fromStdString(eq);
        };
        const auto tail = [&](double b) {
            return boundEquivalent(b, spec.unit).empty() ? u : QString();
        };
        if (lo && hi) {
            return QObject::tr("%1 to %2%3").arg(bound(spec.min), bound(spec.max), tail(spec.max));
        }
        if (lo) return QObject::tr("at least %1%2").arg(bound(spec.min), tail(spec.min));
        if (hi) return QObject::tr("at most %1%2").arg(bound(spec.max), tail(spec.max));
        return QObject::tr("any number");
    }();
    if (!ok || !std::isfinite(v)) {
        return {std::nullopt, QObject::tr("'%1' is not a number (valid: %2)").arg(t, range)};
    }
    if (spec.type == KeyType::Integer && v != std::floor(v)) {
        return {std::nullopt, QObject::tr("'%1' is not a whole number (valid: %2)").arg(t, range)};
    }
    if (v < spec.min || v > spec.max) {
        return {std::nullopt, QObject::tr("%1 is out of range (valid: %2)").arg(t, range)};
    }
    return {v, {}};
}

Json jsonNumber(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 9.0e15) {
        return static_cast<std::int64_t>(v);
    }
    return v;
}

std::vector<int> scaleCounts(const std::vector<int>& counts, int from, int to) {
    std::vector<int> out(counts.size(), 0);
    if (from <= 0 || counts.empty()) return counts;
    const double f = static_cast<double>(to) / from;
    const long sum = std::accumulate(counts.begin(), counts.end(), 0L);
    const long target = std::lround(static_cast<double>(sum) * f);
    std::vector<std::pair<double, std::size_t>> remainders;
    long placed = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const double exact = counts[i] * f;
        out[i] = std::max(1, static_cast<int>(std::floor(exact)));
        placed += out[i];
        remainders.emplace_back(exact - std::floor(exact), i);
    }
    // Largest remainders first; ties go to the earlier job so the result is deterministic.
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; placed < target && k < remainders.size(); ++k, ++placed) {
        ++out[remainders[k].second];
    }
    return out;
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

fs::path weatherDialogDir(const std::string& weather, const fs::path& scenario_dir) {
    if (!weather.empty()) {
        try {
            // The facility's own resolution: "data/weather/x.epw" in a scenario under
            // scenarios/ is the shipped file, not scenarios/data/weather/x.epw.
            const fs::path f = facility::resolveDataPath(scenario_dir, weather, "/site/weather");
            if (f.has_parent_path() && fs::is_directory(f.parent_path())) return f.parent_path();
        } catch (const Error&) {
            // The file named does not exist; start where the shipped weather is.
        }
    }
    return dataDir() / "weather";
}

ScenarioForm::ScenarioForm(ScenarioTreeModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
    fields_.resize(FieldCount);
    buildFields();
    connect(model_, &ScenarioTreeModel::jsonChanged, this, &ScenarioForm::refresh);
    reset();
}

ScenarioForm::~ScenarioForm() = default;

QString ScenarioForm::fieldLabel(Field f) {
    switch (f) {
        case Name:
            return tr("Name");
        case Racks:
            return tr("Racks");
        case RackModel:
            return tr("Rack model");
        case UpsTopology:
            return tr("UPS topology");
        case Coolant:
            return tr("Coolant");
        case SupplyTemp:
            return tr("TCS supply temperature");
        case RacksPerCdu:
            return tr("Racks per CDU");
        case CduPumpReset:
            return tr("CDU pump reset");
        case HeatRejection:
            return tr("Heat rejection");
        case FacilityPumpControl:
            return tr("Facility pump control");
        case FacilityCoolant:
            return tr("Facility loop liquid");
        case OutdoorLoopCoolant:
            return tr("Outdoor glycol loop");
        case Weather:
            return tr("Weather file");
        case StudyKind:
            return tr("Study");
        case Length:
            return tr("Length");
        case OutputInterval:
            return tr("Output interval");
        default:
            return {};
    }
}

void ScenarioForm::buildFields() {
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (int i = 0; i < FieldCount; ++i) {
        const auto f = static_cast<Field>(i);
        FieldState& s = fields_[static_cast<std::size_t>(i)];
        const KeySpec* spec = scenarioKeySpec(kFieldPointers[i]);
        switch (f) {
            case Name:
            case Weather:
                s.kind = FieldState::Text;
                break;
            case Racks:
            case SupplyTemp:
            case RacksPerCdu:
            case Length:
            case OutputInterval:
                s.kind = FieldState::Number;
                break;
            default:
                s.kind = FieldState::Choice;
        }
        auto* row = new QWidget;
        auto* v = new QVBoxLayout(row);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(1);
        auto* line = new QHBoxLayout;
        line->setContentsMargins(0, 0, 0, 0);
        v->addLayout(line);
        if (s.kind == FieldState::Choice) {
            s.combo = new QComboBox;
            line->addWidget(s.combo, 1);
            connect(s.combo, &QComboBox::currentIndexChanged, this, [this, f] {
                if (f == StudyKind) {
                    writeStudyKind();
                } else {
                    writeChoice(f);
                }
            });
        } else {
            s.edit = new QLineEdit;
            line->addWidget(s.edit, 1);
            if (s.kind == FieldState::Text) {
                // Text is stored as typed (an empty required text is refused).
                connect(s.edit, &QLineEdit::textEdited, this, [this, f] { commit(f); });
            } else {
                s.edit->setAlignment(Qt::AlignRight);
                connect(s.edit, &QLineEdit::editingFinished, this, [this, f] {
                    // Tabbing through a field commits nothing: re-writing the shown value would
                    // turn tcs_supply_temp_F into _C.
                    const FieldState& st = fields_[static_cast<std::size_t>(f)];
                    if (st.edit->text() != st.shown || !st.error.isEmpty()) commit(f);
                });
                // While typing, say at once what is wrong, but write only when finished.
                connect(s.edit, &QLineEdit::textEdited, this, [this, f](const QString& t) {
                    FieldState& st = fields_[static_cast<std::size_t>(f)];
                    const KeySpec* k = scenarioKeySpec(pointerOf(f));
                    if (!k) return;
                    const QString u = st.combo ? st.combo->currentText() : unitLabel(k->unit);
                    st.error_label->setText(checkNumber(t, *k, u).error);
                    st.error_label->setVisible(!st.error_label->text().isEmpty());
                });
            }
        }
        if (f == Length || f == OutputInterval) {
            s.combo = new QComboBox;
            if (f == Length) {
                for (const Spelling& sp : kLengths) s.combo->addItem(QString::fromUtf8(sp.label));
            } else {
                for (const Spelling& sp : kIntervals) s.combo->addItem(QString::fromUtf8(sp.label));
            }
            line->addWidget(s.combo);
            connect(s.combo, &QComboBox::currentIndexChanged, this, [this, f] { changeUnit(f); });
        } else if (s.kind == FieldState::Number && spec) {
            s.unit_label = new QLabel(unitLabel(spec->unit));
            s.unit_label->setMinimumWidth(30);
            line->addWidget(s.unit_label);
        }
        if (f == Weather) {
            browse_weather_ = new QPushButton(tr("Browse…"));
            line->addWidget(browse_weather_);
            connect(browse_weather_, &QPushButton::clicked, this, &ScenarioForm::browseWeather);
        }
        s.error_label = new QLabel;
        s.error_label->setWordWrap(true);
        s.error_label->setStyleSheet(QStringLiteral("color: #b00020;"));
        s.error_label->hide();
        v->addWidget(s.error_label);
        if (spec) {
            // The key's own declaration as tooltip: meaning, unit and range.
            const QString tip =
                QStringLiteral("%1\n%2").arg(QString::fromStdString(kFieldPointers[i]),
                                             QString::fromStdString(describeKey(*spec)));
            (s.edit ? static_cast<QWidget*>(s.edit) : s.combo)->setToolTip(tip);
        }
        form->addRow(fieldLabel(f), row);
        if (f == Racks) {
            workload_note_ = new QLabel;
            workload_note_->setWordWrap(true);
            workload_note_->setStyleSheet(QStringLiteral("color: #8a5a00;"));
            scale_button_ = new QPushButton;
            connect(scale_button_, &QPushButton::clicked, this,
                    &ScenarioForm::scaleWorkloadToRacks);
            auto* box = new QWidget;
            auto* bl = new QVBoxLayout(box);
            bl->setContentsMargins(0, 0, 0, 0);
            bl->addWidget(workload_note_);
            bl->addWidget(scale_button_, 0, Qt::AlignLeft);
            halls_note_ = new QLabel;
            halls_note_->setWordWrap(true);
            halls_note_->setStyleSheet(QStringLiteral("color: #8a5a00;"));
            halls_note_->hide();
            bl->addWidget(halls_note_);
            form->addRow(QString(), box);
            workload_note_->hide();
            scale_button_->hide();
        }
        if (f == RackModel) {
            rack_groups_note_ = new QLabel;
            rack_groups_note_->setWordWrap(true);
            rack_groups_note_->hide();
            form->addRow(QString(), rack_groups_note_);
        }
    }
}

QLineEdit* ScenarioForm::lineEdit(Field f) const {
    return fields_[static_cast<std::size_t>(f)].edit;
}
QComboBox* ScenarioForm::combo(Field f) const { return fields_[static_cast<std::size_t>(f)].combo; }
QString ScenarioForm::fieldError(Field f) const {
    return fields_[static_cast<std::size_t>(f)].error;
}

QStringList ScenarioForm::invalidInputs() const {
    QStringList out;
    for (int i = 0; i < FieldCount; ++i) {
        const QString& e = fields_[static_cast<std::size_t>(i)].error;
        if (e.isEmpty()) continue;
        // The pointer lets the window select the key in the tree, as for loader errors.
        out << QStringLiteral("%1 (%2): %3")
                   .arg(fieldLabel(static_cast<Field>(i)),
                        QString::fromStdString(pointerOf(static_cast<Field>(i))), e);
    }
    return out;
}

std::string ScenarioForm::pointerOf(Field f) const {
    const FieldState& s = fields_[static_cast<std::size_t>(f)];
    if (f == Length) {
        return std::string("/study/") + kLengths[std::max(0, s.combo->currentIndex())].key;
    }
    if (f == OutputInterval) {
        return std::string("/study/") + kIntervals[std::max(0, s.combo->currentIndex())].key;
    }
    // The scenario takes the setpoint in either unit: the form reads and writes the one shown.
    if (f == SupplyTemp && unitSystem() == UnitSystem::IP) return kSupplyTempF;
    return kFieldPointers[f];
}

void ScenarioForm::setError(Field f, const QString& error) {
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    const bool changed = s.error != error;
    s.error = error;
    if (error.isEmpty()) {
        s.value_at_error.reset();
    } else if (f == Length || f == OutputInterval) {
        // Either spelling may sit under the field; remember the whole study.
        s.value_at_error = model_->value("/study").value_or(Json());
    } else {
        s.value_at_error = model_->value(kFieldPointers[f]).value_or(Json());
    }
    s.error_label->setText(error);
    s.error_label->setVisible(!error.isEmpty());
    QWidget* w = s.edit ? static_cast<QWidget*>(s.edit) : s.combo;
    w->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("background-color: #fde2e2;"));
    if (changed) emit validityChanged();
}

void ScenarioForm::write(const std::string& pointer, const Json& value) {
    if (refreshing_) return;
    QString error;
    if (!model_->setValue(pointer, value, &error)) emit problem(error);
}

void ScenarioForm::remove(const std::string& pointer) {
    if (!refreshing_) model_->removeValue(pointer);
}

void ScenarioForm::commit(Field f) {
    if (refreshing_) return;
    // A length written in days removes the hours and seconds spellings: one undo step.
    const ScenarioTreeModel::EditGroup group(model_, tr("edit %1").arg(fieldLabel(f)));
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    const QString text = s.edit->text();
    if (s.kind == FieldState::Text) {
        if (text.trimmed().isEmpty()) {
            setError(f, f == Name ? tr("must not be empty (the report is named after it)")
                                  : tr("required: an EPW weather file"));
            return;
        }
        setError(f, {});
        write(kFieldPointers[f], text.toStdString());
        return;
    }
    const std::string pointer = pointerOf(f);
    const KeySpec* spec = scenarioKeySpec(pointer);
    if (!spec) return;
    const QString unit = s.combo ? s.combo->currentText() : unitLabel(spec->unit);
    const NumberCheck c = checkNumber(text, *spec, unit);
    if (!c.error.isEmpty()) {
        setError(f, c.error + tr("; the scenario keeps its value"));
        return;
    }
    const auto removeGroup = [&] {
        if (f == Length) {
            for (const Spelling& sp : kLengths) remove(std::string("/study/") + sp.key);
            for (const auto& [k, i] : kLengthAliases) remove(std::string("/study/") + k);
        } else if (f == OutputInterval) {
            for (const Spelling& sp : kIntervals) remove(std::string("/study/") + sp.key);
        } else if (f == SupplyTemp) {
            // One spelling in the file: the one typed in (°F under View ▸ Units ▸ IP).
            remove(pointer == kSupplyTempF ? kSupplyTempC : kSupplyTempF);
        }
    };
    if (!c.value) {
        // Empty: the key goes, and the model's default applies (shown as the placeholder).
        const bool needed = (f == Racks) || (f == Length && spec->fallback.is_null() &&
                                             combo(StudyKind)->currentData().toString() !=
                                                 QStringLiteral("design_point"));
        if (needed) {
            setError(f, tr("required"));
            return;
        }
        setError(f, {});
        removeGroup();
        if (f != Racks) remove(pointer);
        return;
    }
    setError(f, {});
    if (f == Racks) {
        writeRackCount(static_cast<int>(*c.value));
        return;
    }
    const std::optional<double> now = numberAt(*model_, pointer);
    if (now && *now == *c.value) return;  // Return on an unchanged field writes nothing
    removeGroup();
    write(pointer, jsonNumber(*c.value));
}

void ScenarioForm::commitEdits() {
    for (int i = 0; i < FieldCount; ++i) {
        const auto f = static_cast<Field>(i);
        const FieldState& s = fields_[static_cast<std::size_t>(i)];
        if (s.kind != FieldState::Number || !s.edit->isEnabled()) continue;
        // Only typed text: re-writing a shown value would turn tcs_supply_temp_F into _C.
        if (s.edit->text() != s.shown || !s.error.isEmpty()) commit(f);
    }
}

void ScenarioForm::writeRackCount(int count) {
    const auto racks = model_->value("/it/racks");
    if (racks && racks->is_array() && !racks->empty()) {
        if (numberAt(*model_, "/it/racks/0/count") != std::optional<double>(count)) {
            write("/it/racks/0/count", count);
        }
        return;
    }
    // No rack group yet: create the first one; its model comes from the rack model list when
    // one is chosen, else the twin's reference rack (the GB300 NVL72) when the catalog has it.
    const FieldState& m = fields_[RackModel];
    QString model = m.combo->currentData().toString();
    if (model.isEmpty()) {
        const KeySpec* k = scenarioKeySpec("/it/racks/0/model");
        if (k && !k->choices.empty()) {
            const bool has_reference =
                std::find(k->choices.begin(), k->choices.end(), "gb300_nvl72") != k->choices.end();
            model = QString::fromStdString(has_reference ? "gb300_nvl72" : k->choices.front());
        }
    }
    write("/it/racks", Json::array({Json{{"model", model.toStdString()}, {"count", count}}}));
}

void ScenarioForm::writeChoice(Field f) {
    if (refreshing_) return;
    const ScenarioTreeModel::EditGroup group(model_, tr("choose %1").arg(fieldLabel(f)));
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    const QVariant data = s.combo->currentData();
    if (data.toBool() && data.typeId() == QMetaType::Bool) return;  // the invalid file value
    const std::string pointer = kFieldPointers[f];
    setError(f, {});
    if (!data.isValid()) {
        // "(default)": the key goes and the model's default applies. "none" of the outdoor
        // loop: the whole loop goes (the facility water runs through the units again).
        remove(f == OutdoorLoopCoolant ? std::string(kOutdoorLoop) : pointer);
        return;
    }
    const std::string value = data.toString().toStdString();
    if (f == RackModel) {
        const auto racks = model_->value("/it/racks");
        if (!racks || !racks->is_array() || racks->empty()) {
            write("/it/racks", Json::array({Json{{"model", value}, {"count", 1}}}));
            return;
        }
    }
    write(pointer, value);
}

void ScenarioForm::writeStudyKind() {
    if (refreshing_) return;
    const QVariant data = combo(StudyKind)->currentData();
    if (data.typeId() != QMetaType::QString) return;
    const QString kind = data.toString();
    const ScenarioTreeModel::EditGroup group(model_, tr("choose %1").arg(fieldLabel(StudyKind)));
    setError(StudyKind, {});
    write("/study/kind", kind.toStdString());
    if (kind == QStringLiteral("design_point")) {
        // The loader rejects a length on a design-point study.
        for (const Spelling& sp : kLengths) remove(std::string("/study/") + sp.key);
        for (const auto& [k, i] : kLengthAliases) remove(std::string("/study/") + k);
        setError(Length, {});
    } else {
        bool has_length = false;
        for (const Spelling& sp : kLengths) {
            has_length = has_length || model_->value(std::string("/study/") + sp.key).has_value();
        }
        for (const auto& [k, i] : kLengthAliases) {
            has_length = has_length || model_->value(std::string("/study/") + k).has_value();
        }
        // A study needs a length; start from the usual one and show it in the field.
        if (!has_length) {
            if (kind == QStringLiteral("annual")) {
                write("/study/days", 365);
            } else {
                write("/study/hours", 1);
            }
        }
    }
    refresh();
}

void ScenarioForm::changeUnit(Field f) {
    if (refreshing_) return;
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    // The quantity stays; its number is restated in the new unit.
    const auto& spellings =
        f == Length ? std::span<const Spelling>(kLengths) : std::span<const Spelling>(kIntervals);
    std::optional<double> base;
    for (const Spelling& sp : spellings) {
        if (const auto v = numberAt(*model_, std::string("/study/") + sp.key)) base = *v * sp.base;
    }
    if (f == Length) {
        for (const auto& [k, i] : kLengthAliases) {
            if (const auto v = numberAt(*model_, std::string("/study/") + k)) {
                base = *v * kLengths[i].base;
            }
        }
    }
    const int idx = std::max(0, s.combo->currentIndex());
    if (!base || !s.error.isEmpty()) {
        // Nothing stored yet (or refused text shown): re-check the text in the new unit.
        if (!s.edit->text().trimmed().isEmpty()) commit(f);
        return;
    }
    s.edit->setText(numberText(*base / spellings[static_cast<std::size_t>(idx)].base));
    commit(f);
}

void ScenarioForm::browseWeather() {
    const auto w = model_->value("/site/weather");
    const std::string current = w && w->is_string() ? w->get<std::string>() : std::string();
    const QString start = QString::fromStdString(weatherDialogDir(current, base_dir_).string());
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Weather file"), start, tr("EPW weather files (*.epw);;All files (*)"));
    if (file.isEmpty()) return;
    const std::string stored = scenarioDataPath(file.toStdString(), base_dir_);
    lineEdit(Weather)->setText(QString::fromStdString(stored));
    commit(Weather);
}

void ScenarioForm::reset() {
    for (int i = 0; i < FieldCount; ++i) {
        FieldState& s = fields_[static_cast<std::size_t>(i)];
        if (!s.error.isEmpty()) setError(static_cast<Field>(i), {});
    }
    reference_racks_ = rackTotal();
    refresh();
}

void ScenarioForm::showTextField(Field f) {
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    const auto v = model_->value(kFieldPointers[f]);
    if (!s.error.isEmpty() && s.value_at_error == v.value_or(Json())) return;
    if (!s.error.isEmpty()) setError(f, {});
    const QString text =
        v && v->is_string() ? QString::fromStdString(v->get<std::string>()) : QString();
    if (s.edit->text() != text) s.edit->setText(text);
    s.edit->setPlaceholderText(f == Name ? tr("required: the scenario's name")
                                         : tr("required: EPW file, e.g. data/weather/…epw"));
}

void ScenarioForm::showNumberField(Field f) {
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    const bool ip = unitSystem() == UnitSystem::IP;
    const bool design_point =
        combo(StudyKind)->currentData().toString() == QStringLiteral("design_point");
    const bool timed = f == Length || f == OutputInterval;
    if (timed) {
        s.edit->setEnabled(!design_point);
        s.combo->setEnabled(!design_point);
    }
    const std::optional<Json> under =
        timed ? model_->value("/study") : model_->value(kFieldPointers[f]);
    if (!s.error.isEmpty() && s.value_at_error == under.value_or(Json())) return;
    if (!s.error.isEmpty()) setError(f, {});

    // A double and a flag, not std::optional: GCC 12 warns (maybe-uninitialized) on the
    // optional's payload here, and CI builds with -Werror.
    double value = 0.0;
    bool have = false;
    const auto take = [&](const std::optional<double>& v) {
        if (v && !have) {
            value = *v;
            have = true;
        }
        return have;
    };
    std::optional<int> unit_index;
    QString placeholder;
    if (timed) {
        const auto& spellings = f == Length ? std::span<const Spelling>(kLengths)
                                            : std::span<const Spelling>(kIntervals);
        for (std::size_t i = 0; i < spellings.size() && !have; ++i) {
            if (take(numberAt(*model_, std::string("/study/") + spellings[i].key))) {
                unit_index = static_cast<int>(i);
            }
        }
        if (f == Length) {
            for (const auto& [k, i] : kLengthAliases) {
                if (have) break;
                if (take(numberAt(*model_, std::string("/study/") + k))) unit_index = i;
            }
        }
        if (design_point) {
            placeholder = f == Length ? tr("none: a design point has no length")
                                      : tr("none: a design point has no time series");
        } else if (f == Length) {
            placeholder = tr("required");
        } else {
            const auto kind = combo(StudyKind)->currentData().toString();
            placeholder = kind == QStringLiteral("annual") ? tr("600 s (default for annual)")
                                                           : tr("1 s (default)");
        }
        if (design_point) have = false;
    } else if (f == SupplyTemp) {
        // Shown in the display unit, whichever spelling the file uses.
        const auto c = numberAt(*model_, kSupplyTempC);
        const auto fv = numberAt(*model_, kSupplyTempF);
        if (ip) {
            if (!take(fv) && c) take(celsiusToFahrenheit(*c));
        } else if (!take(c) && fv) {
            take(units::kelvinToCelsius(units::fahrenheitToKelvin(*fv)));
        }
        s.unit_label->setText(ip ? QStringLiteral("°F") : QStringLiteral("°C"));
    } else {
        take(numberAt(*model_, kFieldPointers[f]));
    }
    if (!timed) {
        const KeySpec* spec = scenarioKeySpec(kFieldPointers[f]);
        if (spec && spec->fallback.is_number() && f == SupplyTemp && ip) {
            placeholder = tr("%1 (default)")
                              .arg(withUnit(celsiusToFahrenheit(spec->fallback.get<double>()),
                                            QStringLiteral("°F")));
        } else if (spec && spec->fallback.is_number()) {
            placeholder = tr("%1 (default)")
                              .arg(withUnit(spec->fallback.get<double>(), unitLabel(spec->unit)));
        } else {
            placeholder = tr("required");
        }
    }
    if (unit_index && s.combo->currentIndex() != *unit_index) {
        const QSignalBlocker block(s.combo);
        s.combo->setCurrentIndex(*unit_index);
    }
    const QString text = have ? numberText(value) : QString();
    if (s.edit->text() != text) s.edit->setText(text);
    s.shown = text;
    s.edit->setPlaceholderText(placeholder);
}

void ScenarioForm::showChoiceField(Field f) {
    FieldState& s = fields_[static_cast<std::size_t>(f)];
    const KeySpec* spec = scenarioKeySpec(kFieldPointers[f]);
    if (!spec) return;
    const auto v = model_->value(kFieldPointers[f]);
    const QSignalBlocker block(s.combo);
    s.combo->clear();
    // Absent: the model's default, or a prompt when the key has none. The outdoor loop's
    // liquid is optional with its loop: absent loop, "none"; a loop without the key, its
    // default liquid (selected below).
    const bool outdoor = f == OutdoorLoopCoolant;
    if (outdoor) {
        s.combo->addItem(tr("none"));
    } else if (spec->fallback.is_string()) {
        s.combo->addItem(
            tr("%1 (default)").arg(QString::fromStdString(spec->fallback.get<std::string>())));
    } else if (spec->required) {
        s.combo->addItem(tr("— choose —"));
    } else {
        s.combo->addItem(tr("(default)"));  // the description says whose default
    }
    for (const std::string& c : spec->choices) {
        const QString name = QString::fromStdString(c);
        const bool is_default = outdoor && spec->fallback == c;
        s.combo->addItem(is_default ? tr("%1 (default)").arg(name) : name, name);
    }
    if (!v && outdoor && model_->value(kOutdoorLoop) && spec->fallback.is_string()) {
        s.combo->setCurrentIndex(
            s.combo->findData(QString::fromStdString(spec->fallback.get<std::string>())));
        if (!s.error.isEmpty()) setError(f, {});
        return;
    }
    if (!v) {
        s.combo->setCurrentIndex(0);
        if (!s.error.isEmpty()) setError(f, {});
        return;
    }
    const QString text = v->is_string() ? QString::fromStdString(v->get<std::string>())
                                        : QString::fromStdString(v->dump());
    const int at = v->is_string() ? s.combo->findData(text) : -1;
    if (at >= 0) {
        s.combo->setCurrentIndex(at);
        if (!s.error.isEmpty()) setError(f, {});
        return;
    }
    // The file holds a value the model does not accept: show it, marked, and refuse to run.
    s.combo->addItem(tr("%1 (not valid)").arg(text), true);
    s.combo->setCurrentIndex(s.combo->count() - 1);
    QStringList valid;
    for (const std::string& c : spec->choices) valid << QString::fromStdString(c);
    setError(f, tr("'%1' is not accepted by the model; valid: %2").arg(text, valid.join(", ")));
}

int ScenarioForm::rackTotal() const {
    const auto racks = model_->value("/it/racks");
    int n = 0;
    if (racks && racks->is_array()) {
        for (const Json& g : *racks) {
            if (g.is_object() && g.contains("count") && g["count"].is_number()) {
                n += g["count"].get<int>();
            }
        }
    }
    return n;
}

QString ScenarioForm::workloadNotice() const { return workload_note_->text(); }

QString ScenarioForm::hallsNotice() const { return halls_note_->text(); }

/// A campus's form edits the site-wide /cooling; a hall with a /cooling of its own keeps the
/// keys it sets. The two-hall campus showed "Heat rejection: adiabatic_cooler" with nothing
/// to say that hall B runs cooling towers on water.
void ScenarioForm::updateHallsNotice() {
    const auto halls = model_->value("/halls");
    if (!halls || !halls->is_array() || halls->empty()) {
        halls_note_->clear();
        halls_note_->hide();
        return;
    }
    QStringList list, own;
    for (std::size_t h = 0; h < halls->size(); ++h) {
        const Json& hall = (*halls)[h];
        const QString name = hall.contains("name") && hall["name"].is_string()
                                 ? QString::fromStdString(hall["name"].get<std::string>())
                                 : QString::number(h);
        list << (hall.contains("racks") && hall["racks"].is_number()
                     ? tr("%1 (%2 racks)").arg(name).arg(hall["racks"].get<double>())
                     : name);
        QStringList sets;
        for (int i = 0; i < FieldCount; ++i) {
            const std::string pointer = kFieldPointers[i];
            if (!pointer.starts_with("/cooling/")) continue;
            const auto v = model_->value("/halls/" + std::to_string(h) + pointer);
            if (!v) continue;
            const std::string shown = v->is_string() ? v->get<std::string>() : v->dump();
            sets << QStringLiteral("%1 (%2)").arg(fieldLabel(static_cast<Field>(i)),
                                                  QString::fromStdString(shown));
        }
        if (!sets.isEmpty())
            own << tr("hall %1 sets %2").arg(name, sets.join(QStringLiteral(", ")));
    }
    QString text = tr("Campus of %1 halls: %2. The cooling fields apply to every hall that does "
                      "not set its own")
                       .arg(halls->size())
                       .arg(list.join(QStringLiteral(", ")));
    text += own.isEmpty() ? QStringLiteral(".")
                          : QStringLiteral(": %1.").arg(own.join(QStringLiteral("; ")));
    text += tr(" Edit halls in the tree (/halls).");
    halls_note_->setText(text);
    halls_note_->show();
}

void ScenarioForm::updateWorkloadNotice() {
    const int total = rackTotal();
    QStringList lines;
    const auto jobs = model_->value("/workload/jobs");
    int job_racks = 0;
    if (jobs && jobs->is_array()) {
        for (const Json& j : *jobs) {
            if (j.is_object() && j.contains("racks") && j["racks"].is_number()) {
                job_racks += j["racks"].get<int>();
            }
        }
    }
    const QLocale en(QLocale::English);
    if (job_racks > total && total > 0) {
        lines << tr("The jobs need %1 racks but the site has %2: the run will fail.")
                     .arg(en.toString(job_racks), en.toString(total));
    } else if (job_racks > 0 && job_racks < total && reference_racks_ != total) {
        lines << tr("The jobs were placed on %1 racks: %2 of the %3 racks will stay idle.")
                     .arg(en.toString(job_racks), en.toString(total - job_racks),
                          en.toString(total));
    }
    if (const auto w = numberAt(*model_, "/workload/racks"); w && static_cast<int>(*w) != total) {
        lines << tr("/workload/racks says %1 racks; the site has %2.")
                     .arg(en.toString(static_cast<int>(*w)), en.toString(total));
    }
    const auto name = model_->value("/name");
    if (name && name->is_string()) {
        const auto m = rackCountInName(QString::fromStdString(name->get<std::string>()));
        if (m.hasMatch()) {
            const int said = QString(m.captured(1)).remove(QLatin1Char(',')).toInt();
            if (said != total) {
                lines << tr("The name says %1 racks; the site has %2.")
                             .arg(m.captured(1), en.toString(total));
            }
        }
    }
    workload_note_->setText(lines.join(QLatin1Char('\n')));
    workload_note_->setVisible(!lines.isEmpty());
    const bool can_scale = reference_racks_ > 0 && total > 0 && reference_racks_ != total;
    scale_button_->setText(tr("Scale jobs and name from %1 to %2 racks")
                               .arg(en.toString(reference_racks_), en.toString(total)));
    scale_button_->setVisible(can_scale && !lines.isEmpty());
}

bool ScenarioForm::scaleWorkloadToRacks() {
    const int from = reference_racks_;
    const int to = rackTotal();
    if (from <= 0 || to <= 0 || from == to) return false;
    const ScenarioTreeModel::EditGroup group(model_, tr("scale the jobs to %1 racks").arg(to));
    const auto jobs = model_->value("/workload/jobs");
    if (jobs && jobs->is_array()) {
        std::vector<int> counts;
        std::vector<std::size_t> where;
        for (std::size_t i = 0; i < jobs->size(); ++i) {
            const Json& j = (*jobs)[i];
            if (j.is_object() && j.contains("racks") && j["racks"].is_number()) {
                counts.push_back(j["racks"].get<int>());
                where.push_back(i);
            }
        }
        const std::vector<int> scaled = scaleCounts(counts, from, to);
        for (std::size_t k = 0; k < where.size(); ++k) {
            write("/workload/jobs/" + std::to_string(where[k]) + "/racks", scaled[k]);
        }
    }
    if (const auto w = numberAt(*model_, "/workload/racks")) {
        write("/workload/racks",
              static_cast<int>(*w) == from ? to : static_cast<int>(std::lround(*w * to / from)));
    }
    const auto name = model_->value("/name");
    if (name && name->is_string()) {
        QString n = QString::fromStdString(name->get<std::string>());
        const auto m = rackCountInName(n);
        if (m.hasMatch()) {
            const QString written = m.captured(1).contains(QLatin1Char(','))
                                        ? QLocale(QLocale::English).toString(to)
                                        : QString::number(to);
            n.replace(m.capturedStart(1), m.capturedLength(1), written);
            write("/name", n.toStdString());
        }
    }
    reference_racks_ = to;
    updateWorkloadNotice();
    return true;
}

void ScenarioForm::refresh() {
    refreshing_ = true;
    showTextField(Name);
    showNumberField(Racks);
    showChoiceField(RackModel);
    const auto racks = model_->value("/it/racks");
    const std::size_t groups = racks && racks->is_array() ? racks->size() : 0;
    rack_groups_note_->setVisible(groups > 1);
    rack_groups_note_->setText(
        tr("First of %1 rack groups; edit the others in the tree (/it/racks).").arg(groups));
    showChoiceField(UpsTopology);
    showChoiceField(Coolant);
    showNumberField(SupplyTemp);
    showNumberField(RacksPerCdu);
    showChoiceField(CduPumpReset);
    showChoiceField(HeatRejection);
    showChoiceField(FacilityPumpControl);
    showChoiceField(FacilityCoolant);
    showChoiceField(OutdoorLoopCoolant);
    showTextField(Weather);
    showChoiceField(StudyKind);
    showNumberField(Length);
    showNumberField(OutputInterval);
    updateWorkloadNotice();
    updateHallsNotice();
    refreshing_ = false;
}

}  // namespace dctwin::gui

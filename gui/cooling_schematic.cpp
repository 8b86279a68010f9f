#include "gui/cooling_schematic.h"

#include <QBrush>
#include <QFont>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QPen>
#include <algorithm>
#include <cmath>

#include "gui/display_units.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

constexpr double kBoxW = 170.0, kBoxH = 86.0, kSpan = 150.0;  // [scene units]
const QColor kSupply(0x00, 0x72, 0xb2);
const QColor kReturn(0xd5, 0x5e, 0x00);

std::optional<double> at(const ResultSet& rs, const char* group, const char* name, const char* unit,
                         std::size_t i) {
    const Channel* c = rs.find(group, name);
    if (!c || c->unit != unit || i >= c->values.size() || !std::isfinite(c->values[i])) {
        return std::nullopt;
    }
    return c->values[i];
}

// "count × model" of a sizing/cooling row, or "" when the table lacks the row.
QString countOf(const Table* t, const std::string& element) {
    if (!t) return {};
    const Table::Column* el = nullptr;
    const Table::Column* count = nullptr;
    const Table::Column* model = nullptr;
    for (const Table::Column& c : t->columns) {
        if (c.name == "element") el = &c;
        if (c.name == "count") count = &c;
        if (c.name == "model") model = &c;
    }
    if (!el || !count) return {};
    const auto* names = std::get_if<std::vector<std::string>>(&el->data);
    const auto* counts = std::get_if<std::vector<double>>(&count->data);
    const auto* models = model ? std::get_if<std::vector<std::string>>(&model->data) : nullptr;
    if (!names || !counts) return {};
    for (std::size_t r = 0; r < names->size() && r < counts->size(); ++r) {
        if ((*names)[r] != element) continue;
        QString s = QStringLiteral("%1 ×").arg(formatNumber((*counts)[r]));
        if (models && r < models->size())
            s += QLatin1Char(' ') + QString::fromStdString((*models)[r]);
        return s;
    }
    return {};
}

QString valueText(const std::optional<double>& v, const DisplayUnit& u) {
    if (!v) return QStringLiteral("–");
    return QStringLiteral("%1 %2").arg(formatMeasurement(u.fromSI(*v)), u.label);
}

}  // namespace

std::optional<CoolingState> coolingAtPeakHeat(const Report& report) {
    const ResultSet& rs = report.timeseries;
    const Channel* heat = rs.find("cooling", "heat_to_liquid");
    if (!heat || heat->unit != "W" || heat->values.empty() || rs.time.empty()) return std::nullopt;
    std::size_t i = 0;
    for (std::size_t k = 0; k < heat->values.size() && k < rs.time.size(); ++k) {
        if (std::isfinite(heat->values[k]) && !(heat->values[k] <= heat->values[i])) i = k;
    }
    CoolingState s;
    s.time_s = rs.time[i];
    if (const auto start =
            QDateTime::fromString(QString::fromStdString(rs.start_iso8601), Qt::ISODate);
        start.isValid()) {
        s.when = start.addMSecs(static_cast<qint64>(std::llround(s.time_s * 1e3)));
    }
    s.tcs_supply = at(rs, "cooling", "tcs_supply_temp", "K", i);
    s.tcs_return = at(rs, "cooling", "tcs_return_temp", "K", i);
    s.fws_supply = at(rs, "cooling", "fws_supply_temp", "K", i);
    s.fws_return = at(rs, "cooling", "fws_return_temp", "K", i);
    s.rack_flow = at(rs, "cooling", "rack_flow", "m3/s", i);
    s.fws_flow = at(rs, "cooling", "fws_flow", "m3/s", i);
    s.heat_to_liquid = at(rs, "cooling", "heat_to_liquid", "W", i);
    s.heat_rejected = at(rs, "cooling", "heat_rejected", "W", i);
    s.cdu_dp = at(rs, "cooling", "cdu_header_dp", "Pa", i);
    s.dry_bulb = at(rs, "weather", "dry_bulb", "K", i);
    s.wet_bulb = at(rs, "weather", "wet_bulb", "K", i);
    return s;
}

CoolingSchematic::CoolingSchematic(QWidget* parent)
    : QGraphicsView(parent), scene_(new QGraphicsScene(this)) {
    setScene(scene_);
    setRenderHint(QPainter::Antialiasing);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setBackgroundBrush(Qt::white);  // the fills and line colours are chosen for white
}

QStringList CoolingSchematic::sceneTexts() const {
    QStringList out;
    for (const QGraphicsItem* item : scene_->items(Qt::AscendingOrder)) {
        if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item)) out << t->toPlainText();
    }
    return out;
}

void CoolingSchematic::setReport(const Report* report) {
    scene_->clear();
    state_.reset();
    if (!report) return;
    state_ = coolingAtPeakHeat(*report);
    if (!state_) return;
    const CoolingState& s = *state_;
    const Table* sizing = findTable(report->tables, "sizing/cooling");

    const DisplayUnit temp = displayUnitFor("K", 300.0);
    const DisplayUnit heat = displayUnitForQuantity(
        "heat_to_liquid", "W",
        std::max(s.heat_to_liquid.value_or(0.0), s.heat_rejected.value_or(0.0)));
    const DisplayUnit rack_flow = displayUnitFor("m3/s", s.rack_flow.value_or(0.0));
    const DisplayUnit plant_flow = displayUnitFor("m3/s", s.fws_flow.value_or(0.0));
    const DisplayUnit dp = displayUnitFor("Pa", s.cdu_dp.value_or(0.0));

    const auto text = [&](const QString& t, double x, double y, const QColor& colour = Qt::black,
                          bool bold = false) {
        auto* item = scene_->addText(t);
        item->setDefaultTextColor(colour);
        if (bold) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        item->setPos(x, y);
        return item;
    };
    const auto box = [&](int column, const QString& title, const QString& detail) {
        const double x = column * (kBoxW + kSpan);
        scene_->addRect(x, 0, kBoxW, kBoxH, QPen(QColor(0x55, 0x55, 0x55)),
                        QBrush(QColor(0xee, 0xee, 0xee)));
        text(title, x + 4, 2, Qt::black, true)->setTextWidth(kBoxW - 8);
        text(detail, x + 4, 26)->setTextWidth(kBoxW - 8);
    };
    // A loop between two boxes: supply on top (to the left box, the load), return below.
    const auto loop = [&](int left, const QString& name, const std::optional<double>& supply,
                          const std::optional<double>& ret, const QString& below) {
        const double x1 = left * (kBoxW + kSpan) + kBoxW, x2 = x1 + kSpan;
        QPen sp(kSupply, 3.0), rp(kReturn, 3.0);
        scene_->addLine(x1, kBoxH * 0.3, x2, kBoxH * 0.3, sp);
        scene_->addLine(x1, kBoxH * 0.75, x2, kBoxH * 0.75, rp);
        // Arrow heads: supply flows to the load (left), return to the plant (right).
        scene_->addLine(x1, kBoxH * 0.3, x1 + 8, kBoxH * 0.3 - 5, sp);
        scene_->addLine(x1, kBoxH * 0.3, x1 + 8, kBoxH * 0.3 + 5, sp);
        scene_->addLine(x2, kBoxH * 0.75, x2 - 8, kBoxH * 0.75 - 5, rp);
        scene_->addLine(x2, kBoxH * 0.75, x2 - 8, kBoxH * 0.75 + 5, rp);
        text(name, x1 + 4, -26, Qt::black, true);
        text(tr("supply %1").arg(valueText(supply, temp)), x1 + 4, kBoxH * 0.3 - 24, kSupply);
        text(tr("return %1").arg(valueText(ret, temp)), x1 + 4, kBoxH * 0.75 + 2, kReturn);
        text(below, x1 + 4, kBoxH + 16)->setTextWidth(kSpan - 4);
    };

    const QString racks = countOf(sizing, "rack_loop_flow");
    box(0, tr("Racks"),
        tr("%1 racks\nheat to liquid %2")
            .arg(racks.isEmpty() ? QStringLiteral("–") : racks.section(QLatin1Char(' '), 0, 0),
                 valueText(s.heat_to_liquid, heat)));
    box(1, tr("CDUs"), countOf(sizing, "cdu"));
    box(2, tr("Facility water"), countOf(sizing, "fws_pumps"));
    box(3, tr("Heat rejection"),
        tr("%1\nrejects %2")
            .arg(countOf(sizing, "heat_rejection"), valueText(s.heat_rejected, heat)));

    loop(0, tr("Rack loop (TCS)"), s.tcs_supply, s.tcs_return,
         tr("%1 per rack\nΔp %2 across the racks")
             .arg(valueText(s.rack_flow, rack_flow), valueText(s.cdu_dp, dp)));
    loop(1, tr("Facility water (FWS)"), s.fws_supply, s.fws_return,
         tr("%1 in all").arg(valueText(s.fws_flow, plant_flow)));
    loop(2, tr("Facility water (FWS)"), s.fws_supply, s.fws_return, QString());
    const double x_air = 4 * (kBoxW + kSpan) - kSpan + 12;
    text(tr("outdoor\ndry bulb %1\nwet bulb %2")
             .arg(valueText(s.dry_bulb, temp), valueText(s.wet_bulb, temp)),
         x_air, 0);

    const QString when = s.when.isValid()
                             ? s.when.toString(QStringLiteral("d MMM yyyy HH:mm"))
                             : tr("%1 h into the study").arg(formatNumber(s.time_s / 3600.0));
    text(tr("Cooling at peak heat to liquid (%1): one instant, so the temperatures, flows and "
            "duties belong together. Blue: supply; orange: return.")
             .arg(when),
         0, kBoxH + 90, QColor(0x33, 0x33, 0x33))
        ->setTextWidth(4 * kBoxW + 3 * kSpan);
    setSceneRect(scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10));
}

}  // namespace dctwin::gui

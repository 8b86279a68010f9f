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

// "count × model" of a sizing/cooling row of `hall` (any row when the table has no hall
// column), or "" when the table lacks the row.
QString countOf(const Table* t, const std::string& element, const std::string& hall) {
    if (!t) return {};
    const Table::Column* el = nullptr;
    const Table::Column* count = nullptr;
    const Table::Column* model = nullptr;
    const Table::Column* hall_of = nullptr;
    for (const Table::Column& c : t->columns) {
        if (c.name == "element") el = &c;
        if (c.name == "count") count = &c;
        if (c.name == "model") model = &c;
        if (c.name == "hall") hall_of = &c;
    }
    if (!el || !count) return {};
    const auto* names = std::get_if<std::vector<std::string>>(&el->data);
    const auto* counts = std::get_if<std::vector<double>>(&count->data);
    const auto* models = model ? std::get_if<std::vector<std::string>>(&model->data) : nullptr;
    const auto* halls = hall_of ? std::get_if<std::vector<std::string>>(&hall_of->data) : nullptr;
    if (!names || !counts) return {};
    for (std::size_t r = 0; r < names->size() && r < counts->size(); ++r) {
        if ((*names)[r] != element) continue;
        if (halls && r < halls->size() && (*halls)[r] != hall) continue;
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
    // The halls, in the order their channels were recorded; none: the site is one chain.
    std::vector<std::string> halls;
    for (const Channel& c : rs.channels) {
        if (!c.group.starts_with("halls/")) continue;
        const std::string name = c.group.substr(6);
        if (std::find(halls.begin(), halls.end(), name) == halls.end()) halls.push_back(name);
    }
    if (halls.empty()) halls.emplace_back();
    for (const std::string& h : halls) {
        const std::string g = h.empty() ? std::string("cooling") : "halls/" + h;
        const char* group = g.c_str();
        CoolingChain c;
        c.hall = h;
        c.tcs_supply = at(rs, group, "tcs_supply_temp", "K", i);
        c.tcs_return = at(rs, group, "tcs_return_temp", "K", i);
        c.fws_supply = at(rs, group, "fws_supply_temp", "K", i);
        c.fws_return = at(rs, group, "fws_return_temp", "K", i);
        c.rack_flow = at(rs, group, "rack_flow", "m3/s", i);
        c.fws_flow = at(rs, group, "fws_flow", "m3/s", i);
        c.heat_to_liquid = at(rs, group, "heat_to_liquid", "W", i);
        c.heat_rejected = at(rs, group, "heat_rejected", "W", i);
        c.cdu_dp = at(rs, group, "cdu_header_dp", "Pa", i);
        s.chains.push_back(std::move(c));
    }
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

    // One set of units for every hall, from the largest values among them, so the rows compare.
    double heat_max = 0.0, rack_flow_max = 0.0, fws_flow_max = 0.0, dp_max = 0.0;
    for (const CoolingChain& c : s.chains) {
        heat_max =
            std::max({heat_max, c.heat_to_liquid.value_or(0.0), c.heat_rejected.value_or(0.0)});
        rack_flow_max = std::max(rack_flow_max, c.rack_flow.value_or(0.0));
        fws_flow_max = std::max(fws_flow_max, c.fws_flow.value_or(0.0));
        dp_max = std::max(dp_max, c.cdu_dp.value_or(0.0));
    }
    const DisplayUnit temp = displayUnitFor("K", 300.0);
    const DisplayUnit heat = displayUnitForQuantity("heat_to_liquid", "W", heat_max);
    const DisplayUnit rack_flow = displayUnitFor("m3/s", rack_flow_max);
    const DisplayUnit plant_flow = displayUnitFor("m3/s", fws_flow_max);
    const DisplayUnit dp = displayUnitFor("Pa", dp_max);

    double top = 0.0;  // of the chain being drawn
    const auto text = [&](const QString& t, double x, double y, const QColor& colour = Qt::black,
                          bool bold = false) {
        auto* item = scene_->addText(t);
        item->setDefaultTextColor(colour);
        if (bold) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        item->setPos(x, top + y);
        return item;
    };
    const auto box = [&](int column, const QString& title, const QString& detail) {
        const double x = column * (kBoxW + kSpan);
        scene_->addRect(x, top, kBoxW, kBoxH, QPen(QColor(0x55, 0x55, 0x55)),
                        QBrush(QColor(0xee, 0xee, 0xee)));
        text(title, x + 4, 2, Qt::black, true)->setTextWidth(kBoxW - 8);
        text(detail, x + 4, 26)->setTextWidth(kBoxW - 8);
    };
    // A loop between two boxes: supply on top (to the left box, the load), return below.
    const auto loop = [&](int left, const QString& name, const std::optional<double>& supply,
                          const std::optional<double>& ret, const QString& below) {
        const double x1 = left * (kBoxW + kSpan) + kBoxW, x2 = x1 + kSpan;
        const double ys = top + kBoxH * 0.3, yr = top + kBoxH * 0.75;
        QPen sp(kSupply, 3.0), rp(kReturn, 3.0);
        scene_->addLine(x1, ys, x2, ys, sp);
        scene_->addLine(x1, yr, x2, yr, rp);
        // Arrow heads: supply flows to the load (left), return to the plant (right).
        scene_->addLine(x1, ys, x1 + 8, ys - 5, sp);
        scene_->addLine(x1, ys, x1 + 8, ys + 5, sp);
        scene_->addLine(x2, yr, x2 - 8, yr - 5, rp);
        scene_->addLine(x2, yr, x2 - 8, yr + 5, rp);
        text(name, x1 + 4, -26, Qt::black, true);
        text(tr("supply %1").arg(valueText(supply, temp)), x1 + 4, kBoxH * 0.3 - 24, kSupply);
        text(tr("return %1").arg(valueText(ret, temp)), x1 + 4, kBoxH * 0.75 + 2, kReturn);
        text(below, x1 + 4, kBoxH + 16)->setTextWidth(kSpan - 4);
    };

    for (const CoolingChain& c : s.chains) {
        if (!c.hall.empty()) {
            // The hall's name above its chain, clear of the loops' names.
            QGraphicsTextItem* title =
                text(tr("Hall %1").arg(QString::fromStdString(c.hall)), 0, -56, Qt::black, true);
            QFont f = title->font();
            f.setPointSizeF(f.pointSizeF() * 1.2);
            title->setFont(f);
        }
        const QString racks = countOf(sizing, "rack_loop_flow", c.hall);
        box(0, tr("Racks"),
            tr("%1 racks\nheat to liquid %2")
                .arg(racks.isEmpty() ? QStringLiteral("–") : racks.section(QLatin1Char(' '), 0, 0),
                     valueText(c.heat_to_liquid, heat)));
        box(1, tr("CDUs"), countOf(sizing, "cdu", c.hall));
        box(2, tr("Facility water"), countOf(sizing, "fws_pumps", c.hall));
        box(3, tr("Heat rejection"),
            tr("%1\nrejects %2")
                .arg(countOf(sizing, "heat_rejection", c.hall), valueText(c.heat_rejected, heat)));

        loop(0, tr("Rack loop (TCS)"), c.tcs_supply, c.tcs_return,
             tr("%1 per rack\nΔp %2 across the racks")
                 .arg(valueText(c.rack_flow, rack_flow), valueText(c.cdu_dp, dp)));
        loop(1, tr("Facility water (FWS)"), c.fws_supply, c.fws_return,
             tr("%1 in all").arg(valueText(c.fws_flow, plant_flow)));
        loop(2, tr("Facility water (FWS)"), c.fws_supply, c.fws_return, QString());
        const double x_air = 4 * (kBoxW + kSpan) - kSpan + 12;
        text(tr("outdoor\ndry bulb %1\nwet bulb %2")
                 .arg(valueText(s.dry_bulb, temp), valueText(s.wet_bulb, temp)),
             x_air, 0);
        top += kBoxH + 160;
    }
    top -= kBoxH + 160;

    const QString when = s.when.isValid()
                             ? s.when.toString(QStringLiteral("d MMM yyyy HH:mm"))
                             : tr("%1 h into the study").arg(formatNumber(s.time_s / 3600.0));
    text((s.chains.size() > 1
              ? tr("Cooling at the campus's peak heat to liquid (%1): one instant for every hall, "
                   "so the temperatures, flows and duties belong together. Blue: supply; orange: "
                   "return.")
              : tr("Cooling at peak heat to liquid (%1): one instant, so the temperatures, flows "
                   "and duties belong together. Blue: supply; orange: return."))
             .arg(when),
         0, kBoxH + 90, QColor(0x33, 0x33, 0x33))
        ->setTextWidth(4 * kBoxW + 3 * kSpan);
    setSceneRect(scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10));
}

}  // namespace dctwin::gui

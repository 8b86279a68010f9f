#include "gui/one_line_diagram.h"

#include <QBrush>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QPainter>
#include <QPen>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "gui/display_units.h"
#include "gui/export_check.h"
#include "gui/table_models.h"

namespace dctwin::gui {
namespace {

constexpr double kWidth = 230.0;  // block size [px]
constexpr double kHeight = 62.0;
constexpr double kGap = 26.0;  // vertical space for the connecting line

const QColor kNeutral(0xe8, 0xec, 0xf2);

struct Row {
    QString element;
    std::string hall;  // the cooling table's hall column ("" without one)
    QString text;
    int count = 0;
    double loading = std::nan("");
    LoadingScale scale = LoadingScale::Electrical;  // what its loading is read against
};

const std::vector<double>* numbers(const Table& t, const std::string& name) {
    for (const auto& c : t.columns) {
        if (c.name == name) return std::get_if<std::vector<double>>(&c.data);
    }
    return nullptr;
}

const std::vector<std::string>* texts(const Table& t, const std::string& name) {
    for (const auto& c : t.columns) {
        if (c.name == name) return std::get_if<std::vector<std::string>>(&c.data);
    }
    return nullptr;
}

// The rows of a sizing table as blocks: "ups  static_1500kw / 12 × 1.50 MW, 4N/3 / 55 % design".
std::vector<Row> rowsOf(const Table& t) {
    std::vector<Row> out;
    const auto* element = texts(t, "element");
    if (!element) return out;
    const auto* model = texts(t, "model");
    const auto* unit = texts(t, "unit");
    const auto* redundancy = texts(t, "redundancy");
    const auto* rating = numbers(t, "rating");
    const auto* count = numbers(t, "count");
    const auto* loading = numbers(t, "design_loading_pct");
    // A campus's cooling table names each row's hall (facility/study.cpp): the blocks say it,
    // or hall A's and hall B's CDUs would read alike.
    const auto* hall = texts(t, "hall");
    for (std::size_t i = 0; i < element->size(); ++i) {
        Row r;
        r.element = QString::fromStdString((*element)[i]);
        r.scale = loadingScaleOf(t.path, (*element)[i]);
        r.count = count && i < count->size() ? static_cast<int>(std::lround((*count)[i])) : 0;
        QString size;
        if (rating && unit && i < rating->size() && i < unit->size()) {
            // Engineering units as in the sizing table (W → kW/MW, VA → kVA/MVA).
            const std::string u = (*unit)[i];
            const double v = (*rating)[i];
            DisplayUnit du = displayUnitFor(u, std::abs(v));
            if (u == "VA") {
                du = std::abs(v) >= 1e6   ? DisplayUnit{QStringLiteral("MVA"), 1e-6, 0.0}
                     : std::abs(v) >= 1e3 ? DisplayUnit{QStringLiteral("kVA"), 1e-3, 0.0}
                                          : DisplayUnit{QStringLiteral("VA"), 1.0, 0.0};
            }
            size =
                QStringLiteral("%1 × %2 %3").arg(r.count).arg(formatNumber(du.fromSI(v)), du.label);
        } else {
            size = QStringLiteral("%1 ×").arg(r.count);
        }
        // "-" is the table's "no redundancy stated" (operating points, the rack loop).
        if (redundancy && i < redundancy->size() && !(*redundancy)[i].empty() &&
            (*redundancy)[i] != "-") {
            size += QStringLiteral(", %1").arg(QString::fromStdString((*redundancy)[i]));
        }
        QString line3;
        if (loading && i < loading->size() && std::isfinite((*loading)[i])) {
            r.loading = (*loading)[i];
            line3 = r.scale == LoadingScale::Delivered
                        ? QObject::tr("%1 % of design flow").arg(r.loading, 0, 'f', 0)
                        : QObject::tr("design loading %1 %").arg(r.loading, 0, 'f', 0);
        }
        const QString m =
            model && i < model->size() ? QString::fromStdString((*model)[i]) : QString();
        r.text = QStringLiteral("%1  %2\n%3").arg(r.element, m, size);
        if (hall && i < hall->size() && !(*hall)[i].empty()) {
            r.hall = (*hall)[i];
            r.text = QString::fromStdString((*hall)[i]) + QStringLiteral(": ") + r.text;
        }
        if (!line3.isEmpty()) r.text += QLatin1Char('\n') + line3;
        out.push_back(r);
    }
    return out;
}

bool isStandby(const QString& element) {
    return element.contains(QStringLiteral("generator")) ||
           element.contains(QStringLiteral("bess"));
}

}  // namespace

OneLineDiagram::OneLineDiagram(QWidget* parent)
    : QGraphicsView(parent), scene_(new QGraphicsScene(this)) {
    setScene(scene_);
    setRenderHint(QPainter::Antialiasing);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    setBackgroundBrush(Qt::white);
}

bool OneLineDiagram::savePng(const QString& path, QString* error, double scale) const {
    const QRectF source = sceneRect();
    if (blocks_.empty() || source.isEmpty()) {
        if (error) *error = tr("no design to export: the report has no sizing tables");
        return false;
    }
    if (!checkExportFile(path, "design page", error)) return false;
    QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        scene_->render(&painter, QRectF(QPointF(0, 0), image.size()), source);
    }
    if (!image.save(path, "PNG")) {
        if (error) {
            *error = tr("could not write the design page to '%1' (check the folder exists "
                        "and is writable)")
                         .arg(path);
        }
        return false;
    }
    return true;
}

bool OneLineDiagram::saveSvg(const QString& path, QString* error) const {
    const QRectF source = sceneRect();
    if (blocks_.empty() || source.isEmpty()) {
        if (error) *error = tr("no design to export: the report has no sizing tables");
        return false;
    }
    if (!checkExportFile(path, "design page", error)) return false;
    // QSvgGenerator reports no write error: check the folder first, write to a temporary file
    // beside the target and rename it, so a failure leaves no partial drawing.
    const QFileInfo target(path);
    const QString tmp = path + QStringLiteral(".part");
    const auto fail = [&] {
        QFile::remove(tmp);
        if (error) {
            *error = tr("could not write the design page to '%1' (check the folder exists "
                        "and is writable)")
                         .arg(path);
        }
        return false;
    };
    if (!target.absoluteDir().exists()) return fail();
    {
        QSvgGenerator svg;
        svg.setFileName(tmp);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(tr("dctwin design page"));
        svg.setDescription(tr("One-line diagram and cooling chain from the sizing tables"));
        QPainter painter;
        if (!painter.begin(&svg)) return fail();
        painter.fillRect(QRectF(QPointF(0, 0), source.size()), Qt::white);
        scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        painter.end();
    }
    if (!QFileInfo(tmp).exists() || QFileInfo(tmp).size() == 0) return fail();
    QFile::remove(path);
    if (!QFile::rename(tmp, path)) return fail();
    return true;
}

QStringList OneLineDiagram::sceneTexts() const {
    QStringList out;
    for (const QGraphicsItem* item : scene_->items(Qt::AscendingOrder)) {
        if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item)) out << t->toPlainText();
    }
    return out;
}

void OneLineDiagram::setTables(const Table* power, const Table* cooling) {
    scene_->clear();
    blocks_.clear();
    if (!power && !cooling) return;

    // A block as tall as its text needs (at least kHeight): an operating point's model,
    // "vertiv_xdu1350 drive (differential_pressure)", wraps to a fourth line that ran out of
    // the box. Returns the height drawn.
    const auto draw = [&](const Block& b, double x, double y) {
        auto* text = scene_->addText(b.text);
        text->setDefaultTextColor(Qt::black);  // the fills are light under any theme
        text->setTextWidth(kWidth - 8.0);
        text->setPos(x + 4.0, y + 2.0);
        const double h = std::max(kHeight, text->boundingRect().height() + 4.0);
        auto* rect =
            scene_->addRect(x, y, kWidth, h, QPen(QColor(0x55, 0x55, 0x55)), QBrush(b.colour));
        rect->setToolTip(b.text);
        rect->setZValue(-1.0);  // under its text
        blocks_.push_back(b);
        return h;
    };
    const auto link = [&](double x1, double y1, double x2, double y2) {
        scene_->addLine(x1, y1, x2, y2, QPen(QColor(0x33, 0x33, 0x33), 2.0));
    };
    // Each chain coloured on its table's scale: the power table's against the NEC's 80 %, the
    // cooling table's against the units' capacity at the design conditions.
    const auto blockOf = [](const Row& r) {
        const QColor c = loadingColour(r.loading, r.scale);
        return Block{r.element, r.count, r.text, c.isValid() ? c : kNeutral};
    };

    const auto title = [&](const QString& s, double x) {
        auto* t = scene_->addText(s);
        QFont f = t->font();
        f.setBold(true);
        t->setFont(f);
        t->setDefaultTextColor(Qt::black);
        t->setPos(x, -40.0);
    };

    // Electrical: the table lists loads first (PSU shelves) and the utility feeder last; a
    // one-line reads from the utility down.
    if (power) {
        title(tr("Electrical one-line"), 0.0);
        std::vector<Row> chain, standby;
        for (const Row& r : rowsOf(*power)) (isStandby(r.element) ? standby : chain).push_back(r);
        // The table lists loads first and does not follow the wiring (lv_switchgear comes
        // after transformer; the transformer's primary, its MV current check, and the UPS
        // output bus come after the PSU shelves). Known elements take their place from the
        // utility down; others follow in the table's reverse order.
        std::reverse(chain.begin(), chain.end());
        static const QStringList kOrder = {
            QStringLiteral("mv_feeder"),   QStringLiteral("transformer_primary"),
            QStringLiteral("transformer"), QStringLiteral("lv_switchgear"),
            QStringLiteral("ups"),         QStringLiteral("ups_bus"),
            QStringLiteral("busway"),      QStringLiteral("rack_feed"),
            QStringLiteral("psu_shelf")};
        std::stable_sort(chain.begin(), chain.end(), [](const Row& a, const Row& b) {
            const auto rank = [](const Row& r) {
                const auto i = kOrder.indexOf(r.element);
                return i < 0 ? kOrder.size() : i;
            };
            return rank(a) < rank(b);
        });
        double y = 0.0;
        double h = draw({QStringLiteral("utility"), 0, tr("utility (MV)"), kNeutral}, 0.0, y);
        for (std::size_t i = 0; i < chain.size(); ++i) {
            link(kWidth / 2, y + h, kWidth / 2, y + h + kGap);
            y += h + kGap;
            h = draw(blockOf(chain[i]), 0.0, y);
            // Standby sources feed the first switchboard below the utility feeder.
            if (i == 0) {
                double sy = y;
                for (const Row& s : standby) {
                    link(kWidth, sy + kHeight / 2, kWidth + kGap * 2, sy + kHeight / 2);
                    sy += draw(blockOf(s), kWidth + kGap * 2, sy) + kGap;
                }
            }
        }
        link(kWidth / 2, y + h, kWidth / 2, y + h + kGap);
        y += h + kGap;
        draw({QStringLiteral("racks"), 0, tr("racks (IT load)"), kNeutral}, 0.0, y);
    }
    // Cooling: from the racks' heat to the plant, in the table's order; a column per hall (a
    // campus's halls are plants side by side, not one chain: hall B's CDUs hung under hall A's
    // facility pumps), and the air side, which takes the room's heat and not the liquid's, in
    // a column of its own.
    if (cooling) {
        std::vector<std::pair<std::string, std::vector<Row>>> halls;
        std::vector<Row> air;
        for (const Row& r : rowsOf(*cooling)) {
            if (r.element.startsWith(QStringLiteral("air_side_"))) {
                air.push_back(r);
                continue;
            }
            auto it = std::find_if(halls.begin(), halls.end(),
                                   [&](const auto& h) { return h.first == r.hall; });
            if (it == halls.end()) it = halls.insert(halls.end(), {r.hall, {}});
            it->second.push_back(r);
        }
        double x = power ? 2 * kWidth + kGap * 4 : 0.0;
        const auto column = [&](const QString& heading, const Block& start,
                                const std::vector<Row>& rows) {
            title(heading, x);
            double y = 0.0;
            double h = draw(start, x, y);
            for (const Row& r : rows) {
                link(x + kWidth / 2, y + h, x + kWidth / 2, y + h + kGap);
                y += h + kGap;
                h = draw(blockOf(r), x, y);
            }
            x += kWidth + kGap * 2;
        };
        for (const auto& [hall, rows] : halls) {
            column(hall.empty() ? tr("Cooling chain")
                                : tr("Cooling chain, hall %1").arg(QString::fromStdString(hall)),
                   {QStringLiteral("racks"), 0, tr("racks (heat to liquid)"), kNeutral}, rows);
        }
        if (!air.empty()) {
            column(tr("Air side"), {QStringLiteral("room"), 0, tr("room (heat to air)"), kNeutral},
                   air);
        }
    }
    // Colour key: the same limits as the sizing tables' tooltips.
    const QRectF used = scene_->itemsBoundingRect();
    QStringList scales;
    if (power) scales << tr("electrical, of rating: %1").arg(loadingKey(LoadingScale::Electrical));
    if (cooling) {
        scales << tr("cooling, of each unit's capacity at the design conditions: %1")
                      .arg(loadingKey(loadingScaleOf(cooling->path)));
        const std::vector<Row> rows = rowsOf(*cooling);
        if (std::any_of(rows.begin(), rows.end(),
                        [](const Row& r) { return r.scale == LoadingScale::Delivered; })) {
            scales << tr("rack loop flow, %1").arg(loadingKey(LoadingScale::Delivered));
        }
    }
    auto* key = scene_->addText(tr("Fill: design loading; %1; grey blocks are the chain's ends.")
                                    .arg(scales.join(QStringLiteral("; "))));
    key->setDefaultTextColor(QColor(0x33, 0x33, 0x33));
    key->setTextWidth(std::max(300.0, used.width()));
    key->setPos(used.left(), used.bottom() + 12.0);
    setSceneRect(scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10));
}

}  // namespace dctwin::gui

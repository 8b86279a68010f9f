#pragma once
// The design at a glance (issue 13): a one-line diagram of the electrical chain drawn from the
// report's power sizing table, utility at the top and racks at the bottom, standby sources
// beside the feeder, and the cooling chain from the racks to heat rejection beside it. Each
// block shows count × rating, redundancy and design loading, coloured as the sizing tables are
// (loadingColour). Nothing is sized here: every number is read from the report's tables, so
// the diagram shows what `dctwin size` prints.
#include <QColor>
#include <QGraphicsView>
#include <vector>

#include "core/results.h"

class QGraphicsScene;

namespace dctwin::gui {

class OneLineDiagram : public QGraphicsView {
    Q_OBJECT
public:
    /// One drawn block: a sizing table row, or a source/load end (count 0).
    struct Block {
        QString element;  ///< the row's element ("ups"), or "utility" / "racks"
        int count = 0;    ///< installed units (0 for the chain's ends)
        QString text;     ///< what the block says
        QColor colour;    ///< fill: the design loading colour, or neutral
    };

    explicit OneLineDiagram(QWidget* parent = nullptr);

    /// Draws the diagram from the power and cooling sizing tables (either may be null);
    /// clears it when both are.
    void setTables(const Table* power, const Table* cooling);
    /// The blocks drawn, electrical chain first (top to bottom), then each cooling column
    /// (a hall's liquid chain from its racks; the air side from the room).
    const std::vector<Block>& blocks() const { return blocks_; }
    /// Texts of every text item in the scene, as a person reads them.
    QStringList sceneTexts() const;
    /// Writes the whole diagram (not only the part scrolled into view) as a PNG on white at
    /// `scale` pixels per scene unit (2: sharp when printed or put in a slide). Returns false
    /// with a message naming the file when there is nothing drawn or the file cannot be
    /// written.
    bool savePng(const QString& path, QString* error = nullptr, double scale = 2.0) const;
    /// The same as a vector drawing (SVG, one unit per scene unit; Qt6 Svg's QSvgGenerator),
    /// for drawings that scale without blur; errors as savePng.
    bool saveSvg(const QString& path, QString* error = nullptr) const;

private:
    QGraphicsScene* scene_;
    std::vector<Block> blocks_;
};

}  // namespace dctwin::gui

#pragma once
// The one place that knows about Qt Charts (DESIGN.md §5.4): Qt Charts is deprecated after
// Qt 6.10, so every chart in the GUI goes through ChartPanel and a move to another plotting
// library touches only gui/plot/. This header deliberately includes no QtCharts header.
//
// A panel shows one kind of plot at a time: lines and stacked areas over a numeric x axis, or
// bars over categories. Values arrive already in display units; the unit strings only label the
// y axis. Long series are reduced for drawing (min/max per bucket) so annual runs stay fluid.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

namespace dctwin::gui {

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    ~ChartPanel() override;

    /// Removes every series and axis; the title stays.
    void clear();
    void setTitle(const QString& title);
    QString title() const;
    /// Axis captions; the y caption gets " [unit]" from the series added.
    void setAxisTitles(const QString& x_title, const QString& y_quantity);

    /// Adds (or replaces, by name) a line series.
    void setSeries(const QString& name, const std::vector<double>& x, const std::vector<double>& y,
                   const QString& unit);
    /// Stacked areas: layer i is drawn between the sum of layers 0..i-1 and 0..i. All layers
    /// share x. Replaces what the panel showed.
    void setStackedAreas(const QStringList& names, const std::vector<double>& x,
                         const std::vector<std::vector<double>>& layers, const QString& unit);
    /// Adds a set of unconnected points (one legend entry, its own colour), e.g. one design
    /// of a sweep on a PUE-against-WUE plane.
    void addScatter(const QString& name, const std::vector<double>& x, const std::vector<double>& y,
                    const QString& unit);
    /// One bar set per call over the same categories (the first call fixes the categories).
    void addBarSet(const QStringList& categories, const QString& set_name,
                   const std::vector<double>& values, const QString& unit);

    int seriesCount() const;
    QStringList seriesNames() const;
    /// Points drawn for the named series (after reduction); -1 if there is no such series.
    int pointCount(const QString& name) const;

    /// Renders the chart to a PNG file (at its on-screen size, or 1200×700 when not shown).
    /// Returns false with a message naming the file when it cannot be written.
    bool savePng(const QString& path, QString* error = nullptr);

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
    void saveAsDialog();
};

}  // namespace dctwin::gui

#pragma once
// The one place that knows about Qt Charts (DESIGN.md §5.4): Qt Charts is deprecated after
// Qt 6.10, so every chart in the GUI goes through ChartPanel and a move to another plotting
// library touches only gui/plot/. This header deliberately includes no QtCharts header.
//
// A panel shows one kind of plot at a time: lines and stacked areas over a numeric x axis, or
// bars over categories. Values arrive already in display units; the unit strings only label the
// y axis. Long series are reduced for drawing (min/max per bucket) so annual runs stay fluid.
//
// Zoom: on charts over time, drag across the plot to zoom into that span, turn the wheel to
// zoom about the cursor, Shift+drag or middle-drag to pan, double-click (or "Reset zoom" in the
// context menu) to see everything again. The panel keeps every series at full resolution and
// re-samples the visible span on each zoom, so a year drawn as ~2,000 buckets shows the raw
// 10-minute samples once a day is in view. Under the chart a line reads out the time and every
// series' value at the cursor, taken from the full series, not from the drawn buckets.
#include <QColor>
#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <utility>
#include <vector>

class QPainter;

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

    /// Which value axis a line goes on: quantities of very different size (MW of heat, kW
    /// of pumps) each get their own so neither is flattened.
    enum class Axis { Left, Right };

    /// Adds (or replaces, by name) a line series. Lines get distinct colours in the order
    /// they are added (a palette of twelve, so seven temperatures never repeat one).
    void setSeries(const QString& name, const std::vector<double>& x, const std::vector<double>& y,
                   const QString& unit, Axis axis = Axis::Left);
    /// A line drawn as the means of the same buckets as setStackedAreas() (a total over a
    /// stack: a min/max envelope of it would hide the layers below).
    void setMeanSeries(const QString& name, const std::vector<double>& x,
                       const std::vector<double>& y, const QString& unit);
    /// Caption of the right-hand axis; its unit, from the series put on it, follows in brackets
    /// (empty: the unit alone, "[kW]").
    void setRightAxisTitle(const QString& quantity);
    /// Draws x values (seconds since `start`) as calendar dates ("3 Feb") instead of numbers;
    /// set before adding series, cleared by clear().
    void setCalendarStart(const QDateTime& start);
    /// True when the chart has a right-hand axis with series on it.
    bool hasRightAxis() const;
    /// The unit shown on the right-hand axis ("" when none).
    QString rightUnit() const;
    /// Stacked areas: layer i is drawn between the sum of layers 0..i-1 and 0..i. All layers
    /// share x. Replaces what the panel showed. Long series are drawn as the means of
    /// kDrawBuckets equal buckets (a min/max envelope of a stack would fill it solid), so the
    /// layers stay readable; meanBucketSeconds() says over how long.
    void setStackedAreas(const QStringList& names, const std::vector<double>& x,
                         const std::vector<std::vector<double>>& layers, const QString& unit);
    /// Adds a set of unconnected points (one legend entry, its own colour), e.g. one design
    /// of a sweep on a PUE-against-WUE plane.
    void addScatter(const QString& name, const std::vector<double>& x, const std::vector<double>& y,
                    const QString& unit);
    /// One bar set per call over the same categories (the first call fixes the categories).
    void addBarSet(const QStringList& categories, const QString& set_name,
                   const std::vector<double>& values, const QString& unit);

    /// The categories of a bar chart as its axis shows them (Qt merges equal ones).
    QStringList categories() const;
    /// Caption under the categories of a bar chart ("month").
    void setCategoryTitle(const QString& title);
    /// Where a bar chart's value axis starts (default 0; kept across clear()). PUE bars start
    /// at 1, the figure's floor, so that the overhead, and its season, shows.
    void setBarFloor(double floor);
    /// The values of a bar set (empty when there is no such set).
    std::vector<double> barValues(const QString& set_name) const;
    /// Gives a line or area its quantity's colour (the same quantity drawn alike on every
    /// chart); false when there is no series of that name.
    bool setSeriesColour(const QString& name, const QColor& colour);
    /// Colour of stacked layer `i` (IT power is layer 0 on the power chart).
    static QColor stackColour(int i);
    /// Colour of a line over a stack (facility power over IT, cooling and losses).
    static QColor totalLineColour();
    /// The colour of each series, in seriesNames() order (lines, areas and point sets).
    QList<QColor> seriesColours() const;
    /// True when the time axis shows calendar dates.
    bool hasCalendarAxis() const;
    /// Seconds each drawn point of the last stacked chart averages (0: raw samples).
    double meanBucketSeconds() const;

    int seriesCount() const;
    QStringList seriesNames() const;
    /// Points drawn for the named series (after reduction); -1 if there is no such series.
    int pointCount(const QString& name) const;

    /// True for charts over a continuous x axis (lines and areas), which zoom and read out.
    bool isZoomable() const;
    /// Shows x in [from, to] (the x units the series were given in: seconds on a calendar
    /// axis), re-sampled from the full series; the value axes refit to what is visible.
    void zoomX(double from, double to);
    /// Shows every sample again (the reduced view).
    void resetZoom();
    bool isZoomed() const;
    /// The x span shown, in the units the series were given in.
    std::pair<double, double> visibleX() const;
    /// Time (or x) and each series' value at x (series x units), from the full series: the
    /// sample nearest x, or "" when x is outside the data. For a stack, each layer's own value.
    QString readoutAt(double x) const;
    /// The read-out line under the chart as shown now.
    QString readoutText() const;
    /// x (series units) under a point of the chart view, for the read-out and the zoom.
    double xAtViewPos(const QPoint& pos) const;

    /// A moment on a chart over time: a contingency's event (the pump trip, the utility loss)
    /// at x, in the units the series were given in (seconds on a calendar axis).
    struct EventMarker {
        double x = 0.0;
        QString label;  ///< shown beside the marker (cut short) and whole in its tooltip
    };
    /// Draws a thin vertical line over the plot at each marker's x, its label at the top
    /// beside it; replaces earlier markers. Set after the series (clear() removes them).
    void setEventMarkers(const std::vector<EventMarker>& markers);
    std::vector<EventMarker> eventMarkers() const;
    /// How many markers are drawn now (those inside the x span shown, zoomed or not).
    int visibleEventMarkers() const;
    /// The x position in view pixels of the marker line drawn for marker `i` (NaN when it is
    /// not drawn), to check it sits where the data's time is.
    double eventMarkerViewX(int i) const;

    /// Instead of a plot, the title and a short note in the chart's middle (a chart that would
    /// mislead for this report: one bar for "PUE by month" of a 10-minute study). Removes
    /// every series; clear() removes the note.
    void setMessage(const QString& text);
    /// The note shown instead of a plot ("" when the chart plots).
    QString message() const;

    /// The points drawn now for a line or an area's top edge, x in the units the series were
    /// given in (seconds on a calendar axis); empty for no such series.
    std::vector<QPointF> drawnPoints(const QString& name) const;

    /// Renders the chart to a PNG file (at its on-screen size, or 1200×700 when not shown).
    /// Returns false with a message naming the file when it cannot be written.
    bool savePng(const QString& path, QString* error = nullptr);
    /// Draws the chart into `target` on `painter` (vector output on a PDF painter), laid out
    /// at the target's shape with its text at 3/4 of its on-screen size; the view gets its
    /// on-screen size back afterwards.
    void renderTo(QPainter* painter, const QRectF& target);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
    void saveAsDialog();
    void showAll();
};

}  // namespace dctwin::gui

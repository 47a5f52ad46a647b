import Foundation

/// Small charts drawn as inline SVG, for the HTML report: horizontal bars (with whiskers), lines
/// over a numeric or named axis, box plots and a change chart. No script and no network: a
/// report opens anywhere and stays what it was.
enum SVGChart {
  /// The strategies' colours, as scripts/plot.py draws them; others from a palette by position.
  static let strategyColours = ["path": "#4c72b0", "typePolicy": "#dd8452", "programmatic": "#55a868"]
  static let palette = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]

  static func colour(_ name: String, index: Int) -> String {
    strategyColours[name] ?? palette[index % palette.count]
  }

  /// A series of a bar chart: a value per category (nil: none), and an optional whisker end.
  struct BarSeries {
    let name: String
    let colour: String
    let values: [Double?]
    var whiskers: [Double?] = []
  }

  /// Horizontal bars, one group per category, one bar per series in it.
  /// - Parameter format: how a value is written at the end of its bar.
  static func bars(
    title: String, categories allCategories: [String], series allSeries: [BarSeries], format: (Double) -> String, reference: Double? = nil
  )
    -> String
  {
    // A category no series has a value for (a limit store has no write) is left out, not drawn empty.
    let kept = allCategories.indices.filter { index in allSeries.contains { index < $0.values.count && $0.values[index] != nil } }
    let categories = kept.map { allCategories[$0] }
    let series = allSeries.map { one in
      BarSeries(
        name: one.name, colour: one.colour, values: kept.map { one.values[$0] },
        whiskers: one.whiskers.isEmpty ? [] : kept.map { $0 < one.whiskers.count ? one.whiskers[$0] : nil })
    }
    let barHeight = 14.0
    let groupGap = 10.0
    let labelWidth = 170.0
    let width = 720.0
    let plotWidth = width - labelWidth - 90
    let groupHeight = Double(series.count) * barHeight + groupGap
    let height = 40 + Double(categories.count) * groupHeight + 24
    let maximum = max(
      series.flatMap { $0.values.compactMap { $0 } + $0.whiskers.compactMap { $0 } }.max() ?? 1, reference ?? 0, 1e-12)
    func x(_ value: Double) -> Double { labelWidth + plotWidth * max(0, value) / maximum }
    var svg = header(width: width, height: height, title: title)
    for (index, category) in categories.enumerated() {
      let top = 34 + Double(index) * groupHeight
      svg += text(category, x: labelWidth - 8, y: top + Double(series.count) * barHeight / 2 + 4, anchor: "end", size: 11)
      for (position, one) in series.enumerated() {
        guard index < one.values.count, let value = one.values[index] else { continue }
        let y = top + Double(position) * barHeight
        svg +=
          "<rect x=\"\(labelWidth)\" y=\"\(y + 1)\" width=\"\(fixed(x(value) - labelWidth))\" height=\"\(barHeight - 2)\" fill=\"\(one.colour)\"><title>\(escape(one.name)): \(escape(format(value)))</title></rect>"
        if index < one.whiskers.count, let end = one.whiskers[index] {
          svg += line(x(value), y + barHeight / 2, x(end), y + barHeight / 2, colour: "#333")
          svg += line(x(end), y + 3, x(end), y + barHeight - 3, colour: "#333")
        }
        svg += text(
          format(value), x: x(max(value, one.whiskers.indices.contains(index) ? one.whiskers[index] ?? value : value)) + 4,
          y: y + barHeight - 3, size: 10)
      }
    }
    if let reference {
      svg += line(x(reference), 30, x(reference), height - 22, colour: "#999", dash: true)
      svg += text(format(reference), x: x(reference) + 3, y: 30, size: 10)
    }
    svg += legend(series.map { ($0.name, $0.colour) }, x: labelWidth, y: height - 8, skip: reference != nil)
    return svg + "</svg>"
  }

  /// A series of a line chart: points at x positions.
  struct LineSeries {
    let name: String
    let colour: String
    let points: [(x: Double, y: Double)]
    var dashed = false
  }

  /// Lines over an x axis; `xLabels` names the ticks (by position) when the axis is not numeric.
  static func lines(
    title: String, xTitle: String, series: [LineSeries], xTicks: [(x: Double, label: String)], format: (Double) -> String
  ) -> String {
    let width = 720.0
    let height = 300.0
    let left = 70.0
    let right = 20.0
    let top = 34.0
    let bottom = 60.0
    let xs = series.flatMap { $0.points.map(\.x) } + xTicks.map(\.x)
    let ys = series.flatMap { $0.points.map(\.y) }
    let (xMin, xMax) = (xs.min() ?? 0, xs.max() ?? 1)
    let yMax = max(ys.max() ?? 1, 1e-12)
    guard (xMax - xMin).isFinite, (ys.min() ?? 0).isFinite else {
      return undrawable(title: title, reason: "its x values span more than a Double holds (\(xMin) to \(xMax))")
    }
    func px(_ value: Double) -> Double { left + (width - left - right) * (xMax == xMin ? 0.5 : (value - xMin) / (xMax - xMin)) }
    func py(_ value: Double) -> Double { height - bottom - (height - top - bottom) * value / yMax }
    var svg = header(width: width, height: height, title: title)
    for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
      let y = py(yMax * fraction)
      svg += line(left, y, width - right, y, colour: "#e5e5e5")
      svg += text(format(yMax * fraction), x: left - 6, y: y + 4, anchor: "end", size: 10)
    }
    for tick in xTicks {
      svg += text(tick.label, x: px(tick.x), y: height - bottom + 16, anchor: "middle", size: 10)
    }
    svg += text(xTitle, x: (left + width - right) / 2, y: height - bottom + 32, anchor: "middle", size: 11)
    for one in series {
      let path = one.points.sorted { $0.x < $1.x }.map { "\(fixed(px($0.x))),\(fixed(py($0.y)))" }.joined(separator: " ")
      svg +=
        "<polyline fill=\"none\" stroke=\"\(one.colour)\" stroke-width=\"2\"\(one.dashed ? " stroke-dasharray=\"6 4\"" : "") points=\"\(path)\"><title>\(escape(one.name))</title></polyline>"
      for point in one.points {
        svg +=
          "<circle cx=\"\(fixed(px(point.x)))\" cy=\"\(fixed(py(point.y)))\" r=\"3\" fill=\"\(one.colour)\"><title>\(escape(one.name)): \(escape(format(point.y)))</title></circle>"
      }
    }
    svg += legend(series.map { ($0.name + ($0.dashed ? " (dashed)" : ""), $0.colour) }, x: left, y: height - 10)
    return svg + "</svg>"
  }

  /// One box of a box plot: a label, a colour and its samples.
  struct Box {
    let label: String
    let colour: String
    let samples: [Double]
  }

  /// Horizontal box plots on a log axis: the box from the 25th to the 75th percentile, the median,
  /// whiskers to the 5th and 95th, the rest as dots.
  static func boxes(title: String, boxes: [Box], format: (Double) -> String) -> String {
    let rowHeight = 20.0
    let labelWidth = 220.0
    let width = 720.0
    let height = 40 + Double(boxes.count) * rowHeight + 30
    let values = boxes.flatMap(\.samples).filter { $0 > 0 }
    let low = log10(values.min() ?? 1)
    let high = max(log10(values.max() ?? 10), low + 1e-9)
    func x(_ value: Double) -> Double { labelWidth + (width - labelWidth - 20) * (log10(max(value, 1e-12)) - low) / (high - low) }
    var svg = header(width: width, height: height, title: title)
    for decade in Int(low.rounded(.down))...Int(high.rounded(.up)) {
      let value = pow(10, Double(decade))
      guard log10(value) >= low - 1e-9, log10(value) <= high + 1e-9 else { continue }
      svg += line(x(value), 30, x(value), height - 26, colour: "#e5e5e5")
      svg += text(format(value), x: x(value), y: height - 12, anchor: "middle", size: 10)
    }
    for (index, box) in boxes.enumerated() {
      let sorted = box.samples.sorted()
      guard !sorted.isEmpty else { continue }
      func quantile(_ q: Double) -> Double { Statistics.percentile(q * 100, ofSorted: sorted) }
      let y = 34 + Double(index) * rowHeight
      let middle = y + rowHeight / 2
      svg += text(box.label, x: labelWidth - 8, y: middle + 4, anchor: "end", size: 11)
      svg += line(x(quantile(0.05)), middle, x(quantile(0.95)), middle, colour: "#333")
      let (q1, median, q3) = (quantile(0.25), quantile(0.5), quantile(0.75))
      svg +=
        "<rect x=\"\(fixed(x(q1)))\" y=\"\(y + 3)\" width=\"\(fixed(max(x(q3) - x(q1), 1)))\" height=\"\(rowHeight - 6)\" fill=\"\(box.colour)\" fill-opacity=\"0.6\" stroke=\"\(box.colour)\"><title>\(escape(box.label)): median \(escape(format(median))), \(sorted.count) samples</title></rect>"
      svg += line(x(median), y + 3, x(median), y + rowHeight - 3, colour: "#111")
      for outlier in sorted where outlier < quantile(0.05) || outlier > quantile(0.95) {
        svg += "<circle cx=\"\(fixed(x(outlier)))\" cy=\"\(fixed(middle))\" r=\"1.5\" fill=\"#666\"/>"
      }
    }
    return svg + "</svg>"
  }

  /// Changes as bars from 0%: red for regressed, green for improved, grey otherwise, with their
  /// interval where there is one.
  static func changes(title: String, rows: [(label: String, change: Double, low: Double?, high: Double?, status: VerdictStatus)]) -> String
  {
    let rowHeight = 18.0
    let labelWidth = 330.0
    let width = 760.0
    let height = 40 + Double(rows.count) * rowHeight + 30
    let extent = max(rows.flatMap { [abs($0.change), abs($0.low ?? 0), abs($0.high ?? 0)] }.max() ?? 0.1, 0.01)
    let plot = width - labelWidth - 70
    func x(_ change: Double) -> Double { labelWidth + plot / 2 + plot / 2 * change / extent }
    var svg = header(width: width, height: height, title: title)
    svg += line(x(0), 30, x(0), height - 24, colour: "#999")
    for (index, row) in rows.enumerated() {
      let y = 34 + Double(index) * rowHeight
      let colour = row.status == .regressed ? "#c44e52" : row.status == .improved ? "#55a868" : "#9a9a9a"
      svg += text(row.label, x: labelWidth - 8, y: y + rowHeight - 5, anchor: "end", size: 10)
      let (from, to) = (min(x(0), x(row.change)), max(x(0), x(row.change)))
      svg +=
        "<rect x=\"\(fixed(from))\" y=\"\(y + 3)\" width=\"\(fixed(max(to - from, 1)))\" height=\"\(rowHeight - 6)\" fill=\"\(colour)\"><title>\(escape(row.label)): \(percent(row.change)) (\(row.status.rawValue))</title></rect>"
      if let low = row.low, let high = row.high {
        svg += line(x(low), y + rowHeight / 2, x(high), y + rowHeight / 2, colour: "#222")
      }
      svg += text(percent(row.change), x: max(x(row.change), x(0)) + 4, y: y + rowHeight - 5, size: 10)
    }
    svg += text("-" + percent(extent).dropFirst(), x: labelWidth, y: height - 8, anchor: "start", size: 10)
    svg += text(percent(extent), x: width - 70, y: height - 8, anchor: "end", size: 10)
    return svg + "</svg>"
  }

  // MARK: Pieces

  /// A chart's place when its values cannot be drawn: its title and why.
  static func undrawable(title: String, reason: String) -> String {
    header(width: 720, height: 50, title: title) + text("Not drawn: \(reason).", x: 10, y: 40, size: 11) + "</svg>"
  }

  static func header(width: Double, height: Double, title: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 \(fixed(width)) \(fixed(height))\" width=\"\(fixed(width))\" height=\"\(fixed(height))\" role=\"img\" aria-label=\"\(escape(title))\">"
      + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
      + text(title, x: 10, y: 20, size: 13, weight: "600")
  }

  static func legend(_ entries: [(String, String)], x: Double, y: Double, skip: Bool = false) -> String {
    guard !skip || entries.count > 1 else { return "" }
    var svg = ""
    var offset = x
    for (name, colour) in entries {
      svg += "<rect x=\"\(fixed(offset))\" y=\"\(fixed(y - 9))\" width=\"10\" height=\"10\" fill=\"\(colour)\"/>"
      svg += text(name, x: offset + 14, y: y, size: 10)
      offset += 24 + Double(name.count) * 6
    }
    return svg
  }

  static func text(_ value: String, x: Double, y: Double, anchor: String = "start", size: Double, weight: String = "normal") -> String {
    "<text x=\"\(fixed(x))\" y=\"\(fixed(y))\" text-anchor=\"\(anchor)\" font-size=\"\(fixed(size))\" font-weight=\"\(weight)\">\(escape(value))</text>"
  }

  static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String, dash: Bool = false) -> String {
    "<line x1=\"\(fixed(x1))\" y1=\"\(fixed(y1))\" x2=\"\(fixed(x2))\" y2=\"\(fixed(y2))\" stroke=\"\(colour)\"\(dash ? " stroke-dasharray=\"4 3\"" : "")/>"
  }

  /// A coordinate or size, to a tenth; one past the drawing's reach (a value near the largest
  /// Double over a tiny one) is held at ±10⁶, NaN at 0, so that the file stays valid SVG.
  static func fixed(_ value: Double) -> String {
    String(format: "%.1f", value.isNaN ? 0 : min(max(value, -1e6), 1e6))
  }

  static func percent(_ change: Double) -> String {
    HumanFormat.unshowable(change * 100).map { $0 + "%" } ?? String(format: "%+.1f%%", change * 100)
  }

  /// Text for HTML and SVG: `&`, `<`, `>` and quotes escaped.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }
}

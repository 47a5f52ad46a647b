import Foundation

/// A run as one self-contained HTML page (`cachebench report`): its provenance, its table, and as
/// inline SVG charts the latencies, each key strategy against `path`, the distributions of the
/// samples, a sweep, the concurrency phase, and a comparison's verdicts. No script, no network.
package struct HTMLReport {
  package let rows: [MetricRow]
  package let samples: [SampleRow]
  package let verdicts: [Verdict]
  /// Who made the report: `cachebench 0.26.0, Swift 6.3`.
  package let generator: String

  package init(rows: [MetricRow], samples: [SampleRow] = [], verdicts: [Verdict] = [], generator: String) {
    self.rows = rows
    self.samples = samples
    self.verdicts = verdicts
    self.generator = generator
  }

  /// The sections the page has, by id, in order (what a test checks, and the page's contents list).
  package var sectionIDs: [String] { sections.map(\.id) }

  package func render() -> String {
    let workloads = rows.map(\.key.workload).uniqued()
    let title = "cachebench: " + (workloads.isEmpty ? "comparison" : workloads.joined(separator: ", "))
    var html = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(SVGChart.escape(title))</title>
      <style>\(Self.style)</style>
      </head>
      <body>
      <header><h1>\(SVGChart.escape(title))</h1>\(provenance())</header>

      """
    let sections = sections
    html += "<nav><ul>" + sections.map { "<li><a href=\"#\($0.id)\">\(SVGChart.escape($0.title))</a></li>" }.joined() + "</ul></nav>\n"
    for section in sections {
      html += "<section id=\"\(section.id)\"><h2>\(SVGChart.escape(section.title))</h2>\n\(section.body)\n</section>\n"
    }
    html +=
      "<footer>Made by \(SVGChart.escape(generator)). Timings from one run on one machine: compare builds with <code>cachebench ab</code>, and counts with <code>cachebench compare</code>.</footer>\n</body>\n</html>\n"
    return html
  }

  // MARK: Sections

  struct Section {
    let id: String
    let title: String
    let body: String
  }

  var sections: [Section] {
    var sections: [Section] = []
    let main = rows.filter { $0.key.phase != .concurrency && !$0.key.isVersusLimit }
    if !main.isEmpty { sections.append(Section(id: "run", title: "The run", body: runTable(main))) }
    let variants = main.map(\.key.variant).uniqued()
    if variants.count > 1 {
      sections.append(Section(id: "sweep", title: "The sweep", body: sweep(main, variants: variants)))
    } else if main.contains(where: { $0.key.names(.writeLatency) || $0.key.names(.readLatency) }) {
      sections.append(Section(id: "latency", title: "Write and read latency", body: latency(main)))
    }
    if let body = strategies(main), !body.isEmpty {
      sections.append(Section(id: "strategies", title: "Key strategies against path", body: body))
    }
    if !samples.isEmpty, let body = distributions() {
      sections.append(Section(id: "distributions", title: "Distributions", body: body))
    }
    if main.contains(where: { $0.key.phase == .traffic }) {
      sections.append(Section(id: "traffic", title: "Traffic", body: traffic(main)))
    }
    if main.contains(where: { $0.unit == .exponent }) {
      sections.append(Section(id: "growth", title: "Growth", body: growth(main)))
    }
    let concurrent = rows.filter { $0.key.phase == .concurrency }
    if !concurrent.isEmpty { sections.append(Section(id: "concurrency", title: "Reads on several threads", body: concurrency(concurrent))) }
    if !verdicts.isEmpty { sections.append(Section(id: "comparison", title: "Comparison", body: comparison())) }
    return sections
  }

  private func provenance() -> String {
    func list(_ values: [String]) -> String { SVGChart.escape(values.filter { !$0.isEmpty }.uniqued().joined(separator: ", ")) }
    var items: [(String, String)] = []
    if !rows.isEmpty {
      items += [
        ("run", list(rows.map(\.run.runID))), ("started", list(rows.map(\.run.timestamp))),
        ("git revision", list(rows.map(\.run.gitRev))), ("machine", list(rows.map(\.run.host))),
      ]
    }
    items.append(("report", SVGChart.escape(generator)))
    return "<dl class=\"provenance\">" + items.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>"
  }

  /// One line per variant × store × strategy, as `cachebench run` prints it.
  private func runTable(_ rows: [MetricRow]) -> String {
    let index = Index(rows)
    let variants = rows.map(\.key.variant).uniqued()
    let showVariant = variants.count > 1 || variants.first?.isEmpty == false
    var html = "<table><thead><tr>" + (showVariant ? "<th>variant</th>" : "")
    html += ["store", "keys", "records", "dedup", "write p50", "write p99", "read p50", "read p99", "bytes/record"].map { "<th>\($0)</th>" }
      .joined()
    html += "</tr></thead><tbody>"
    for place in index.places {
      func cell(_ metric: Metric, _ pick: (MetricRow) -> Double, _ format: (Double) -> String) -> String {
        index.row(place, metric).map { format(pick($0)) } ?? "-"
      }
      var cells = showVariant ? [place.variant] : []
      cells += [
        place.store, place.keys, cell(.records, \.summary.p50, HumanFormat.count),
        cell(.objectRatio, \.summary.p50, HumanFormat.ratio),
        cell(.writeLatency, \.summary.p50, HumanFormat.nanoseconds), cell(.writeLatency, \.summary.p99, HumanFormat.nanoseconds),
        cell(.readLatency, \.summary.p50, HumanFormat.nanoseconds), cell(.readLatency, \.summary.p99, HumanFormat.nanoseconds),
        cell(.bytesPerRecord, \.summary.p50, { HumanFormat.count($0.rounded()) }),
      ]
      html +=
        "<tr>"
        + cells.enumerated().map { "<td\($0.offset >= cells.count - 7 ? " class=\"number\"" : "")>\(SVGChart.escape($0.element))</td>" }
        .joined() + "</tr>"
    }
    return html + "</tbody></table>"
  }

  /// Write and read p50 per store, a bar per strategy, whiskers to the p90.
  private func latency(_ rows: [MetricRow]) -> String {
    let index = Index(rows)
    let variant = index.places.first?.variant ?? ""
    let stores = index.places.map(\.store).uniqued()
    let strategies = index.places.map(\.keys).uniqued()
    return [Metric.writeLatency, .readLatency].map { latency in
      let series = strategies.enumerated().map { position, keys in
        SVGChart.BarSeries(
          name: keys, colour: SVGChart.colour(keys, index: position),
          values: stores.map { store in index.row(Place(variant: variant, store: store, keys: keys), latency)?.summary.p50 },
          whiskers: stores.map { store in index.row(Place(variant: variant, store: store, keys: keys), latency)?.summary.p90 })
      }
      return SVGChart.bars(
        title: "\(latency.phase.rawValue) latency per response: p50, whisker to p90", categories: stores, series: series,
        format: HumanFormat.nanoseconds)
    }.joined(separator: "\n")
  }

  /// Each strategy's records, bytes, write and read p50 over `path`'s, in the same store.
  private func strategies(_ rows: [MetricRow]) -> String? {
    let index = Index(rows)
    let measures: [(label: String, metric: Metric)] = [
      ("records", .records), ("bytes", .storeBytes), ("write", .writeLatency), ("read", .readLatency),
    ]
    let variant = index.places.first?.variant ?? ""
    let stores = index.places.filter { $0.variant == variant && !$0.store.hasPrefix("limit-") }.map(\.store).uniqued()
    let others = index.places.map(\.keys).uniqued().filter { $0 != "path" }
    var categories: [String] = []
    var values: [String: [Double?]] = [:]
    for store in stores {
      guard index.places.contains(Place(variant: variant, store: store, keys: "path")) else { continue }
      for measure in measures {
        categories.append("\(store) · \(measure.label)")
        for keys in others {
          let ratio = index.row(Place(variant: variant, store: store, keys: keys), measure.metric).flatMap { mine in
            index.row(Place(variant: variant, store: store, keys: "path"), measure.metric).map {
              mine.summary.p50 / max($0.summary.p50, 1e-12)
            }
          }
          values[keys, default: []].append(ratio)
        }
      }
    }
    guard !categories.isEmpty, !others.isEmpty else { return nil }
    let series = others.enumerated().map { position, keys in
      SVGChart.BarSeries(name: "\(keys) vs path", colour: SVGChart.colour(keys, index: position + 1), values: values[keys] ?? [])
    }
    return "<p>Below 1: fewer records, fewer bytes, faster than path in the same store.</p>"
      + SVGChart.bars(
        title: "each strategy over path" + (variant.isEmpty ? "" : " (\(variant))"), categories: categories, series: series,
        format: { String(format: "%.2fx", $0) }, reference: 1)
  }

  /// Box plots of every write and read sample, per store and strategy (the first variant).
  private func distributions() -> String? {
    let variant = samples.first?.key.variant ?? ""
    var charts: [String] = []
    for latency in [Metric.writeLatency, .readLatency] {
      var byPlace: [(Place, [Double])] = []
      for sample in samples where sample.key.names(latency) && sample.key.variant == variant {
        let place = Place(variant: variant, store: sample.key.store, keys: sample.key.keys)
        if let position = byPlace.firstIndex(where: { $0.0 == place }) {
          byPlace[position].1.append(sample.value)
        } else {
          byPlace.append((place, [sample.value]))
        }
      }
      guard !byPlace.isEmpty else { continue }
      let strategies = byPlace.map(\.0.keys).uniqued()
      charts.append(
        SVGChart.boxes(
          title: "\(latency.phase.rawValue) latency: every sample (box 25-75%, whiskers 5-95%, log scale)",
          boxes: byPlace.map { place, values in
            SVGChart.Box(
              label: "\(place.store) × \(place.keys)",
              colour: SVGChart.colour(place.keys, index: strategies.firstIndex(of: place.keys) ?? 0),
              samples: values)
          }, format: HumanFormat.nanoseconds))
    }
    return charts.isEmpty ? nil : charts.joined(separator: "\n")
  }

  /// Write and read p50, store bytes and (with traffic) the hit ratio against the swept knob.
  private func sweep(_ rows: [MetricRow], variants: [String]) -> String {
    let knob = variants.first.map { String($0.split(separator: "=").first ?? "") } ?? ""
    let positions = variants.enumerated().map { index, variant -> (variant: String, x: Double, label: String) in
      let value = String(variant.split(separator: "=", maxSplits: 1).last ?? "")
      let number = Double(value.hasSuffix("%") ? String(value.dropLast()) : value)
      return (variant, number ?? Double(index), value)
    }
    let index = Index(rows)
    // Each store × strategy, whatever the variant.
    let places = index.places.map { Place(variant: "", store: $0.store, keys: $0.keys) }.uniqued()
    var charts: [String] = []
    let panels: [(title: String, metric: Metric, format: (Double) -> String)] = [
      ("write latency p50", .writeLatency, HumanFormat.nanoseconds), ("read latency p50", .readLatency, HumanFormat.nanoseconds),
      ("store bytes", .storeBytes, HumanFormat.bytes), ("traffic: hit ratio", .trafficHitRatio, HumanFormat.ratio),
    ]
    for panel in panels where rows.contains(where: { $0.key.names(panel.metric) }) {
      let series = places.enumerated().compactMap { position, place -> SVGChart.LineSeries? in
        let points = positions.compactMap { variant, x, _ -> (x: Double, y: Double)? in
          index.row(Place(variant: variant, store: place.store, keys: place.keys), panel.metric).map { (x, $0.summary.p50) }
        }
        guard !points.isEmpty else { return nil }
        return SVGChart.LineSeries(
          name: "\(place.store) × \(place.keys)", colour: SVGChart.palette[position % SVGChart.palette.count], points: points)
      }
      charts.append(
        SVGChart.lines(
          title: panel.title + " against " + knob, xTitle: knob, series: series, xTicks: positions.map { ($0.x, $0.label) },
          format: panel.format))
    }
    return charts.joined(separator: "\n")
  }

  /// The traffic's figures per store and strategy.
  private func traffic(_ rows: [MetricRow]) -> String {
    let index = Index(rows.filter { $0.key.phase == .traffic || $0.key.phase == .gc })
    let columns: [(String, Metric, (Double) -> String)] = [
      ("hit", .trafficHitRatio, HumanFormat.ratio), ("partial", .partialMissShare, HumanFormat.ratio),
      ("fetched", .fetchedBytes, HumanFormat.bytes), ("peak", .peakStoreBytes, HumanFormat.bytes),
      ("read p50", .trafficReadLatency, HumanFormat.nanoseconds), ("write p50", .trafficWriteLatency, HumanFormat.nanoseconds),
      ("gc removed", .gcRecordsRemoved, HumanFormat.count),
    ]
    let showVariant = index.places.contains { !$0.variant.isEmpty }
    var html = "<table><thead><tr>" + (showVariant ? "<th>variant</th>" : "") + "<th>store</th><th>keys</th>"
    html += columns.map { "<th>\($0.0)</th>" }.joined() + "</tr></thead><tbody>"
    for place in index.places {
      html += "<tr>" + (showVariant ? "<td>\(SVGChart.escape(place.variant))</td>" : "")
      html += "<td>\(SVGChart.escape(place.store))</td><td>\(SVGChart.escape(place.keys))</td>"
      html +=
        columns.map { column in
          "<td class=\"number\">" + (index.row(place, column.1).map { column.2($0.summary.p50) } ?? "-") + "</td>"
        }.joined() + "</tr>"
    }
    return html + "</tbody></table>"
  }

  /// Each scenario's growth (docs/metrics.md#growth): a line per phase and scenario, a column per
  /// store (with its variant, if any), each cell k and, in brackets, its `growth_ratio_` row.
  private func growth(_ rows: [MetricRow]) -> String {
    let prefix = "growth_"
    let exponents = rows.filter { $0.unit == .exponent && $0.key.metric.hasPrefix(prefix) }
    let column = { (row: MetricRow) in row.key.variant.isEmpty ? row.key.store : "\(row.key.store) [\(row.key.variant)]" }
    let name = { (row: MetricRow) in "\(row.key.phase.rawValue)/\(row.key.metric.dropFirst(prefix.count))" }
    let stores = exponents.map(column).uniqued()
    let scenarios = exponents.map(name).uniqued()
    var k: [String: Double] = [:]
    var ratio: [String: Double] = [:]
    for row in exponents { k[column(row) + "\u{0}" + name(row)] = row.summary.p50 }
    for row in rows where row.unit == .ratio && row.key.metric.hasPrefix(prefix + "ratio_") {
      let scenario = "\(row.key.phase.rawValue)/\(row.key.metric.dropFirst((prefix + "ratio_").count))"
      ratio[column(row) + "\u{0}" + scenario] = row.summary.p50
    }
    var html =
      "<p>k of p50 ∝ nᵏ over the run's sizes; in brackets, the p50 at the largest size over the p50 at 1,000 (or the smallest).</p>"
    html += "<table><thead><tr><th>scenario</th>" + stores.map { "<th>\(SVGChart.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
    for scenario in scenarios {
      html += "<tr><td>\(SVGChart.escape(scenario))</td>"
      html +=
        stores.map { store in
          let key = store + "\u{0}" + scenario
          guard let exponent = k[key] else { return "<td class=\"number\">-</td>" }
          return "<td class=\"number\">" + HumanFormat.exponent(exponent) + (ratio[key].map { " (\(HumanFormat.ratio($0))×)" } ?? "")
            + "</td>"
        }.joined() + "</tr>"
    }
    return html + "</tbody></table>"
  }

  /// Reads per second against the reader count, alone (solid) and beside the writers (dashed).
  private func concurrency(_ rows: [MetricRow]) -> String {
    var series: [SVGChart.LineSeries] = []
    var readers: Set<Int> = []
    let places = rows.map { Place(variant: "", store: $0.key.store, keys: $0.key.keys) }.uniqued()
    for (position, place) in places.enumerated() {
      for (metric, dashed) in [(Metric.readsPerSecond, false), (.readsPerSecondWriting, true)] {
        let points = rows.filter { $0.key.store == place.store && $0.key.keys == place.keys && $0.key.names(metric) }.compactMap {
          row -> (x: Double, y: Double)? in
          guard let count = row.key.readers else { return nil }
          readers.insert(count)
          return (Double(count), row.summary.p50)
        }
        guard !points.isEmpty else { continue }
        series.append(
          SVGChart.LineSeries(
            name: "\(place.store) × \(place.keys)" + (dashed ? " beside writers" : ""),
            colour: SVGChart.palette[position % SVGChart.palette.count],
            points: points, dashed: dashed))
      }
    }
    return SVGChart.lines(
      title: "reads per second against reader threads (dashed: beside the writers)", xTitle: "reader threads", series: series,
      xTicks: readers.sorted().map { (Double($0), String($0)) }, format: HumanFormat.perSecond)
  }

  /// The verdicts' counts, their changes as a chart, and the rows that regressed or improved.
  private func comparison() -> String {
    let counts = VerdictStatus.allCases.map { status in "\(verdicts.count { $0.status == status }) \(status.rawValue)" }
    var html = "<p class=\"counts\">" + counts.joined(separator: ", ") + "</p>"
    let changed = verdicts.filter { [.regressed, .improved, .advisory, .inconclusive].contains($0.status) && $0.ratio != nil }
      .sorted { ($0.ratio ?? 1) > ($1.ratio ?? 1) }
    if !changed.isEmpty {
      html += SVGChart.changes(
        title: "what changed (current over baseline; line: 95% interval where runs were repeated)",
        rows: changed.prefix(60).map { verdict in
          (
            "\(verdict.key.store) × \(verdict.key.keys) \(verdict.key.phase.rawValue)/\(verdict.key.metric)"
              + (verdict.key.variantColumn.isEmpty ? "" : " [\(verdict.key.variantColumn)]"),
            (verdict.ratio ?? 1) - 1, verdict.ciLow.map { $0 - 1 }, verdict.ciHigh.map { $0 - 1 }, verdict.status
          )
        })
    }
    let shown = verdicts.filter { $0.status == .regressed || $0.status == .improved }
    if !shown.isEmpty {
      html +=
        "<table><thead><tr>"
        + ["", "store", "keys", "phase", "metric", "statistic", "baseline", "current", "change"].map { "<th>\($0)</th>" }.joined()
      html += "</tr></thead><tbody>"
      for verdict in shown {
        let cells = [
          verdict.status.rawValue, verdict.key.store, verdict.key.keys, verdict.key.phase.rawValue, verdict.key.metric,
          verdict.statistic.rawValue,
          verdict.baseline.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
          verdict.current.map { HumanFormat.value($0, unit: verdict.unit) } ?? "",
          Comparison.change(verdict),
        ]
        html += "<tr class=\"\(verdict.status.rawValue)\">" + cells.map { "<td>\(SVGChart.escape($0))</td>" }.joined() + "</tr>"
      }
      html += "</tbody></table>"
    }
    return html
  }

  // MARK: Lookup

  /// A configuration of the rows: variant, store, strategy.
  typealias Place = ConfigurationID

  /// The rows by configuration and metric; the configurations in the order the rows give them.
  struct Index {
    let places: [Place]
    private let rows: [Key: MetricRow]

    /// A row's configuration and metric (its phase and name).
    private struct Key: Hashable {
      let place: Place
      let phase: Phase
      let metric: String
    }

    init(_ rows: [MetricRow]) {
      var places: [Place] = []
      var seen: Set<Place> = []
      var byKey: [Key: MetricRow] = [:]
      for row in rows {
        let place = row.key.configuration
        if seen.insert(place).inserted { places.append(place) }
        byKey[Key(place: place, phase: row.key.phase, metric: row.key.metric)] = row
      }
      self.places = places
      self.rows = byKey
    }

    func row(_ place: Place, _ metric: Metric) -> MetricRow? { rows[Key(place: place, phase: metric.phase, metric: metric.name)] }
  }

  static let style = """
    body{font:14px/1.45 -apple-system,system-ui,"Segoe UI",Helvetica,Arial,sans-serif;color:#222;margin:0 auto;max-width:1000px;padding:24px}
    h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid #ddd;padding-bottom:4px}
    dl.provenance{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:0;color:#555;font-size:13px}
    dl.provenance dt{font-weight:600}dl.provenance dd{margin:0;font-family:ui-monospace,Menlo,monospace}
    nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 16px;margin:16px 0}nav a{color:#4c72b0}
    table{border-collapse:collapse;font-size:12.5px;margin:8px 0}th,td{padding:3px 9px;border-bottom:1px solid #eee;text-align:left}
    th{background:#f6f6f6}td.number{text-align:right;font-variant-numeric:tabular-nums}
    tr.regressed td:first-child{color:#c44e52;font-weight:600}tr.improved td:first-child{color:#3a8a4f;font-weight:600}
    svg.chart{display:block;max-width:100%;height:auto;margin:10px 0;font-family:inherit}
    footer{margin-top:32px;color:#777;font-size:12px}code{font-family:ui-monospace,Menlo,monospace}
    """
}

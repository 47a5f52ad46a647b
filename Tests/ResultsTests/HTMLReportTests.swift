import Testing

@testable import Results

@Suite("HTML report")
struct HTMLReportTests {
  static func row(
    _ store: String, _ keys: String, _ phase: Phase, _ metric: String, _ p50: Double, unit: MetricUnit = .ns, variant: String = ""
  )
    -> MetricRow
  {
    var summary = Summary(single: p50)
    summary.p90 = p50 * 1.5
    summary.n = 10
    return MetricRow(
      run: RunInfo(runID: "20261125T100000Z-seed4", timestamp: "2026-11-25T10:00:00Z", gitRev: "2d3017b0ab12", host: "bench-1"),
      key: MetricKey(workload: "books", variant: variant, store: store, keys: keys, phase: phase, metric: metric), unit: unit,
      better: .lower, deterministic: unit != .ns, summary: summary)
  }

  /// Two stores (one with a label to escape) under two strategies.
  static let rows: [MetricRow] = ["memory", "<odd> & store"].flatMap { store in
    ["path", "typePolicy"].flatMap { keys in
      [
        row(store, keys, .dedup, "records", keys == "path" ? 300 : 100, unit: .count),
        row(store, keys, .dedup, "store_bytes", keys == "path" ? 30_000 : 9_000, unit: .bytes),
        row(store, keys, .write, "latency", 2_000), row(store, keys, .read, "latency", 1_500),
      ]
    }
  }

  static let samples: [SampleRow] = (0..<20).flatMap { index in
    ["path", "typePolicy"].map { keys in
      SampleRow(
        runID: "r", key: MetricKey(workload: "books", store: "memory", keys: keys, phase: .write, metric: "latency"), unit: .ns,
        index: index,
        value: Double(1_000 + index * 100))
    }
  }

  static let verdicts = [
    Verdict(
      key: MetricKey(workload: "books", store: "memory", keys: "path", phase: .write, metric: "allocations"), unit: .count,
      better: .lower, deterministic: true, baseline: 100, current: 110, status: .regressed),
    Verdict(
      key: MetricKey(workload: "books", store: "memory", keys: "path", phase: .read, metric: "latency"), unit: .ns,
      better: .lower, deterministic: false, baseline: 1_000, current: 900, status: .improved, ciLow: 0.85, ciHigh: 0.95, pValue: 0.01),
  ]

  @Test("growth rows: a Growth section, a line per scenario, a column per store, k and the ratio")
  func growth() throws {
    let rows = ["memory", "<odd> & store"].flatMap { store in
      [
        Self.row(store, "typePolicy", .tier2, "single_key_load_10_fields_at_1000x10", 150),
        Self.row(store, "typePolicy", .tier2, "growth_single_key_load_10_fields", store == "memory" ? 0.0213 : -0.004, unit: .exponent),
        Self.row(store, "typePolicy", .tier2, "growth_ratio_single_key_load_10_fields", 1.14, unit: .ratio),
        Self.row(store, "typePolicy", .lists, "growth_mutate_references", 1.09, unit: .exponent),
      ]
    }
    let report = HTMLReport(rows: rows, generator: "t")
    #expect(report.sectionIDs == ["run", "growth"])
    let html = report.render()
    #expect(html.contains("<th>scenario</th><th>memory</th><th>&lt;odd&gt; &amp; store</th>"))
    #expect(
      html.contains(
        "<tr><td>tier2/single_key_load_10_fields</td><td class=\"number\">0.02 (1.140×)</td><td class=\"number\">0.00 (1.140×)</td></tr>"))
    // No ratio row: k alone.
    #expect(html.contains("<tr><td>lists/mutate_references</td><td class=\"number\">1.09</td><td class=\"number\">1.09</td></tr>"))
    #expect(!HTMLReport(rows: Self.rows, generator: "t").sectionIDs.contains("growth"))
  }

  @Test("a page of its own: every section the data allows, each chart inline SVG, no script and nothing fetched")
  func structure() throws {
    let report = HTMLReport(rows: Self.rows, samples: Self.samples, verdicts: Self.verdicts, generator: "cachebench test")
    let html = report.render()
    #expect(report.sectionIDs == ["run", "latency", "strategies", "distributions", "comparison"])
    #expect(html.hasPrefix("<!doctype html>"))
    #expect(html.hasSuffix("</html>\n"))
    for id in report.sectionIDs {
      #expect(html.contains("<section id=\"\(id)\">"))
      #expect(html.contains("<a href=\"#\(id)\">"))
    }
    // Charts: two latency bars, one strategies chart, one box plot (write only), one change chart.
    #expect(html.components(separatedBy: "<svg ").count - 1 == 5)
    #expect(!html.contains("<script") && !html.contains("<link") && !html.contains(" src=") && !html.contains("@import"))
    #expect(html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http") == false)
    // The run's table: one line per store and strategy, the label escaped everywhere.
    #expect(html.components(separatedBy: "<tr><td>").count - 1 == 4)
    #expect(html.contains("&lt;odd&gt; &amp; store") && !html.contains("<odd>"))
    // Provenance.
    for value in ["20261125T100000Z-seed4", "2026-11-25T10:00:00Z", "2d3017b0ab12", "bench-1", "cachebench test"] {
      #expect(html.contains(value))
    }
    // The comparison: its counts, and the two rows that changed, the regression first.
    #expect(html.contains("1 regressed, 1 improved, 0 unchanged"))
    #expect(html.contains("<tr class=\"regressed\"><td>regressed</td><td>memory</td><td>path</td><td>write</td><td>allocations</td>"))
    #expect(html.contains("+10 (+10.0%)"))
  }

  @Test("typePolicy against path: the ratios by hand (records 100/300, bytes 9,000/30,000), a line at 1")
  func strategyRatios() {
    let html = HTMLReport(rows: Self.rows, generator: "t").render()
    #expect(html.contains("typePolicy vs path: 0.33x"))
    #expect(html.contains("typePolicy vs path: 0.30x"))
    #expect(html.contains(">1.00x</text>"))
  }

  @Test("a sweep draws its metrics against the knob instead of the latency bars")
  func sweep() {
    let rows = ["0", "0.5", "0.9"].flatMap { value in
      [
        Self.row("memory", "path", .write, "latency", 1_000, variant: "duplication=\(value)"),
        Self.row("memory", "path", .read, "latency", 900, variant: "duplication=\(value)"),
      ]
    }
    let report = HTMLReport(rows: rows, generator: "t")
    #expect(report.sectionIDs == ["run", "sweep"])
    #expect(report.render().contains("write latency p50 against duplication"))
  }
}

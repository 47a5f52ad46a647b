extension MetricRow: CSVRepresentable {
  package var csvFields: [String] {
    [
      run.runID, run.timestamp, run.gitRev, run.host,
      key.workload, key.variantColumn, key.store, key.keys, key.phase.rawValue, key.metric,
      unit.rawValue, better.rawValue, deterministic ? "true" : "false",
      String(summary.n),
      CSVNumber.format(summary.min), CSVNumber.format(summary.p50), CSVNumber.format(summary.p90),
      CSVNumber.format(summary.p99), CSVNumber.format(summary.max), CSVNumber.format(summary.mean),
      CSVNumber.format(summary.stddev),
    ]
  }

  package init(csvFields row: CSVFields) throws(CSVError) {
    let n = try row.integer("n")
    guard n >= 1 else { throw row.error("n", "expected at least 1 sample, found \(n)") }
    self.init(
      run: RunInfo(
        runID: row.string("run_id"), timestamp: row.string("timestamp"),
        gitRev: row.string("git_rev"), host: row.string("host")),
      key: try MetricKey(csvFields: row),
      unit: try row.value("unit", as: MetricUnit.self),
      better: try row.value("better", as: Better.self),
      deterministic: try row.boolean("deterministic"),
      summary: Summary(
        n: n, min: try row.number("min"), p50: try row.number("p50"), p90: try row.number("p90"),
        p99: try row.number("p99"), max: try row.number("max"), mean: try row.number("mean"),
        stddev: try row.number("stddev"))
    )
  }
}

extension MetricKey {
  /// Reads the `workload,variant,store,keys,phase,metric` columns.
  init(csvFields row: CSVFields) throws(CSVError) {
    let (variant, readers) = Self.parse(variantColumn: row.string("variant"))
    self.init(
      workload: row.string("workload"), variant: variant, store: row.string("store"),
      keys: try row.nonEmpty("keys"),
      phase: try row.value("phase", as: Phase.self),
      metric: row.string("metric"), readers: readers)
  }
}

/// One sample of one metric, for the `--samples` CSV: the raw values a ``MetricRow`` summarizes,
/// for plotting distributions.
///
/// Columns: `run_id,workload,variant,store,keys,phase,metric,unit,index,value`; `index` counts the
/// samples of one metric from 0 in the order they were taken.
package struct SampleRow: Sendable, Hashable {
  package var runID: String
  package var key: MetricKey
  package var unit: MetricUnit
  package var index: Int
  package var value: Double

  package init(runID: String, key: MetricKey, unit: MetricUnit, index: Int, value: Double) {
    self.runID = runID
    self.key = key
    self.unit = unit
    self.index = index
    self.value = value
  }

  /// One row per sample, indexed from 0.
  package static func rows(
    runID: String, key: MetricKey, unit: MetricUnit, samples: [Double]
  ) -> [SampleRow] {
    samples.enumerated().map { SampleRow(runID: runID, key: key, unit: unit, index: $0, value: $1) }
  }
}

extension SampleRow: CSVRepresentable {
  package static let columns = [
    "run_id", "workload", "variant", "store", "keys", "phase", "metric", "unit", "index", "value",
  ]

  package var csvFields: [String] {
    [
      runID, key.workload, key.variantColumn, key.store, key.keys, key.phase.rawValue,
      key.metric, unit.rawValue, String(index), CSVNumber.format(value),
    ]
  }

  package init(csvFields row: CSVFields) throws(CSVError) {
    self.init(
      runID: row.string("run_id"),
      key: try MetricKey(csvFields: row),
      unit: try row.value("unit", as: MetricUnit.self),
      index: try row.integer("index"),
      value: try row.number("value"))
  }
}

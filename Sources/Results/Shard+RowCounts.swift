/// What a part of a split run ends with: for each of its configurations, in the order its rows
/// first appear, one row counting that configuration's rows in the part (phase `shard`, metric
/// `rows`; docs/csv.md#split-runs-and-the-merged-csv).
///
/// A part cut at a line end, anywhere, loses the last count row; a part that lost rows in its
/// middle holds a count that its rows do not make. Every reader of a part checks the counts and
/// drops them, so a merged CSV, a report or a comparison never shows them.
///
/// ```swift
/// let part = Shard.appendingCounts(to: rows)   // rows, then one count per configuration
/// let read = try Shard.checkingCounts(of: part) // rows again
/// ```
extension Shard {
  /// The count row's metric: `shard/rows`.
  package static let countMetric = Metric(.shard, "rows", unit: .count, deterministic: true)

  /// `rows`, then one count row for each of their configurations, in the order they first appear.
  package static func appendingCounts(to rows: [MetricRow]) -> [MetricRow] {
    rows + countRows(of: rows)
  }

  /// One count row for each configuration of `rows`, in the order they first appear. Each count
  /// row takes the run of the configuration's first row.
  package static func countRows(of rows: [MetricRow]) -> [MetricRow] {
    var order: [ConfigurationID] = []
    var counts: [ConfigurationID: (first: MetricRow, count: Int)] = [:]
    for row in rows {
      let id = row.key.configuration
      if let held = counts[id] {
        counts[id] = (held.first, held.count + 1)
      } else {
        order.append(id)
        counts[id] = (row, 1)
      }
    }
    return order.map { id in
      let (first, count) = counts[id]!
      let metric = countMetric
      return MetricRow(
        run: first.run,
        key: MetricKey(
          workload: first.key.workload, variant: id.variant, store: id.store, keys: id.keys, phase: metric.phase, metric: metric.name),
        unit: metric.unit, better: metric.better, deterministic: metric.deterministic, summary: Summary(single: Double(count)))
    }
  }

  /// Whether `row` is a part's count row.
  package static func isCount(_ row: MetricRow) -> Bool { row.key.phase == .shard }

  /// A part's rows without its count rows, once they agree with them; the rows unchanged when they
  /// are not a part's (their run ID names no shard).
  ///
  /// - Throws: ``CountMismatch`` with the position of the row at fault (the last row for one
  ///   missing) when a count row is missing, out of place, or counts other rows than the part holds.
  package static func checkingCounts(of rows: [MetricRow]) throws(CountMismatch) -> [MetricRow] {
    guard let first = rows.first, parse(runID: first.run.runID) != nil else { return rows }
    let end = rows.count - 1
    guard let start = rows.firstIndex(where: isCount) else {
      throw CountMismatch(index: end, message: "the part ends without its count rows: it was cut short")
    }
    let held = Array(rows[..<start])
    if let stray = rows[start...].firstIndex(where: { !isCount($0) }) {
      throw CountMismatch(index: stray, message: "a row after the part's count rows, which end a part")
    }
    var order: [ConfigurationID] = []
    var actual: [ConfigurationID: Int] = [:]
    for row in held {
      let id = row.key.configuration
      if actual[id] == nil { order.append(id) }
      actual[id, default: 0] += 1
    }
    for (offset, id) in order.enumerated() {
      let index = start + offset
      guard index <= end else {
        throw CountMismatch(index: end, message: "the part ends without the count of \(id)'s rows: it was cut short")
      }
      let row = rows[index]
      guard row.key.configuration == id, row.key.metric == countMetric.name, row.key.readers == nil else {
        throw CountMismatch(index: index, message: "the count row \(row.key) where the count of \(id)'s rows belongs")
      }
      let count = actual[id]!
      let said = row.summary.p50
      guard said == Double(count) else {
        let what = Double(count) < said ? "rows were lost" : "rows were added"
        throw CountMismatch(
          index: index, message: "\(id) has \(count) rows in the part where its count row says \(said.formatted): \(what)")
      }
    }
    if start + order.count <= end {
      let row = rows[start + order.count]
      throw CountMismatch(index: start + order.count, message: "a count of \(row.key.configuration)'s rows, which the part has none of")
    }
    return held
  }

  /// A part's count rows that disagree with its rows: ``message`` says how, ``index`` is the
  /// position of the row at fault.
  package struct CountMismatch: Error, Sendable, Equatable {
    package let index: Int
    package let message: String
  }
}

extension Double {
  /// `23`, or `2.5`: a count as a person writes it.
  fileprivate var formatted: String {
    rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
  }
}

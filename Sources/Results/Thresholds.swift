import Support

/// A thresholds file (docs/gate.md#thresholds): a CSV whose entries give metrics, by pattern, a
/// tolerance of their own, which `compare --thresholds` (and so the gate) judges them by instead of
/// the defaults.
///
/// ```
/// workload,variant,store,keys,phase,metric,relative_percent,absolute
/// *,*,*,*,*,instructions,0.5,0
/// gate,,sqlite-wal,*,write,allocations,0,2
/// ```
///
/// - The six key columns are those of a results CSV; `*` matches any value (``MetricPattern``).
/// - `relative_percent` is a percentage of the baseline's value, `absolute` a quantity in the
///   metric's unit; both 0 or more (``Tolerance``).
/// - The entry that names the most columns among those that match a row wins; two that match it
///   and name as many are an error naming both lines. A row no entry matches keeps the defaults.
///
/// ```swift
/// let thresholds = try Thresholds.read(from: "Baselines/gate.thresholds.csv")
/// let tolerances = try thresholds.tolerances(for: rows.map(\.key))
/// ```
package struct Thresholds: Sendable, Hashable {
  /// One entry and the line it is on.
  package struct Line: Sendable, Hashable {
    package let line: Int
    package let entry: ThresholdEntry
  }

  /// The path as given, which errors name.
  package let file: String
  package let lines: [Line]

  /// The entries of `file`, in its order.
  ///
  /// - Throws: ``CSVError`` naming the line of a second entry of one pattern, and the line of the first.
  package init(file: String, lines: [Line]) throws(CSVError) {
    var first: [MetricPattern: Int] = [:]
    for line in lines {
      if let earlier = first[line.entry.pattern] {
        throw CSVError(
          file: file, line: line.line, message: "a second entry for \(line.entry.pattern): line \(earlier) holds it already")
      }
      first[line.entry.pattern] = line.line
    }
    self.file = file
    self.lines = lines
  }

  /// Reads a thresholds file.
  ///
  /// - Throws: ``InputError`` when it cannot be read; ``CSVError`` naming the file, the line and
  ///   the column of a value that is not a number, a tolerance below 0, an unknown phase, an empty
  ///   name, or a second entry of one pattern.
  package static func read(from path: String) throws -> Thresholds {
    let numbered = try ResultsFile.numberedRows(ThresholdEntry.self, from: path)
    return try Thresholds(file: path, lines: numbered.map { Line(line: $0.line, entry: $0.row) })
  }

  /// The tolerance of the entry that decides `key`, or nil when no entry matches it.
  ///
  /// - Throws: ``CSVError`` when two entries that match it name as many columns, naming both lines.
  package func tolerance(for key: MetricKey) throws(CSVError) -> Tolerance? {
    var best: Line?
    var tie: Line?
    for line in lines where line.entry.pattern.matches(key) {
      guard let current = best else {
        best = line
        continue
      }
      let specificity = line.entry.pattern.specificity
      if specificity > current.entry.pattern.specificity {
        best = line
        tie = nil
      } else if specificity == current.entry.pattern.specificity, tie == nil {
        tie = line
      }
    }
    if let best, let tie {
      let count = best.entry.pattern.specificity
      throw CSVError(
        file: file, line: tie.line,
        message: "line \(best.line) and line \(tie.line) both match \(key), each naming \(count) column\(count == 1 ? "" : "s"): "
          + "add an entry that names more, or remove one")
    }
    return best?.entry.tolerance
  }

  /// The tolerance of every key an entry matches.
  ///
  /// - Throws: as ``tolerance(for:)``, for the first key in order that two entries tie on.
  package func tolerances(for keys: some Sequence<MetricKey>) throws(CSVError) -> [MetricKey: Tolerance] {
    var tolerances: [MetricKey: Tolerance] = [:]
    for key in keys {
      if let tolerance = try tolerance(for: key) { tolerances[key] = tolerance }
    }
    return tolerances
  }

  /// Checks that every metric an entry names is a metric of `rows`: a misspelt name would
  /// otherwise leave its rows to the defaults without a word. An entry of a workload none of the
  /// rows are of is not checked (one file may serve several workloads).
  ///
  /// - Throws: ``CSVError`` naming the line and the column `metric`.
  package func checkMetrics(of rows: [MetricRow]) throws(CSVError) {
    let workloads = Set(rows.map(\.key.workload))
    let metrics = Set(rows.map { MetricPattern(phase: $0.key.phase, metric: $0.key.metric) })
    let names = Set(rows.map(\.key.metric))
    for line in lines {
      let pattern = line.entry.pattern
      guard let metric = pattern.metric, pattern.workload.map(workloads.contains) ?? true else { continue }
      let known = pattern.phase.map { metrics.contains(MetricPattern(phase: $0, metric: metric)) } ?? names.contains(metric)
      if !known {
        let name = pattern.phase.map { "\($0.rawValue)/\(metric)" } ?? metric
        throw CSVError(
          file: file, line: line.line, field: "metric", message: "unknown metric '\(name)': no row of the files compared has it")
      }
    }
  }
}

/// One entry of a thresholds file: the metrics it names and their tolerance.
package struct ThresholdEntry: Sendable, Hashable {
  package var pattern: MetricPattern
  package var tolerance: Tolerance

  package init(pattern: MetricPattern, tolerance: Tolerance) {
    self.pattern = pattern
    self.tolerance = tolerance
  }
}

extension ThresholdEntry: CSVRepresentable {
  package static let columns = ["workload", "variant", "store", "keys", "phase", "metric", "relative_percent", "absolute"]

  package var csvFields: [String] {
    pattern.fields + [CSVNumber.format(tolerance.relativePercent), CSVNumber.format(tolerance.absolute)]
  }

  package init(csvFields row: CSVFields) throws(CSVError) {
    func name(_ column: String) throws(CSVError) -> String? {
      let text = try row.nonEmpty(column)
      return text == MetricPattern.wildcard ? nil : text
    }
    let variant = row.string("variant")
    let phaseText = row.string("phase")
    var phase: Phase?
    if phaseText != MetricPattern.wildcard {
      guard let named = Phase(rawValue: phaseText) else {
        let names = Phase.allCases.map(\.rawValue).joined(separator: ", ")
        throw row.error("phase", "expected * or one of \(names), found '\(phaseText)'")
      }
      phase = named
    }
    let pattern = MetricPattern(
      workload: try name("workload"), variant: variant == MetricPattern.wildcard ? nil : variant, store: try name("store"),
      keys: try name("keys"), phase: phase, metric: try name("metric"))
    self.init(
      pattern: pattern,
      tolerance: Tolerance(
        relativePercent: try Self.tolerance("relative_percent", of: row), absolute: try Self.tolerance("absolute", of: row)))
  }

  /// A finite number, 0 or more.
  private static func tolerance(_ column: String, of row: CSVFields) throws(CSVError) -> Double {
    let value = try row.number(column)
    guard value >= 0 else { throw row.error(column, "expected a tolerance of 0 or more, found '\(row.string(column))'") }
    return value
  }
}

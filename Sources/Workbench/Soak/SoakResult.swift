import Foundation
import Results

/// One figure a soak samples (docs/command-line.md#soak), by its CSV column.
package enum SoakFigure: String, Sendable, Hashable, CaseIterable {
  /// The process's resident set (`VmRSS`).
  case rssBytes = "rss_bytes"
  /// jemalloc's live bytes (`stats.allocated`), the whole process's.
  case liveBytes = "live_bytes"
  /// Records the store holds.
  case records
  /// What the store's budget counts.
  case accountedBytes = "accounted_bytes"
  /// The database with its WAL (`footprint/db_bytes`), and the WAL alone.
  case dbBytes = "db_bytes"
  case walBytes = "wal_bytes"

  var isBytes: Bool { self != .records }
}

/// What one session held after `step` steps: a row of `soak --series`.
package struct SoakSample: Sendable, CSVRepresentable {
  package let workload: String
  package let configuration: ConfigurationID
  package let step: Int
  /// Nil: the store (or the system) does not have it.
  package let figures: [SoakFigure: Int?]
  /// False in a soak stopped by a signal before its end: its samples stop where it stopped.
  package private(set) var complete = true

  package static let columns = ["workload", "variant", "store", "keys", "step"] + SoakFigure.allCases.map(\.rawValue) + ["complete"]

  package var csvFields: [String] {
    [workload] + configuration.csvFields + [String(step)]
      + SoakFigure.allCases.map { figure in (figures[figure] ?? nil).map(String.init) ?? "" } + [String(complete)]
  }

  func marked(complete: Bool) -> SoakSample {
    var sample = self
    sample.complete = complete
    return sample
  }

  package init(workload: String, configuration: ConfigurationID, step: Int, figures: [SoakFigure: Int?]) {
    self.workload = workload
    self.configuration = configuration
    self.step = step
    self.figures = figures
  }

  package init(csvFields: CSVFields) throws(CSVError) {
    workload = csvFields.string("workload")
    configuration = ConfigurationID(csvFields: csvFields)
    step = try csvFields.integer("step")
    var figures: [SoakFigure: Int?] = [:]
    for figure in SoakFigure.allCases {
      figures[figure] = try csvFields.optionalNumber(figure.rawValue).map { Int($0) }
    }
    self.figures = figures
    complete = csvFields.string("complete") != "false"
  }
}

/// How one figure of one session grew after the warm-up: a row of `soak --out`.
package struct SoakGrowth: Sendable, CSVRepresentable {
  package let workload: String
  package let configuration: ConfigurationID
  package let figure: SoakFigure
  package let warmup: Int
  /// The samples after the warm-up, and the first and last of them.
  package let samples: Int
  package let first: Int
  package let last: Int
  /// The slope of the least-squares line through those samples, × 100,000 steps.
  package let perHundredThousandSteps: Double
  /// False in a soak stopped by a signal before its end: the line is fitted through fewer samples.
  package private(set) var complete = true

  package static let columns = [
    "workload", "variant", "store", "keys", "figure", "warmup_steps", "samples", "first", "last", "growth_per_100k_steps",
    "complete",
  ]

  package var csvFields: [String] {
    [workload] + configuration.csvFields
      + [figure.rawValue, String(warmup), String(samples), String(first), String(last), CSVNumber.format(perHundredThousandSteps)]
      + [String(complete)]
  }

  func marked(complete: Bool) -> SoakGrowth {
    var growth = self
    growth.complete = complete
    return growth
  }

  package init(
    workload: String, configuration: ConfigurationID, figure: SoakFigure, warmup: Int, samples: Int, first: Int, last: Int,
    perHundredThousandSteps: Double
  ) {
    self.workload = workload
    self.configuration = configuration
    self.figure = figure
    self.warmup = warmup
    self.samples = samples
    self.first = first
    self.last = last
    self.perHundredThousandSteps = perHundredThousandSteps
  }

  package init(csvFields: CSVFields) throws(CSVError) {
    workload = csvFields.string("workload")
    configuration = ConfigurationID(csvFields: csvFields)
    guard let figure = SoakFigure(rawValue: csvFields.string("figure")) else {
      throw csvFields.error("figure", "expected one of \(SoakFigure.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    self.figure = figure
    warmup = try csvFields.integer("warmup_steps")
    samples = try csvFields.integer("samples")
    first = try csvFields.integer("first")
    last = try csvFields.integer("last")
    perHundredThousandSteps = try csvFields.number("growth_per_100k_steps")
    complete = csvFields.string("complete") != "false"
  }

  /// The first and last sample and the growth, as the table shows them: `41.2 MB`, `+12.0 kB (+0.03%)`.
  var formatted: [String] {
    func format(_ value: Double) -> String { figure.isBytes ? HumanFormat.bytes(value) : ResultsTable.grouped(value) }
    let growth = perHundredThousandSteps
    let sign = growth < 0 ? "-" : "+"
    let share = first == 0 ? "" : " (\(sign)\(String(format: "%.2f", abs(growth) / Double(first) * 100))%)"
    return [format(Double(first)), format(Double(last)), sign + format(abs(growth)) + share]
  }

  /// Each figure of each session, fitted after `warmup` steps; none for a figure a session does
  /// not have.
  package static func fit(_ samples: [SoakSample], warmup: Int) -> [SoakGrowth] {
    var sessions: [(workload: String, configuration: ConfigurationID, samples: [SoakSample])] = []
    for sample in samples {
      if let last = sessions.indices.last, sessions[last].configuration == sample.configuration, sessions[last].workload == sample.workload
      {
        sessions[last].samples.append(sample)
      } else {
        sessions.append((sample.workload, sample.configuration, [sample]))
      }
    }
    return sessions.flatMap { session in
      SoakFigure.allCases.compactMap { figure -> SoakGrowth? in
        let points = session.samples.filter { $0.step >= warmup }.compactMap { sample in
          (sample.figures[figure] ?? nil).map { (Double(sample.step), $0) }
        }
        guard let slope = Statistics.slope(x: points.map(\.0), y: points.map { Double($0.1) }) else { return nil }
        return SoakGrowth(
          workload: session.workload, configuration: session.configuration, figure: figure, warmup: warmup, samples: points.count,
          first: points.first!.1, last: points.last!.1, perHundredThousandSteps: slope * 100_000)
      }
    }
  }
}

/// What `cachebench soak` found: every sample, and each figure's growth after the warm-up.
package struct SoakResult: Sendable {
  package let samples: [SoakSample]
  package let growth: [SoakGrowth]
  /// The signal that stopped the soak before its end (SIGINT, SIGTERM), nil when it ran to it.
  package let interruption: Int32?

  package init(samples: [SoakSample], warmup: Int, interruption: Int32? = nil) {
    let complete = interruption == nil
    self.samples = samples.map { $0.marked(complete: complete) }
    growth = SoakGrowth.fit(samples, warmup: warmup).map { $0.marked(complete: complete) }
    self.interruption = interruption
  }

  /// The table `soak` prints: a line per session and figure.
  ///
  /// ```
  /// store       keys        figure      after warm-up  at end   growth/100k steps
  /// memory-lru  typePolicy  live_bytes  41.2 MB        41.3 MB  +12.0 kB (+0.03%)
  /// ```
  package var table: String {
    let hasVariants = growth.contains { !$0.configuration.variant.isEmpty }
    var columns: [TextTable.Column] = ["store", "keys", "figure", "after warm-up", "at end", "growth/100k steps"]
    if hasVariants { columns.insert("variant", at: 0) }
    let rows = growth.map { row -> [String] in
      var line = [row.configuration.store, row.configuration.keys, row.figure.rawValue] + row.formatted
      if hasVariants { line.insert(row.configuration.variant, at: 0) }
      return line
    }
    let warmup = growth.first.map { ResultsTable.grouped(Double($0.warmup)) } ?? "0"
    return "Soak (growth: the least-squares slope of the samples after a warm-up of \(warmup) steps, per 100,000 steps)\n"
      + TextTable(columns: columns, rows: rows).render()
  }
}

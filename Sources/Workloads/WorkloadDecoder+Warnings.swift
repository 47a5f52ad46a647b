import Generator
import GraphQLLanguage

/// Settings a workload file gives that change nothing in it, each a warning that `validate` and
/// `run` print on standard error (docs/command-line.md, warnings); the file still runs.
extension WorkloadDecoder {
  /// Every warning of the file: the clock's settings without dates, then `traffic.refreshOnExpiry`
  /// without watchers and a sweep of a knob `generator.narrowReads` leaves unused, each group in
  /// the order of the keys it names.
  func warnings(source: Workload.Source, stores: [StoreSpec], traffic: TrafficSettings?, sweep: Workload.Sweep?) -> [String] {
    var found = datelessClockSettings(stores: stores, sweep: sweep)
    var keyed: [(keyPath: String, why: String)] = []
    if let traffic, traffic.refreshOnExpiry, traffic.watchers == 0, stores.contains(where: \.dates) {
      keyed.append(("traffic.refreshOnExpiry", "it sets the watched operations' timers, and traffic.watchers is 0: none is watched"))
    }
    if case .generator(let config) = source, config.narrowReads != nil, case .generator(let knob)? = sweep?.knob,
      let why = Self.unshapedByNarrowReads(knob)
    {
      keyed.append(("sweep.generator.\(knob.rawValue)", why))
    }
    found += keyed.sorted { line($0.keyPath) < line($1.keyPath) }.map {
      "\(place($0.keyPath)): \($0.keyPath): changes nothing here: \($0.why)"
    }
    return found
  }

  /// Why a sweep of `knob` beside `generator.narrowReads` runs one workload at every point; nil
  /// for a knob that shapes it.
  static func unshapedByNarrowReads(_ knob: GeneratorConfig.Knob) -> String? {
    switch knob {
    case .operations, .depth, .fanOut, .listShare:
      "generator.narrowReads makes the operations (a list and a detail per keyed type), which \(knob.rawValue) does not shape, so every point runs the same workload"
    default: nil
    }
  }

  /// The line and column of a key, for ordering warnings as the file gives their keys.
  private func line(_ keyPath: String) -> (Int, Int) {
    root.locations[keyPath].map { ($0.line, $0.column) } ?? (0, 0)
  }

  /// `FILE:LINE:COLUMN` of a key, or the file.
  private func place(_ keyPath: String) -> String {
    root.locations[keyPath].map(\.description) ?? root.file
  }

  /// `traffic.ttl`, `traffic.secondsPerStep`, `traffic.startAt` and `traffic.refreshOnExpiry`, given or swept, in a workload
  /// without a store with dates: the session's clock dates writes and reads of such stores only
  /// (docs/workloads.md#traffic), so they change nothing. One warning each, at its key.
  func datelessClockSettings(stores: [StoreSpec], sweep: Workload.Sweep?) -> [String] {
    guard !stores.contains(where: \.dates) else { return [] }
    var keyPaths: [String] = []
    if case .object(let traffic)? = root.object["traffic"] {
      for key in ["secondsPerStep", "startAt", "ttl", "refreshOnExpiry"] where traffic[key].map({ $0 != .null }) ?? false {
        keyPaths.append("traffic.\(key)")
      }
    }
    if case .traffic(let knob)? = sweep?.knob, knob.isClock { keyPaths.append("sweep.traffic.\(knob.rawValue)") }
    return keyPaths.sorted { line($0) < line($1) }.map { keyPath in
      "\(place(keyPath)): \(keyPath): changes nothing here: it needs a store with \"dates\": true, and no store of this workload has dates"
    }
  }
}

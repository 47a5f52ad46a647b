import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import Results
import SQLiteCache
import Support

/// The `sweep` section: its knob, and each of its points decoded and checked once (docs/workloads.md#sweep).
extension WorkloadDecoder {
  /// `sweep`: one generator knob and its values; `stores.maxSizeBytes`: every store that has a
  /// `maxSizeBytes` (a chain's parts included) at each value, decoded again; or one key of the
  /// `read` or `traffic` section, the section decoded again at each value.
  mutating func decodeSweep(
    source: Workload.Source, storeObjects: [JSONValue]?, read: Workload.ReadSettings, traffic: TrafficSettings?
  ) throws(WorkloadError) -> Workload.Sweep? {
    guard var sweep = try root.object("sweep") else { return nil }
    let keys = sweep.object.keys
    guard keys.count == 1, let key = keys.first else { throw root.error("sweep", "must have exactly one knob") }
    guard let values = try sweep.array(key), !values.isEmpty else { throw sweep.error(key, "must list at least one value") }
    try sweep.finish()
    try Self.checkSweepValues(values, error: { message in sweep.error(key, message) })
    if key == "stores.maxSizeBytes" { return try budgetSweep(key: key, values: values, storeObjects: storeObjects, sweep: sweep) }
    if key.hasPrefix("read.") {
      let knob = try Self.sectionKey(key, of: Workload.ReadSettings.Knob.self, sweep: sweep)
      let points = try sectionPoints(key: key, values: values, sweep: sweep) { object throws(WorkloadError) in
        .read(try Self.read(&object))
      }
      return Workload.Sweep(knob: .read(knob), points: points)
    }
    if key.hasPrefix("traffic.") {
      let knob = try Self.sectionKey(key, of: TrafficSettings.Knob.self, sweep: sweep)
      guard traffic != nil else { throw sweep.error(key, "a sweep of the traffic needs a \"traffic\" section") }
      let points = try sectionPoints(key: key, values: values, sweep: sweep) { object throws(WorkloadError) in
        .traffic(try Self.traffic(&object))
      }
      return Workload.Sweep(knob: .traffic(knob), points: points)
    }
    guard key.hasPrefix("generator."), let knob = GeneratorConfig.Knob(rawValue: String(key.dropFirst("generator.".count)))
    else {
      func names<Knob: RawRepresentable & CaseIterable>(_: Knob.Type) -> String where Knob.RawValue == String {
        Knob.allCases.map(\.rawValue).joined(separator: ", ")
      }
      throw sweep.error(
        key,
        "is not a knob; write \"generator.<knob>\" (knobs: \(names(GeneratorConfig.Knob.self))), \"stores.maxSizeBytes\", "
          + "\"read.<key>\" (keys: \(names(Workload.ReadSettings.Knob.self))) or \"traffic.<key>\" (keys: \(names(TrafficSettings.Knob.self)))"
      )
    }
    guard case .generator(let base) = source else { throw sweep.error(key, "a sweep of the generator needs a \"generator\" source") }
    var points: [Workload.Sweep.Point] = []
    for value in values {
      var config = base
      do {
        try config.set(knob, to: value)
        try config.validate()
      } catch {
        throw sweep.error(key, error.problems.map(\.message).joined(separator: "; "))
      }
      points.append(Workload.Sweep.Point(value: value, setting: .generator(config)))
    }
    return Workload.Sweep(knob: .generator(knob), points: points)
  }

  /// `stores.maxSizeBytes`: every store that has a `maxSizeBytes` (a chain's parts included) at
  /// each value, decoded again.
  func budgetSweep(key: String, values: [JSONValue], storeObjects: [JSONValue]?, sweep: ConfigObject) throws(WorkloadError)
    -> Workload.Sweep
  {
    guard let storeObjects, storeObjects.contains(where: Self.hasBudget) else {
      throw sweep.error(key, "no store has a \"maxSizeBytes\" to sweep")
    }
    var points: [Workload.Sweep.Point] = []
    for (index, value) in values.enumerated() {
      do {
        let stores = try decodeStores(storeObjects.map { Self.replacingBudget(in: $0, with: value) })
        points.append(Workload.Sweep.Point(value: value, setting: .stores(stores)))
      } catch {
        throw sweep.error(key, "value \(index) (\(FieldKey.render(json: value))): \(error.keyPath): \(error.message)")
      }
    }
    return Workload.Sweep(knob: .budget, points: points)
  }

  /// The key of `section.key` among a section's keys, or an error at the sweep's key that suggests
  /// a near miss: `sweep.read.projected: is not a key of "read"; did you mean "projectedReads"?`.
  static func sectionKey<Knob: RawRepresentable & CaseIterable>(
    _ key: String, of _: Knob.Type, sweep: ConfigObject
  ) throws(WorkloadError) -> Knob where Knob.RawValue == String {
    let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
    let section = parts[0]
    let name = parts.count > 1 ? parts[1] : ""
    if let knob = Knob(rawValue: name) { return knob }
    let names = Knob.allCases.map(\.rawValue)
    if let near = Suggestion.nearest(to: name, in: names) {
      throw sweep.error(key, "is not a key of \"\(section)\"; did you mean \"\(section).\(near)\"?")
    }
    throw sweep.error(key, "is not a key of \"\(section)\"; its keys are \(names.joined(separator: ", "))")
  }

  /// The points of a sweep of one key of a section (`read.projectedReads`, `traffic.ttl`): at each
  /// value, the section as the file gives it with the key set to the value, decoded and checked as
  /// the file's own section is; an error at the sweep's key names the value (`value 1 (0): must be
  /// between 1 and 2147483647, got 0`).
  func sectionPoints(
    key: String, values: [JSONValue], sweep: ConfigObject,
    decode: (inout ConfigObject) throws(WorkloadError) -> Workload.Sweep.Setting
  ) throws(WorkloadError) -> [Workload.Sweep.Point] {
    let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
    var section = JSONObject()
    if case .object(let given)? = root.object[parts[0]] { section = given }
    var points: [Workload.Sweep.Point] = []
    for (index, value) in values.enumerated() {
      var members = JSONObject()
      for member in section where member.key != parts[1] { members.append(key: member.key, value: member.value) }
      members.append(key: parts[1], value: value)
      // No locations: an error is placed at the sweep's key, naming the value.
      var object = ConfigObject(members, path: parts[0], file: root.file, locations: [:])
      do {
        points.append(Workload.Sweep.Point(value: value, setting: try decode(&object)))
      } catch {
        throw sweep.error(key, "value \(index) (\(FieldKey.render(json: value))): \(error.message)")
      }
    }
    return points
  }

  /// What ``checkRead(_:source:keys:sweep:)`` asks of the read section, of each point of a sweep of
  /// a read key, at the sweep's key: `sweep.read.watchers: value 1 (50): read.watchers: is 50, more
  /// than the 4 operations the workload reads`.
  func checkSweptReads(_ sweep: Workload.Sweep?, source: Workload.Source, keys: [NamedStrategy]) throws(WorkloadError) {
    guard let sweep, case .read(let knob) = sweep.knob else { return }
    let key = "read.\(knob.rawValue)"
    let place = ConfigObject(JSONObject(), path: "sweep", file: root.file, locations: root.locations)
    for (index, point) in sweep.points.enumerated() {
      guard case .read(let read) = point.setting else { continue }
      do {
        try checkRead(read, source: source, keys: keys, sweep: sweep)
      } catch {
        throw place.error(key, "value \(index) (\(FieldKey.render(json: point.value))): \(error.keyPath): \(error.message)")
      }
    }
  }

  /// A sweep's values: none `null` (a point needs a value: it would run unbounded, or at the
  /// knob's default, under a variant named `=null`), none twice (two variants of one name, whose
  /// rows `compare` then refuses as duplicates).
  static func checkSweepValues(_ values: [JSONValue], error: (String) -> WorkloadError) throws(WorkloadError) {
    var seen: [String: Int] = [:]
    for (index, value) in values.enumerated() {
      if value == .null {
        throw error("value \(index) is null: every point of a sweep needs a value (leave the key out of a store for no budget)")
      }
      let name = FieldKey.render(json: value)
      if let first = seen[name] { throw error("value \(index) (\(name)) repeats value \(first): each point runs once") }
      seen[name] = index
    }
  }

  /// Whether a store object (or a part of it) has a `maxSizeBytes`.
  static func hasBudget(_ store: JSONValue) -> Bool {
    guard case .object(let object) = store else { return false }
    return object["maxSizeBytes"] != nil || ["front", "back"].contains { object[$0].map(hasBudget) ?? false }
  }

  /// The store object with every `maxSizeBytes` in it (and in its parts) set to `value`.
  static func replacingBudget(in store: JSONValue, with value: JSONValue) -> JSONValue {
    guard case .object(let object) = store else { return store }
    var result = JSONObject()
    for member in object {
      switch member.key {
      case "maxSizeBytes": result.append(key: member.key, value: value)
      case "front", "back": result.append(key: member.key, value: replacingBudget(in: member.value, with: value))
      default: result.append(key: member.key, value: member.value)
      }
    }
    return .object(result)
  }
}

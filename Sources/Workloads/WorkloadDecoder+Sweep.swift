import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import SQLiteCache
import Support

/// The `sweep` section: its knob, and each of its points decoded and checked once (docs/workloads.md#sweep).
extension WorkloadDecoder {
  /// `sweep`: one generator knob and its values, or `stores.maxSizeBytes`: every store that has a
  /// `maxSizeBytes` (a chain's parts included) at each value, decoded again.
  mutating func decodeSweep(
    source: Workload.Source, storeObjects: [JSONValue]?, traffic: TrafficSettings?
  ) throws(WorkloadError) -> Workload.Sweep? {
    guard var sweep = try root.object("sweep") else { return nil }
    let keys = sweep.object.keys
    guard keys.count == 1, let key = keys.first else { throw root.error("sweep", "must have exactly one knob") }
    guard let values = try sweep.array(key), !values.isEmpty else { throw sweep.error(key, "must list at least one value") }
    try sweep.finish()
    try Self.checkSweepValues(values, error: { message in sweep.error(key, message) })
    if key == "stores.maxSizeBytes" {
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
    if key.hasPrefix("traffic.") {
      return try Self.trafficSweep(key: key, values: values, traffic: traffic, sweep: sweep)
    }
    guard key.hasPrefix("generator."), let knob = GeneratorConfig.Knob(rawValue: String(key.dropFirst("generator.".count)))
    else {
      let knobs = GeneratorConfig.Knob.allCases.map(\.rawValue).joined(separator: ", ")
      let trafficKnobs = TrafficSettings.Knob.allCases.map { "\"traffic.\($0.rawValue)\"" }.joined(separator: ", ")
      throw sweep.error(
        key, "is not a knob; write \"generator.<knob>\" (knobs: \(knobs)), \"stores.maxSizeBytes\" or \(trafficKnobs)")
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

  /// `traffic.secondsPerStep` or `traffic.ttl`: the traffic section at each value, each checked as
  /// the key itself is (docs/workloads.md#sweep).
  static func trafficSweep(
    key: String, values: [JSONValue], traffic: TrafficSettings?, sweep: ConfigObject
  ) throws(WorkloadError) -> Workload.Sweep {
    guard let knob = TrafficSettings.Knob(rawValue: String(key.dropFirst("traffic.".count))) else {
      let knobs = TrafficSettings.Knob.allCases.map { "traffic.\($0.rawValue)" }.joined(separator: ", ")
      throw sweep.error(key, "is not a traffic key a sweep can set; those are \(knobs)")
    }
    guard let traffic else { throw sweep.error(key, "a sweep of the traffic needs a \"traffic\" section") }
    var points: [Workload.Sweep.Point] = []
    for (index, value) in values.enumerated() {
      var settings = traffic
      do {
        try settings.set(knob, to: value)
      } catch {
        throw sweep.error(key, "value \(index) (\(FieldKey.render(json: value))): \(error.message)")
      }
      points.append(Workload.Sweep.Point(value: value, setting: .traffic(settings)))
    }
    return Workload.Sweep(knob: .traffic(knob), points: points)
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

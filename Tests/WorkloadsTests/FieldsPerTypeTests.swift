import Foundation
import Generator
import GraphQLLanguage
import Testing

@testable import Workloads

/// `generator.fieldsPerType` and `generator.narrowReads.of` are one count, stored once
/// (docs/workloads.md#generator): what each shipped workload generates must not move.
@Suite("The fields per type, one count")
struct FieldsPerTypeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The count as it was reconciled before it was stored once: `narrowReads.of` (40 unless given)
  /// with narrow reads, else `fieldsPerType` (6 unless given); a sweep point of `narrowReads`
  /// replaced the whole setting, its `of` with it.
  static func reconciled(_ generator: JSONObject, narrowReads point: JSONValue? = nil) -> Int {
    let narrow = point ?? generator["narrowReads"]
    if case .object(let settings)? = narrow {
      if case .int(let of)? = settings["of"] { return of }
      return 40
    }
    if case .int(let count)? = generator["fieldsPerType"] { return count }
    return 6
  }

  @Test("every shipped generator workload, and each point of its sweep, has the fields per type it had when the two were reconciled")
  func shippedCountsUnchanged() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Workloads").path)
      .filter { $0.hasSuffix(".json") }.sorted()
    var checked = 0
    for file in files {
      let path = Self.root.appendingPathComponent("Workloads/\(file)").path
      let text = try String(contentsOfFile: path, encoding: .utf8)
      guard case .object(let object) = try JSONParser.parse(text), case .object(let generator)? = object["generator"] else { continue }
      let workload = try Workload.load(path)
      let variants = workload.variants
      var points: [JSONValue?] = Array(repeating: nil, count: variants.count)
      if let sweep = workload.sweep, case .generator(.narrowReads) = sweep.knob { points = sweep.values }
      for (variant, point) in zip(variants, points) {
        guard case .generator(let config) = variant.source else { continue }
        #expect(config.fieldsPerType == Self.reconciled(generator, narrowReads: point), "\(file) \(variant.name)")
        checked += 1
      }
    }
    #expect(checked >= 10)
  }
}

import Foundation

/// What a generator's knobs make, estimated before anything is generated: a response grows as
/// the branching raised to the depth, and `depth: 20` alone asked for 7.4 GB in a minute; and what
/// a run of them holds (``HeldMemory``): the schema and operations grow with `types` and the fields
/// per type whatever the responses.
extension GeneratorConfig {
  public struct Estimate: Sendable, Hashable, CustomStringConvertible {
    /// Objects in one response, on average.
    public let objectsPerResponse: Double
    /// Bytes of JSON in one response, on average.
    public let bytesPerResponse: Double
    public let responses: Int
    /// What a run holds at once: schema, operations, responses and records.
    public var held: HeldMemory

    public var objects: Double { objectsPerResponse * Double(responses) }
    public var bytes: Double { bytesPerResponse * Double(responses) }

    public var description: String {
      "about \(Self.count(objectsPerResponse)) objects and \(Self.bytes(bytesPerResponse)) per response, "
        + "\(Self.count(objects)) objects and \(Self.bytes(bytes)) in all; \(held)"
    }

    public static func count(_ value: Double) -> String {
      switch value {
      case ..<10_000: String(Int(value.rounded()))
      case ..<1_000_000: "\(Int((value / 1_000).rounded())) thousand"
      case ..<1_000_000_000: "\(Int((value / 1_000_000).rounded())) million"
      default: String(format: "%.1e", value)
      }
    }

    public static func bytes(_ value: Double) -> String {
      switch value {
      case ..<10_000: "\(Int(value.rounded())) B"
      case ..<1_000_000: "\(Int((value / 1_000).rounded())) KB"
      case ..<1_000_000_000: "\(Int((value / 1_000_000).rounded())) MB"
      case ..<1_000_000_000_000: "\(Int((value / 1_000_000_000).rounded())) GB"
      default: String(format: "%.1e B", value)
      }
    }
  }

  /// The expected size of the responses: each object above the deepest level has `fanOut` object
  /// fields, `listShare` of them lists of the mean `listLength`; a root field is a list of that
  /// length; an object carries `fieldsPerType` scalars, `listShare`-ish of them strings of the
  /// mean `stringLength`.
  /// With `narrowReads`, a response is a list of the mean `listLength` objects of `fields` scalars
  /// (a share `share` of them) or one object of `fieldsPerType` scalars.
  public var estimate: Estimate {
    var estimate = responseEstimate
    estimate.held = heldMemory(estimate)
    return estimate
  }

  /// The responses' part of ``estimate``, its ``Estimate/held`` zero.
  private var responseEstimate: Estimate {
    let meanList = Double(listLength.min + listLength.max) / 2
    let meanString = Double(stringLength.min + stringLength.max) / 2
    if let narrowReads {
      let listObjects = narrowReads.share * meanList
      let objects = max(1, listObjects + (1 - narrowReads.share))
      func bytes(fields: Int) -> Double { 40 + Double(fields) * (14 + 0.4 * meanString) }
      let bytes = listObjects * bytes(fields: narrowReads.fields) + (1 - narrowReads.share) * bytes(fields: fieldsPerType)
      return Estimate(objectsPerResponse: objects, bytesPerResponse: max(bytes, objects * 40), responses: responses, held: .zero)
    }
    let branching = Double(fanOut) * ((1 - listShare) + listShare * meanList)
    var perRoot = 0.0
    var level = 1.0
    for _ in 0..<depth {
      perRoot += level
      level *= branching
      if perRoot > 1e18 { break }
    }
    let objects = max(1, meanList) * perRoot
    let bytesPerObject = 40 + Double(fieldsPerType) * (14 + 0.4 * meanString)
    return Estimate(objectsPerResponse: objects, bytesPerResponse: objects * bytesPerObject, responses: responses, held: .zero)
  }

  /// The largest workload run without `--allow-large`: 2 GB of responses or 20 million objects in
  /// all, 200 MB or 2 million objects in one response, 2 GB held by a run (schema, operations,
  /// responses and records).
  public static let largeLimits = (bytes: 2e9, objects: 2e7, bytesPerResponse: 2e8, objectsPerResponse: 2e6, heldBytes: 2e9)

  /// Why the estimate is too large to run without `--allow-large`; nil when it is not.
  public var tooLarge: String? {
    let estimate = estimate
    let limits = Self.largeLimits
    if estimate.bytesPerResponse > limits.bytesPerResponse || estimate.objectsPerResponse > limits.objectsPerResponse {
      return
        "one response would hold \(Estimate.count(estimate.objectsPerResponse)) objects (\(Estimate.bytes(estimate.bytesPerResponse))); the limit is \(Estimate.count(limits.objectsPerResponse)) objects or \(Estimate.bytes(limits.bytesPerResponse))"
    }
    if estimate.bytes > limits.bytes || estimate.objects > limits.objects {
      return
        "the responses would hold \(Estimate.count(estimate.objects)) objects (\(Estimate.bytes(estimate.bytes))) in all; the limit is \(Estimate.count(limits.objects)) objects or \(Estimate.bytes(limits.bytes))"
    }
    if estimate.held.total > limits.heldBytes {
      return
        "a run would hold about \(Estimate.bytes(estimate.held.total)) (\(estimate.held.parts)); the limit is \(Estimate.bytes(limits.heldBytes))"
    }
    return nil
  }
}

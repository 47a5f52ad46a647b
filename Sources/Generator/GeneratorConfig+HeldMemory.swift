/// What a run of a generator workload holds in memory at once (docs/workloads.md#size-limits-and---allow-large):
/// the schema, the operations, the responses and the records of one store. The responses alone
/// did not bound it: `types` 3000 with `narrowReads.of` 500 and 2 responses, "5 objects and 45 KB
/// in all", peaked at 1.6 GB, all of it schema and operations.
///
/// Each part is a size of text or JSON the knobs give, times what holding it costs, measured on
/// jemalloc's counters of the generator, the parser and the normalizer (a property test,
/// `HeldMemoryTests`, keeps the peak of building all four within 2× of the sum).
extension GeneratorConfig {
  public struct HeldMemory: Sendable, Hashable, CustomStringConvertible {
    /// The schema: the generator's model, its SDL, and the parsed schema.
    public let schema: Double
    /// The operations: the generator's models and text, the parsed documents and their plans, and
    /// a plan for each response.
    public let operations: Double
    /// The responses: every response's JSON and parse when they come to at most
    /// ``GeneratorConfig/keptResponseBytes``, else a couple of responses at a time.
    public let responses: Double
    /// The records of one store, counting one record an object (an upper bound: reuse makes fewer).
    public let records: Double

    public var total: Double { schema + operations + responses + records }

    static let zero = HeldMemory(schema: 0, operations: 0, responses: 0, records: 0)

    public var description: String { "about \(Estimate.bytes(total)) held by a run (\(parts))" }

    /// `schema 1 MB, operations 2 MB, responses 3 MB, records 4 MB`.
    public var parts: String {
      "schema \(Estimate.bytes(schema)), operations \(Estimate.bytes(operations)), "
        + "responses \(Estimate.bytes(responses)), records \(Estimate.bytes(records))"
    }
  }

  /// A run keeps every response, JSON and parsed, when they come to at most this many bytes of
  /// JSON (64 MB), and makes each again when needed otherwise.
  public static let keptResponseBytes = 64 << 20

  /// Bytes of SDL the schema takes: a type's header and directives, a line per field (scalars,
  /// object fields, keys), and `Query`'s fields for it.
  var schemaTextBytes: Double {
    Double(types) * (150 + 20 * Double(fieldsPerType + fanOut + 3)) + Double(interfaces + unions) * 150
  }

  /// Bytes of the operations' text: with `narrowReads`, a list and a detail per keyed type;
  /// otherwise `operations` trees of `fanOut` object fields a level (lists not multiplying text),
  /// each object selecting its scalars.
  var operationTextBytes: Double {
    let scalars = Double(fieldsPerType)
    if let narrowReads {
      return Double(keyedTypeCount) * (300 + 14 * Double(fieldsPerType + narrowReads.fields + 4))
    }
    var nodes = 0.0
    var level = 1.0
    for _ in 0..<depth {
      nodes += level
      level *= Double(fanOut)
    }
    return Double(operations) * nodes * (300 + 37 * scalars)
  }

  /// What a run of these knobs holds, from the response estimate and the text sizes: the parsed
  /// schema and the generator's model cost about 21 times the SDL, the operations about 21 times
  /// their text, each response's plan about 1 KB; a kept response 2.6 times its JSON and 250 bytes
  /// an object; a record twice its object's JSON and 150 bytes.
  public func heldMemory(_ estimate: Estimate) -> HeldMemory {
    func parsed(bytes: Double, objects: Double) -> Double { 2.6 * bytes + 250 * objects }
    let kept =
      estimate.bytes <= Double(Self.keptResponseBytes)
      ? parsed(bytes: estimate.bytes, objects: estimate.objects)
      : 2 * parsed(bytes: estimate.bytesPerResponse, objects: estimate.objectsPerResponse)
    let bytesPerObject = estimate.bytesPerResponse / max(1, estimate.objectsPerResponse)
    return HeldMemory(
      schema: 21 * schemaTextBytes,
      operations: 21 * operationTextBytes + 1_000 * Double(responses),
      responses: kept,
      records: estimate.objects * (2 * bytesPerObject + 150))
  }
}

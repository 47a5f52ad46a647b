import Generator
import GraphQLLanguage
import NormalizedCache

/// Small workloads and the measurements the generator tests take of them.
enum GeneratorTestSupport {
  /// A workload small enough for a debug build, large enough to have every feature.
  static func smallConfig() -> GeneratorConfig {
    var config = GeneratorConfig()
    config.responses = 12
    config.operations = 6
    config.depth = 3
    config.fanOut = 2
    config.listLength = .init(1, 3)
    config.types = 10
    config.fieldsPerType = 4
    config.poolSize = 16
    config.interfaces = 2
    config.unions = 2
    config.stringLength = .init(4, 12)
    return config
  }

  static func make(seed: UInt64 = 1, _ change: (inout GeneratorConfig) -> Void = { _ in }) throws -> SyntheticWorkload {
    var config = smallConfig()
    change(&config)
    return try Generator.make(seed: seed, config: config)
  }

  /// What writing every response into one store gives.
  struct Written {
    /// Objects below the root data objects, summed over responses (the normalizer's count).
    var objects = 0
    /// Records in the store, the `QUERY_ROOT` record not counted.
    var records = 0
    var cache = InMemoryNormalizedCache()

    var objectRatio: Double { Double(objects) / Double(records) }
  }

  /// Parses the schema and every operation, then normalizes every response under `strategy` and
  /// merges it into one in-memory store. `inspect` sees each response's records before the merge.
  static func write(
    _ workload: SyntheticWorkload, strategy: KeyStrategy,
    inspect: (SyntheticResponse, NormalizedResponse, InMemoryNormalizedCache) throws -> Void = { _, _, _ in }
  ) throws -> Written {
    let schema = try Schema(parsing: workload.schemaSources)
    var documents: [String: ExecutableDocument] = [:]
    for operation in workload.operations {
      documents[operation.name] = try ExecutableDocument(parsing: [operation.source])
    }
    let normalizer = Normalizer(strategy: strategy)
    var written = Written()
    for response in workload.responses {
      let plan = try OperationPlan(
        document: documents[response.operationName]!, operationName: response.operationName, schema: schema,
        variables: response.variables)
      let normalized = try normalizer.normalize(
        try JSONParser.parse(response.bytes, file: response.fileName), plan: plan)
      try inspect(response, normalized, written.cache)
      written.objects += normalized.objectCount
      try written.cache.merge(records: normalized.records)
    }
    let keys = written.cache.allKeys()
    written.records = keys.count - (keys.contains(RootKey.query) ? 1 : 0)
    return written
  }

  /// Shapes measured in response JSON.
  struct Shape {
    /// Deepest object below the data object (a root field's object is at depth 1).
    var maxDepth = 0
    /// Lengths of lists of objects.
    var listLengths: [Int] = []
    /// Lengths in Unicode scalars of string values, except `__typename` and `id`.
    var stringLengths: [Int] = []
    /// Most members of one object that hold an object or a list of objects.
    var maxObjectMembers = 0

    var meanListLength: Double { Double(listLengths.reduce(0, +)) / Double(max(1, listLengths.count)) }
    var meanStringLength: Double { Double(stringLengths.reduce(0, +)) / Double(max(1, stringLengths.count)) }
  }

  static func shape(of workload: SyntheticWorkload) throws -> Shape {
    var shape = Shape()
    for response in workload.responses {
      guard case .object(let envelope) = try JSONParser.parse(response.bytes),
        case .object(let data)? = envelope["data"]
      else { continue }
      measure(data, depth: 0, into: &shape)
    }
    return shape
  }

  private static func measure(_ object: JSONObject, depth: Int, into shape: inout Shape) {
    shape.maxDepth = max(shape.maxDepth, depth)
    var objectMembers = 0
    for member in object {
      switch member.value {
      case .object(let child):
        objectMembers += 1
        measure(child, depth: depth + 1, into: &shape)
      case .array(let elements) where elements.contains(where: { $0.objectValue != nil }) || elements.isEmpty:
        objectMembers += elements.isEmpty ? 0 : 1
        if !elements.isEmpty { shape.listLengths.append(elements.count) }
        for case .object(let child) in elements { measure(child, depth: depth + 1, into: &shape) }
      case .string(let string) where member.key != "__typename" && member.key != "id":
        shape.stringLengths.append(string.unicodeScalars.count)
      default:
        break
      }
    }
    if depth > 0 { shape.maxObjectMembers = max(shape.maxObjectMembers, objectMembers) }
  }
}

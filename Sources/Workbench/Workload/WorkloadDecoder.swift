import Foundation
import GraphQLLanguage
import NormalizedCache

extension Workload {
  /// Reads and checks a workload file.
  /// - Throws: ``InputError`` when the file cannot be read; ``GraphQLError`` when it is not JSON;
  ///   ``WorkloadError`` naming the line and key path of an unknown key, a wrong type or an
  ///   out-of-range value.
  public static func load(_ path: String) throws -> Workload {
    let (value, locations) = try JSONParser.parseWithKeyLocations(try InputFile.bytes(path), file: path)
    guard case .object(let object) = value else {
      throw WorkloadError(file: path, location: nil, keyPath: "", message: "a workload must be a JSON object, not \(value.kindDescription)")
    }
    return try decode(ConfigObject(object, path: "", file: path, locations: locations))
  }

  private static func decode(_ root: ConfigObject) throws(WorkloadError) -> Workload {
    var root = root
    let file = root.file
    let directory = (file as NSString).deletingLastPathComponent
    func resolve(_ path: String) -> String {
      path.hasPrefix("/") || directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
    }

    let name = try root.requiredString("name")
    guard !name.isEmpty, !name.contains("/") else { throw root.error("name", "must be a non-empty name without \"/\"") }
    guard let seed = try root.int("seed", in: 0...Int.max) else { throw root.error("seed", "is required") }
    let description = try root.string("description")

    let sources = ["generator", "recorded", "storeRecords"].filter { root.has($0) }
    guard sources.count == 1 else {
      throw root.error(nil, sources.isEmpty ? "needs one of \"generator\", \"recorded\" or \"storeRecords\"" : "has both \"\(sources[0])\" and \"\(sources[1])\"; give one")
    }
    let source: Source
    switch sources[0] {
    case "generator":
      guard let generator = try root.object("generator") else { throw root.error("generator", "must be an object") }
      do {
        source = .generator(try GeneratorConfig(json: generator.object))
      } catch {
        let problem = error.problems[0]
        throw generator.error(problem.knob, problem.message)
      }
    case "recorded":
      guard var recorded = try root.object("recorded") else { throw root.error("recorded", "must be an object") }
      source = .recorded(try decodeRecorded(&recorded, resolve: resolve))
    default:
      guard var records = try root.object("storeRecords") else { throw root.error("storeRecords", "must be an object") }
      var config = StoreRecordsConfig()
      config.count = try records.int("count", in: 1...100_000_000) ?? config.count
      config.batch = try records.int("batch", in: 1...1_000_000) ?? config.batch
      config.pointLoads = try records.int("pointLoads", in: 0...100_000_000) ?? config.pointLoads
      try records.finish()
      source = .storeRecords(config)
    }

    var keys = KeyStrategyName.allCases
    if let array = try root.array("keys") {
      keys = []
      for (index, element) in array.enumerated() {
        guard case .string(let text) = element, let strategy = KeyStrategyName(rawValue: text) else {
          throw root.error("keys", "element \(index) must be one of \(KeyStrategyName.allCases.map(\.rawValue).joined(separator: ", ")), got \(FieldKey.render(json: element))")
        }
        if keys.contains(strategy) { throw root.error("keys", "lists \"\(text)\" twice") }
        keys.append(strategy)
      }
      if keys.isEmpty { throw root.error("keys", "must name at least one strategy") }
    }
    let resolver = try root.string("resolver") ?? "id"
    if (try? CacheKeyResolvers.builtIn.resolver(named: resolver)) == nil {
      throw root.error("resolver", "unknown key resolver \"\(resolver)\"; known resolvers: \(CacheKeyResolvers.builtIn.names.joined(separator: ", "))")
    }

    var stores: [StoreSpec] = [StoreSpec(kind: .memory), StoreSpec(kind: .sqlite)]
    if let array = try root.array("stores") {
      stores = []
      for (index, element) in array.enumerated() {
        guard case .object(let object) = element else { throw root.error("stores", "element \(index) must be an object") }
        var store = ConfigObject(object, path: "stores[\(index)]", file: file, locations: root.locations)
        let spec = try decodeStore(&store)
        if stores.contains(where: { $0.label == spec.label }) {
          throw store.error("label", "\"\(spec.label)\" names two stores; give each a label")
        }
        stores.append(spec)
      }
      if stores.isEmpty { throw root.error("stores", "must list at least one store") }
    }

    var sweep: Sweep?
    if var sweepObject = try root.object("sweep") {
      let keys = sweepObject.object.keys
      guard keys.count == 1, let key = keys.first else { throw root.error("sweep", "must have exactly one knob") }
      guard key.hasPrefix("generator."), let knob = GeneratorConfig.Knob(rawValue: String(key.dropFirst("generator.".count))) else {
        throw sweepObject.error(key, "is not a generator knob; write \"generator.<knob>\", knobs: \(GeneratorConfig.Knob.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      guard case .generator = source else { throw sweepObject.error(key, "a sweep needs a \"generator\" source") }
      guard let values = try sweepObject.array(key), !values.isEmpty else { throw sweepObject.error(key, "must list at least one value") }
      try sweepObject.finish()
      sweep = Sweep(knob: knob, values: values)
    }

    let repetitions = try root.int("repetitions", in: 1...1000) ?? 3
    let warmup = try root.int("warmup", in: 0...1000) ?? 1
    var read = ReadSettings()
    if var readObject = try root.object("read") {
      read.verify = try readObject.bool("verify") ?? read.verify
      read.pointLookups = try readObject.int("pointLookups", in: 0...100_000_000) ?? read.pointLookups
      read.fieldPolicyLookups = try readObject.int("fieldPolicyLookups", in: 0...100_000_000) ?? read.fieldPolicyLookups
      try readObject.finish()
    }
    try root.finish()
    let workload = Workload(
      file: file, name: name, seed: UInt64(seed), description: description, source: source, keys: keys,
      resolver: resolver, stores: stores, sweep: sweep, repetitions: repetitions, warmup: warmup, read: read)
    do {
      _ = try workload.variants
    } catch let error as WorkloadError {
      throw WorkloadError(file: file, location: root.locations[error.keyPath.replacingOccurrences(of: "sweep.", with: "sweep.")] ?? root.locations["sweep"], keyPath: error.keyPath, message: error.message)
    } catch {
      throw root.error("sweep", "\(error)")
    }
    return workload
  }

  private static func decodeStore(_ store: inout ConfigObject) throws(WorkloadError) -> StoreSpec {
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(WorkloadError) -> T? where T.RawValue == String {
      guard let text = try store.string(key) else { return nil }
      guard let value = T(rawValue: text) else {
        throw store.error(key, "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
      }
      return value
    }
    guard let kind = try choice("kind", StoreSpec.Kind.self) else { throw store.error("kind", "is required (memory or sqlite)") }
    let label = try store.string("label")
    var layout = StoreSpec.Layout.compact
    var journal = StoreSpec.Journal.wal
    var synchronous = StoreSpec.Synchronous.normal
    var inMemory = false
    if kind == .sqlite {
      layout = try choice("layout", StoreSpec.Layout.self) ?? layout
      journal = try choice("journal", StoreSpec.Journal.self) ?? journal
      synchronous = try choice("synchronous", StoreSpec.Synchronous.self) ?? synchronous
      if let location = try store.string("location") {
        guard location == "file" || location == ":memory:" else {
          throw store.error("location", "must be \"file\" or \":memory:\", got \"\(location)\"")
        }
        inMemory = location == ":memory:"
      }
    }
    try store.finish()
    if let label, label.isEmpty || label.contains(",") { throw store.error("label", "must be non-empty, without commas") }
    return StoreSpec(kind: kind, label: label, layout: layout, journal: journal, synchronous: synchronous, inMemoryDatabase: inMemory)
  }

  private static func decodeRecorded(_ recorded: inout ConfigObject, resolve: (String) -> String) throws(WorkloadError) -> RecordedSource {
    var schema: [String] = []
    for (index, element) in (try recorded.array("schema") ?? []).enumerated() {
      guard case .string(let path) = element else { throw recorded.error("schema", "element \(index) must be a file name") }
      schema.append(resolve(path))
    }
    guard let array = try recorded.array("operations"), !array.isEmpty else {
      throw recorded.error("operations", "must list at least one operation")
    }
    var operations: [RecordedOperation] = []
    for (index, element) in array.enumerated() {
      guard case .object(let object) = element else { throw recorded.error("operations", "element \(index) must be an object") }
      var operation = ConfigObject(object, path: "\(recorded.path).operations[\(index)]", file: recorded.file, locations: recorded.locations)
      var documents: [String] = []
      switch operation.value("document") {
      case .string(let path)?: documents = [resolve(path)]
      case .array(let paths)?:
        for path in paths {
          guard case .string(let text) = path else { throw operation.error("document", "must be a file name or a list of them") }
          documents.append(resolve(text))
        }
      default: throw operation.error("document", "is required: the operation's file, or a list of files")
      }
      if documents.isEmpty { throw operation.error("document", "must name at least one file") }
      let operationName = try operation.string("operationName")
      var variables: JSONObject = [:]
      if let object = try operation.object("variables") { variables = object.object }
      let response = resolve(try operation.requiredString("response"))
      try operation.finish()
      operations.append(RecordedOperation(documents: documents, operationName: operationName, variables: variables, response: response))
    }
    try recorded.finish()
    return RecordedSource(schema: schema, operations: operations)
  }
}

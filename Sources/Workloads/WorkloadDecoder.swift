import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import SQLiteCache
import Support

extension Workload {
  /// Reads and checks a workload file.
  ///
  /// ```swift
  /// var resolvers = CacheKeyResolvers.builtIn
  /// resolvers.register("sku") { type, object in object.string("sku").map { CacheKeyInfo(id: $0) } }
  /// let workload = try Workload.load("Workloads/shop.json", resolvers: resolvers)
  /// ```
  ///
  /// - Parameter resolvers: where the file's `resolver` is looked up; the built-ins by default.
  /// - Throws: ``InputError`` when the file cannot be read; ``GraphQLError`` when it is not JSON;
  ///   ``WorkloadError`` naming the line and key path of an unknown key, a wrong type or an
  ///   out-of-range value.
  public static func load(_ path: String, resolvers: CacheKeyResolvers) throws -> Workload {
    try load(path, registry: Registry(resolvers: resolvers))
  }

  /// Reads and checks a workload file, with the resolvers and field-policy providers its
  /// `resolver` and `fieldPolicyProvider` are looked up in.
  public static func load(_ path: String, registry: Registry = .builtIn) throws -> Workload {
    let (value, locations) = try JSONParser.parseWithKeyLocations(try InputFile.bytes(path), file: path)
    guard case .object(let object) = value else {
      throw WorkloadError(file: path, location: nil, keyPath: "", message: "a workload must be a JSON object, not \(value.kindDescription)")
    }
    var decoder = WorkloadDecoder(root: ConfigObject(object, path: "", file: path, locations: locations), registry: registry)
    return try decoder.decode()
  }
}

/// Reads a workload file's sections, each in a function of its own, with the key path and line of
/// any error.
struct WorkloadDecoder {
  var root: ConfigObject
  let registry: Registry
  var resolvers: CacheKeyResolvers { registry.resolvers }

  init(root: ConfigObject, registry: Registry) {
    self.root = root
    self.registry = registry
  }

  /// A path inside the file, resolved against the file's directory.
  func resolve(_ path: String) -> String {
    let directory = (root.file as NSString).deletingLastPathComponent
    return path.hasPrefix("/") || directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
  }

  mutating func decode() throws(WorkloadError) -> Workload {
    let name = try root.requiredString("name")
    guard !name.isEmpty, !name.contains("/"), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw root.error("name", "must be a non-empty name without \"/\" or control characters (it names results files)")
    }
    guard let seed = try root.int("seed", in: 0...Int.max) else { throw root.error("seed", "is required") }
    let description = try root.string("description")
    let source = try decodeSource()
    let (keys, resolver) = try decodeKeys()
    let provider = try decodeFieldPolicyProvider()
    let storeObjects = try root.array("stores")
    let stores = try decodeStores(storeObjects)
    if case .apolloTier3 = source { try checkTier3Stores(stores, listed: storeObjects != nil) }
    let (limits, layoutFloors) = try decodeLimits(source: source)
    if limits, let reserved = stores.first(where: { $0.label.hasPrefix("limit-") }) {
      let index = stores.firstIndex { $0.label == reserved.label }!
      throw root.error("stores[\(index)].label", "\"\(reserved.label)\": labels starting \"limit-\" name the limit stores of \"limits\"")
    }
    let traffic = try decodeTraffic(source: source)
    let read = try decodeRead()
    let sweep = try decodeSweep(source: source, storeObjects: storeObjects, read: read, traffic: traffic)
    // Apollo's Tier-2 scenarios count their iterations as their harness does, 50 after 5 warm-ups
    // (`BenchmarkHarness`'s defaults, docs/apollo.md), and so do the list scenarios, shaped like
    // them; every other source 3 after 1.
    let perIteration =
      switch source {
      case .apolloTier2, .apolloTier3, .lists: true
      case .generator, .recorded, .storeRecords: false
      }
    let repetitions = try root.int("repetitions", in: 1...1000) ?? (perIteration ? 50 : 3)
    let warmup = try root.int("warmup", in: 0...1000) ?? (perIteration ? 5 : 1)
    // A sweep of a read key checks the section at each point instead, every key of it there.
    if case .read? = sweep?.knob {
      try checkSweptReads(sweep, source: source, keys: keys)
    } else {
      try checkRead(read, source: source, keys: keys, sweep: sweep)
    }
    let concurrency = try decodeConcurrency(source: source)
    try root.finish()
    var workload = Workload(
      file: root.file, name: name, seed: UInt64(seed), description: description, source: source, keys: keys,
      resolver: resolver, fieldPolicyProvider: provider, stores: stores, limits: limits, sweep: sweep, repetitions: repetitions,
      warmup: warmup, read: read, traffic: traffic, concurrency: concurrency)
    workload.layoutFloors = layoutFloors
    workload.warnings = warnings(source: source, stores: stores, traffic: traffic, sweep: sweep)
    return workload
  }

  /// `"limits"`: `true` (the limit stores), `"layouts"` (each SQLite layout's floor, for Apollo's
  /// Tier-2 scenarios: docs/metrics.md#layout-floors), or `false`.
  private mutating func decodeLimits(source: Workload.Source) throws(WorkloadError) -> (limits: Bool, layoutFloors: Bool) {
    switch root.value("limits") {
    case nil, .null: return (false, false)
    case .bool(let flag): return (flag, false)
    case .string("layouts"):
      switch source {
      case .apolloTier2, .apolloTier3: break
      default:
        throw root.error(
          "limits",
          "\"layouts\" measures the SQLite layouts' floors on Apollo's Tier-2 or Tier-3 scenarios: it needs \"apolloTier2\" or \"apolloTier3\""
        )
      }
      return (true, true)
    case .string(let text):
      throw root.error("limits", "must be true, false or \"layouts\", not \"\(text)\"")
    case let value?:
      throw root.error("limits", "must be true, false or \"layouts\", not \(value.kindDescription)")
    }
  }

  /// Apollo's Tier-3 scenarios are SQL on a layout's file: every store a SQLite store with a
  /// layout's floor (``StoreMaker/floor``), listed.
  private func checkTier3Stores(_ stores: [StoreSpec], listed: Bool) throws(WorkloadError) {
    guard listed else { throw root.error("stores", "is required by \"apolloTier3\": its scenarios run on SQLite stores") }
    for (index, store) in stores.enumerated() {
      guard case .cache(let maker) = store.role, maker.floor != nil, maker.budget == nil else {
        throw root.error(
          "stores[\(index)]", "\"\(store.label)\" is not an unbounded SQLite store on file; Apollo's Tier-3 scenarios are SQL on one")
      }
    }
  }

  /// `generator`, `recorded`, `storeRecords`, `apolloTier2`, `apolloTier3` or `lists`: exactly one.
  mutating func decodeSource() throws(WorkloadError) -> Workload.Source {
    let sources = ["generator", "recorded", "storeRecords", "apolloTier2", "apolloTier3", "lists"].filter { root.has($0) }
    guard sources.count == 1 else {
      throw root.error(
        nil,
        sources.isEmpty
          ? "needs one of \"generator\", \"recorded\", \"storeRecords\", \"apolloTier2\", \"apolloTier3\" or \"lists\""
          : "has both \"\(sources[0])\" and \"\(sources[1])\"; give one")
    }
    switch sources[0] {
    case "generator":
      guard let generator = try root.object("generator") else { throw root.error("generator", "must be an object") }
      do {
        return .generator(try GeneratorConfig(json: generator.object))
      } catch {
        let problem = error.problems[0]
        throw generator.error(problem.knob, problem.message)
      }
    case "recorded":
      guard var recorded = try root.object("recorded") else { throw root.error("recorded", "must be an object") }
      return .recorded(try decodeRecorded(&recorded))
    case "apolloTier2":
      // Their record shapes and counts are theirs (docs/apollo.md); the one setting is the store
      // size they run at.
      guard var scenarios = try root.object("apolloTier2") else { throw root.error("apolloTier2", "must be an object") }
      return .apolloTier2(try decodeApolloTier2(&scenarios))
    case "apolloTier3":
      guard var scenarios = try root.object("apolloTier3") else { throw root.error("apolloTier3", "must be an object") }
      return .apolloTier3(try decodeApolloTier3(&scenarios))
    case "lists":
      guard var lists = try root.object("lists") else { throw root.error("lists", "must be an object") }
      return .lists(try decodeLists(&lists))
    default:
      guard var records = try root.object("storeRecords") else { throw root.error("storeRecords", "must be an object") }
      var config = StoreRecordsConfig()
      config.count = try records.int("count", in: 1...100_000_000) ?? config.count
      config.batch = try records.int("batch", in: 1...1_000_000) ?? config.batch
      config.pointLoads = try records.int("pointLoads", in: 0...100_000_000) ?? config.pointLoads
      try records.finish()
      return .storeRecords(config)
    }
  }

  /// `apolloTier2`: `sizes` (``decodeSizes(_:records:fields:)``), records 1 to
  /// ``ApolloTier2Config/largestRecords``, fields 1 to ``ApolloTier2Config/largestFields``.
  func decodeApolloTier2(_ scenarios: inout ConfigObject) throws(WorkloadError) -> ApolloTier2Config {
    var config = ApolloTier2Config()
    config.sizes =
      try decodeSizes(&scenarios, records: 1...ApolloTier2Config.largestRecords, fields: 1...ApolloTier2Config.largestFields) ?? []
    try scenarios.finish()
    return config
  }

  /// `apolloTier3`: `records` (one store of ten fields) or `sizes` (``decodeSizes(_:records:fields:)``,
  /// records in ``ApolloTier3Config/recordRange``, fields in ``ApolloTier3Config/fieldRange``),
  /// not both.
  func decodeApolloTier3(_ scenarios: inout ConfigObject) throws(WorkloadError) -> ApolloTier3Config {
    var config = ApolloTier3Config()
    if scenarios.has("records") && scenarios.has("sizes") {
      throw scenarios.error("sizes", "give \"records\" (one store) or \"sizes\" (several), not both")
    }
    config.records = try scenarios.int("records", in: ApolloTier3Config.recordRange) ?? config.records
    config.sizes = try decodeSizes(&scenarios, records: ApolloTier3Config.recordRange, fields: ApolloTier3Config.fieldRange) ?? []
    if let keep = try scenarios.string("keep") {
      guard !keep.isEmpty else { throw scenarios.error("keep", "must be a directory, not empty") }
      config.keep = resolve(keep)
    }
    try scenarios.finish()
    return config
  }

  /// `sizes`: pairs `[records, fields]` within `records` and `fields`, no record count twice, at
  /// least two (a growth needs two sizes); nil when the key is absent.
  func decodeSizes(
    _ object: inout ConfigObject, records recordRange: ClosedRange<Int>, fields fieldRange: ClosedRange<Int>
  ) throws(WorkloadError) -> [ApolloTier2Config.Size]? {
    guard let values = try object.array("sizes") else { return nil }
    var sizes: [ApolloTier2Config.Size] = []
    for (index, value) in values.enumerated() {
      guard case .array(let pair) = value, pair.count == 2, case .int(let records) = pair[0], case .int(let fields) = pair[1] else {
        throw object.error(
          "sizes", "element \(index) must be a pair [records, fields] of whole numbers, got \(FieldKey.render(json: value))")
      }
      guard recordRange.contains(records) else {
        throw object.error(
          "sizes", "element \(index): records must be from \(recordRange.lowerBound) to \(recordRange.upperBound), got \(records)")
      }
      guard fieldRange.contains(fields) else {
        throw object.error(
          "sizes", "element \(index): fields must be from \(fieldRange.lowerBound) to \(fieldRange.upperBound), got \(fields)")
      }
      guard !sizes.contains(where: { $0.records == records }) else {
        throw object.error("sizes", "element \(index): a size of \(records) records is there already")
      }
      sizes.append(ApolloTier2Config.Size(records: records, fields: fields))
    }
    guard sizes.count >= 2 else {
      throw object.error("sizes", "must name two sizes at least, to fit a growth over them; got \(sizes.count)")
    }
    return sizes
  }

  /// `lists`: the list sizes (each 1 to ``ListsConfig/largestSize``, none twice, at least one)
  /// and the position of the changed element (0 to 1).
  func decodeLists(_ lists: inout ConfigObject) throws(WorkloadError) -> ListsConfig {
    var config = ListsConfig()
    config.sizes =
      try lists.distinctInts(
        "sizes", in: 1...ListsConfig.largestSize, element: "a list size", repeated: { "\($0) is there already" },
        empty: "list size") ?? config.sizes
    config.position = try lists.double("position", in: 0...1) ?? config.position
    try lists.finish()
    return config
  }

  /// `fieldPolicyProvider`: a registered provider's name, for the programmatic strategy's reads.
  mutating func decodeFieldPolicyProvider() throws(WorkloadError) -> Workload.NamedProvider? {
    guard let name = try root.string("fieldPolicyProvider") else { return nil }
    guard let provider = registry.fieldPolicyProviders.provider(named: name) else {
      let known = registry.fieldPolicyProviders.names
      throw root.error(
        "fieldPolicyProvider",
        "unknown field-policy provider \"\(name)\"; "
          + (known.isEmpty
            ? "none is registered (a package using the workbench registers its own)" : "known providers: \(known.joined(separator: ", "))"))
    }
    return Workload.NamedProvider(name: name, provider: provider)
  }

  /// `keys` and `resolver`, resolved into strategies: `path`, `typePolicy`, `programmatic` (with
  /// `resolver`, default `id`), and `programmatic:<name>` for any other registered resolver, so
  /// that one run compares several.
  mutating func decodeKeys() throws(WorkloadError) -> ([NamedStrategy], String) {
    var names = ["path", "typePolicy", "programmatic"]
    if case .string(let text) = root.value("keys") {
      // Every built-in strategy, the programmatic one with `resolver` (docs/workloads.md#keys).
      guard text == "all" else { throw root.error("keys", "must be \"all\" or an array of strategies, not \"\(text)\"") }
    } else if let array = try root.array("keys") {
      names = []
      for (index, element) in array.enumerated() {
        guard case .string(let text) = element,
          text == "path" || text == "typePolicy" || text == "programmatic" || text.hasPrefix("programmatic:")
        else {
          throw root.error(
            "keys",
            "element \(index) must be path, typePolicy, programmatic or programmatic:<resolver>, got \(FieldKey.render(json: element))")
        }
        if names.contains(text) { throw root.error("keys", "lists \"\(text)\" twice") }
        names.append(text)
      }
      if names.isEmpty { throw root.error("keys", "must name at least one strategy") }
    }
    let resolverName = try root.string("resolver") ?? "id"
    func resolver(_ name: String, key: String) throws(WorkloadError) -> CacheKeyResolver {
      do {
        return try resolvers.resolver(named: name)
      } catch {
        throw root.error(key, "unknown key resolver \"\(name)\"; known resolvers: \(resolvers.names.joined(separator: ", "))")
      }
    }
    var strategies: [NamedStrategy] = []
    for name in names {
      switch name {
      case "path": strategies.append(NamedStrategy(name: name, strategy: .path))
      case "typePolicy": strategies.append(NamedStrategy(name: name, strategy: .typePolicy))
      case "programmatic":
        strategies.append(NamedStrategy(name: name, strategy: .programmatic(try resolver(resolverName, key: "resolver"))))
      default:
        let named = String(name.dropFirst("programmatic:".count))
        strategies.append(NamedStrategy(name: name, strategy: .programmatic(try resolver(named, key: "keys"))))
      }
    }
    return (strategies, resolverName)
  }

  /// `stores`: a memory and a SQLite store unless the file lists its own; each by its kind in the
  /// registry's ``StoreKinds``.
  func decodeStores(_ array: [JSONValue]?) throws(WorkloadError) -> [StoreSpec] {
    guard let array else {
      return try decodeStores([.object(["kind": .string("memory")]), .object(["kind": .string("sqlite")])])
    }
    var stores: [StoreSpec] = []
    for (index, element) in array.enumerated() {
      guard case .object(let object) = element else { throw root.error("stores", "element \(index) must be an object") }
      for object in Self.everyLayout(object) {
        let store = ConfigObject(object, path: "stores[\(index)]", file: root.file, locations: root.locations)
        let spec = try registry.stores.decode(store)
        if stores.contains(where: { $0.label == spec.label }) {
          throw store.error("label", "\"\(spec.label)\" names two stores; give each a label")
        }
        stores.append(spec)
      }
    }
    if stores.isEmpty { throw root.error("stores", "must list at least one store") }
    return stores
  }

  /// A SQLite store of `"layout": "all"` as one store a layout, in ``SQLiteNormalizedCache/Layout``'s
  /// order, each labelled `<label>-<layout>` (`sqlite-compact`, …; docs/workloads.md#sqlite), so
  /// that a workload covers every layout, including one added later, without listing them.
  static func everyLayout(_ object: JSONObject) -> [JSONObject] {
    guard object["kind"] == .string("sqlite"), object["layout"] == .string("all") else { return [object] }
    let label: String
    if case .string(let text) = object["label"] { label = text } else { label = "sqlite" }
    return SQLiteNormalizedCache.Layout.allCases.map { layout in
      var one = object
      one["layout"] = .string(layout.rawValue)
      one["label"] = .string("\(label)-\(layout.rawValue)")
      return one
    }
  }

  /// `traffic`: an app session's steps (docs/bounded-and-concurrent.md).
  mutating func decodeTraffic(source: Workload.Source) throws(WorkloadError) -> TrafficSettings? {
    guard var object = try root.object("traffic") else { return nil }
    if let reason = source.noOperations { throw root.error("traffic", reason) }
    return try Self.traffic(&object)
  }

  /// The keys of a `traffic` object, each by its ``TrafficSettings/Knob``, checked; the rest at
  /// their defaults. A sweep of a traffic key decodes each of its points through here.
  static func traffic(_ object: inout ConfigObject) throws(WorkloadError) -> TrafficSettings {
    typealias Key = TrafficSettings.Knob
    var traffic = TrafficSettings()
    traffic.steps = try object.int(Key.steps.rawValue, in: 1...100_000_000) ?? traffic.steps
    traffic.zipf = try object.double(Key.zipf.rawValue, in: 0...10) ?? traffic.zipf
    traffic.refetchShare = try object.double(Key.refetchShare.rawValue, in: 0...1) ?? traffic.refetchShare
    traffic.churn = try object.double(Key.churn.rawValue, in: 0...1) ?? traffic.churn
    traffic.watchers = try object.int(Key.watchers.rawValue, in: 0...100_000) ?? traffic.watchers
    traffic.gc = try object.bool(Key.gc.rawValue) ?? traffic.gc
    traffic.secondsPerStep = try object.int(Key.secondsPerStep.rawValue, in: TrafficSettings.secondsPerStepRange) ?? traffic.secondsPerStep
    traffic.startAt = try object.int(Key.startAt.rawValue, in: TrafficSettings.startAtRange) ?? traffic.startAt
    traffic.ttl = try object.choice(Key.ttl.rawValue, of: TTLEnforcement.self) ?? traffic.ttl
    traffic.refreshOnExpiry = try object.bool(Key.refreshOnExpiry.rawValue) ?? traffic.refreshOnExpiry
    try object.finish()
    return traffic
  }

  /// `concurrency`: reader threads, writer threads, the reads per run, and the hot run's operations.
  mutating func decodeConcurrency(source: Workload.Source) throws(WorkloadError) -> ConcurrencySettings? {
    guard var object = try root.object("concurrency") else { return nil }
    if let reason = source.noOperations { throw root.error("concurrency", reason) }
    var settings = ConcurrencySettings()
    settings.readers =
      try object.distinctInts(
        "readers", in: 1...256, element: "a number of reader threads", repeated: { "\($0) readers are there already" },
        empty: "reader count") ?? settings.readers
    settings.writers = try object.int("writers", in: 0...64) ?? settings.writers
    settings.operations = try object.int("operations", in: 1...100_000_000) ?? settings.operations
    settings.hotOperations = try object.int("hotOperations", in: 1...1_000_000) ?? settings.hotOperations
    settings.zipf = try object.double("zipf", in: 0...10) ?? settings.zipf
    settings.churn = try object.double("churn", in: 0...1) ?? settings.churn
    settings.writePauseMicroseconds = try object.int("writePauseMicroseconds", in: 0...10_000_000) ?? settings.writePauseMicroseconds
    try object.finish()
    return settings
  }

  /// `read`: verification and lookup counts.
  mutating func decodeRead() throws(WorkloadError) -> Workload.ReadSettings {
    guard var object = try root.object("read") else { return Workload.ReadSettings() }
    return try Self.read(&object)
  }

  /// The keys of a `read` object, each by its ``Workload/ReadSettings/Knob``, checked; the rest at
  /// their defaults. A sweep of a read key decodes each of its points through here.
  static func read(_ object: inout ConfigObject) throws(WorkloadError) -> Workload.ReadSettings {
    typealias Key = Workload.ReadSettings.Knob
    var read = Workload.ReadSettings()
    read.verify = try object.bool(Key.verify.rawValue) ?? read.verify
    read.pointLookups = try object.int(Key.pointLookups.rawValue, in: 0...100_000_000) ?? read.pointLookups
    read.fieldPolicyLookups = try object.int(Key.fieldPolicyLookups.rawValue, in: 0...100_000_000) ?? read.fieldPolicyLookups
    read.fragments = try object.int(Key.fragments.rawValue, in: 0...100_000_000) ?? read.fragments
    read.watchers = try object.int(Key.watchers.rawValue, in: 0...100_000) ?? read.watchers
    read.churn = try object.double(Key.churn.rawValue, in: 0...1) ?? read.churn
    read.projectedReads = try object.bool(Key.projectedReads.rawValue) ?? read.projectedReads
    try object.finish()
    return read
  }

  /// What `read.fragments`, `read.watchers` and `read.verify` need of the rest of the workload: a
  /// strategy that keys objects, as many operations read as watchers, and no check after all the
  /// writes when `generator.narrowReads` refetches its lists.
  func checkRead(_ read: Workload.ReadSettings, source: Workload.Source, keys: [NamedStrategy], sweep: Workload.Sweep?)
    throws(WorkloadError)
  {
    if read.verify, case .generator(let config) = source {
      var narrow = config.narrowReads != nil
      if let sweep, case .generator(.narrowReads) = sweep.knob {
        narrow = true  // a sweep's values are never null: every point has narrow reads
      }
      if narrow {
        throw root.error(
          "read.verify",
          "must be false with generator.narrowReads: each list reads page 1 again with new elements, so a later list changes what an earlier one reads back"
        )
      }
    }
    if let reason = source.noOperations {
      if read.fragments > 0 { throw root.error("read.fragments", reason) }
      if read.watchers > 0 { throw root.error("read.watchers", reason) }
      return
    }
    if read.fragments > 0 {
      let keying = keys.filter { $0.kind != .path }.map(\.name)
      if keying.isEmpty {
        throw root.error(
          "read.fragments", "reads records by their own keys, but \"keys\" has only path, which keys none: add typePolicy or programmatic")
      }
      if case .generator(let config) = source, config.keyedShare == 0, !keys.contains(where: { $0.kind == .programmatic }) {
        throw root.error("read.fragments", "reads records by their own keys, but generator.keyedShare is 0: no type is keyed")
      }
    }
    if read.watchers > 0 {
      var operations: Int
      switch source {
      case .generator(let config):
        operations = config.responses
        if let sweep, case .generator(.responses) = sweep.knob {
          operations = sweep.values.compactMap { if case .int(let count) = $0 { count } else { nil } }.min() ?? operations
        }
      case .recorded(let recorded):
        operations = recorded.operations.count
      case .storeRecords, .apolloTier2, .apolloTier3, .lists:
        operations = 0
      }
      if read.watchers > operations {
        throw root.error(
          "read.watchers", "is \(read.watchers), more than the \(operations) operation\(operations == 1 ? "" : "s") the workload reads")
      }
    }
  }

  /// `recorded`: schema files and operations, paths resolved against the workload's directory.
  func decodeRecorded(_ recorded: inout ConfigObject) throws(WorkloadError) -> RecordedSource {
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
      var operation = ConfigObject(
        object, path: "\(recorded.path).operations[\(index)]", file: recorded.file, locations: recorded.locations)
      operations.append(try decodeOperation(&operation))
    }
    try recorded.finish()
    return RecordedSource(schema: schema, operations: operations)
  }

  /// One recorded operation: `{"document": ..., "operationName": ..., "variables": {...}, "response": ...}`.
  func decodeOperation(_ operation: inout ConfigObject) throws(WorkloadError) -> RecordedOperation {
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
    let variables = try operation.object("variables")?.object ?? [:]
    let response = resolve(try operation.requiredString("response"))
    try operation.finish()
    return RecordedOperation(documents: documents, operationName: operationName, variables: variables, response: response)
  }
}

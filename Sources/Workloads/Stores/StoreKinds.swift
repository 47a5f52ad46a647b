import GraphQLLanguage
import NormalizedCache
import Results
import SQLiteCache

/// The store kinds a workload file can name (`"kind": "memory"`), each with the decoder of its
/// options: the built-in `memory`, `sqlite` and `chain`, and any a library user registers.
///
/// ```swift
/// var registry = Registry.builtIn
/// registry.stores.register("dictionary") { environment in DictionaryStore() }   // no options
/// registry.stores.register("lru-dictionary") { options in                       // with options
///   let capacity = try options.int("capacity", in: 1...1_000_000) ?? 10_000
///   return StoreMaker(description: "lru-dictionary \(capacity)") { _ in LRUDictionaryStore(capacity: capacity) }
/// }
/// ```
/// A registered store gets every phase and metric a built-in one gets, and those of the
/// capabilities it declares (``NormalizedCache/capabilities``: its budget, its keys, its
/// footprint, ...).
public struct StoreKinds: Sendable {
  /// Reads one store's options (everything but `kind` and `label`) and says how to make it.
  public typealias Decode = @Sendable (inout StoreOptions) throws(WorkloadError) -> StoreMaker

  private var table: [String: Decode] = [:]

  public init() {}

  /// Adds a kind whose stores read their options with `decode`; a name registered before is replaced.
  public mutating func register(_ name: String, _ decode: @escaping Decode) {
    table[name] = decode
  }

  /// Adds a kind with no options of its own.
  public mutating func register(_ name: String, make: @escaping @Sendable (StoreEnvironment) throws -> any NormalizedCache) {
    let maker = StoreMaker(description: name, make: make)
    table[name] = { (_: inout StoreOptions) -> StoreMaker in maker }
  }

  public var names: [String] { table.keys.sorted() }

  /// `memory`, `sqlite` and `chain`.
  public static let builtIn: StoreKinds = {
    var kinds = StoreKinds()
    kinds.register("memory", decodeMemory)
    kinds.register("sqlite", decodeSQLite)
    kinds.register("chain", decodeChain)
    return kinds
  }()

  /// Decodes one store object: its `kind`, its `label` (default: the kind), and its options.
  func decode(_ object: ConfigObject) throws(WorkloadError) -> StoreSpec {
    var object = object
    guard let kind = try object.string("kind") else {
      throw object.error("kind", "is required (\(names.joined(separator: ", ")))")
    }
    guard let decode = table[kind] else {
      var message = "unknown store kind \"\(kind)\"; known kinds: \(names.joined(separator: ", "))"
      if let suggestion = Suggestion.nearest(to: kind, in: names) { message += "; did you mean \"\(suggestion)\"?" }
      if !names.contains(where: { !Self.builtIn.names.contains($0) }) {
        message += " (a package using the workbench registers its own)"
      }
      throw object.error("kind", message)
    }
    let label = try object.string("label")
    if let label, label.isEmpty || label.contains(",") { throw object.error("label", "must be non-empty, without commas") }
    // Any store keeps the dates its records carry: the workbench dates the writes (docs/ttl.md).
    let dates = try object.bool("dates") ?? false
    var options = StoreOptions(object, kinds: self)
    var maker = try decode(&options)
    maker.dates = dates
    try options.finish()
    var spec = StoreSpec(label: label ?? kind, kind: kind, keyPath: object.path, role: .cache(maker))
    spec.budgetKeyPath = maker.budgetKeyPath ?? "\(object.path).maxSizeBytes"
    return spec
  }

  // MARK: The built-in kinds

  /// `{"kind": "memory"}`, with a budget if given.
  static let decodeMemory: Decode = { options throws(WorkloadError) in
    let budget = try options.budget(recordOverhead: InMemoryNormalizedCache.recordOverheadBytes)
    let makeUnbounded: @Sendable (StoreEnvironment) throws -> InMemoryNormalizedCache = { _ in InMemoryNormalizedCache() }
    var unbounded = StoreMaker(description: "memory", identity: .init(kind: "memory"), limit: .dictionary) { try makeUnbounded($0) }
    unbounded.makeMemory = makeUnbounded
    guard budget != nil else { return unbounded }
    let makeBounded: @Sendable (StoreEnvironment) throws -> InMemoryNormalizedCache = { [unbounded] environment in
      InMemoryNormalizedCache(budget: try environment.budget(budget, unbounded: unbounded))
    }
    var bounded = StoreMaker(description: "memory", limit: .dictionary, budget: budget) { try makeBounded($0) }
    bounded.makeMemory = makeBounded
    return bounded
  }

  /// `{"kind": "sqlite", "layout": "apollo", "journal": "wal", "synchronous": "normal",
  /// "location": "file", "autoVacuum": "incremental", "mmapBytes": 0, "pageCacheKiB": 2000,
  /// "mutex": "fullmutex"}`: SQLite's options straight into its ``SQLiteNormalizedCache/Options``,
  /// with a budget if given. `"openedAs": "apollo"` stands for the last three as Apollo iOS opens
  /// its file (``SQLiteNormalizedCache/Options/openedAsApollo``).
  static let decodeSQLite: Decode = { options throws(WorkloadError) in
    var sqlite = SQLiteNormalizedCache.Options()
    sqlite.layout = try options.choice("layout", of: SQLiteNormalizedCache.Layout.self) ?? sqlite.layout
    sqlite.journalMode = try options.choice("journal", of: SQLiteNormalizedCache.JournalMode.self) ?? sqlite.journalMode
    sqlite.synchronous = try options.choice("synchronous", of: SQLiteNormalizedCache.Synchronous.self) ?? sqlite.synchronous
    sqlite.autoVacuum = try options.choice("autoVacuum", of: SQLiteNormalizedCache.AutoVacuum.self) ?? sqlite.autoVacuum
    try decodeOpening(&options, into: &sqlite)
    let layout = sqlite.layout.rawValue
    let location = try options.string("location") ?? "file"
    guard location == "file" || location == ":memory:" else {
      throw options.error("location", "must be \"file\" or \":memory:\", got \"\(location)\"")
    }
    let inMemory = location == ":memory:"
    let budget = try options.budget(
      recordOverhead: sqlite.layout.recordOverheadBytes + SQLiteNormalizedCache.usageRowOverheadBytes)
    let opening = "mmap \(sqlite.memoryMapBytes) cache \(sqlite.pageCacheKibibytes) KiB \(sqlite.mutex)"
    let description =
      "sqlite \(layout) \(sqlite.journalMode) \(sqlite.synchronous) \(sqlite.autoVacuum)\(inMemory ? " :memory:" : "")"
      + (sqlite.memoryMapBytes == defaultOpening.memoryMapBytes && sqlite.pageCacheKibibytes == defaultOpening.pageCacheKibibytes
        && sqlite.mutex == defaultOpening.mutex ? "" : " (\(opening))")
    let unboundedOptions = sqlite
    let identity = StoreMaker.Identity(
      kind: "sqlite", settings: [layout, "\(sqlite.journalMode)", "\(sqlite.synchronous)", "\(sqlite.autoVacuum)", location, opening])
    var unbounded = StoreMaker(description: description, identity: identity, limit: .sqlite) { environment in
      try SQLiteNormalizedCache(path: inMemory ? ":memory:" : environment.newFilePath(), options: unboundedOptions)
    }
    // On file only: a floor of a database in memory would be measured on a file.
    let floor =
      inMemory
      ? nil
      : LayoutFloor(
        layout: sqlite.layout, journal: sqlite.journalMode, synchronous: sqlite.synchronous, memoryMapBytes: sqlite.memoryMapBytes,
        pageCacheKibibytes: sqlite.pageCacheKibibytes, mutex: sqlite.mutex)
    unbounded.floor = floor
    guard let budget else { return unbounded }
    // A share is of what a bounded store counts once everything is written (its usage rows
    // included), so the store that sizes it keeps a budget that never evicts.
    var sizingOptions = unboundedOptions
    sizingOptions.budget = CacheBudget(maxSizeBytes: nil, evictTo: budget.evictTo, policy: budget.policy)
    let sizing = StoreMaker(
      description: description + " with usage", identity: .init(kind: "sqlite", settings: identity.settings + ["usage rows"]),
      limit: .sqlite
    ) { [sizingOptions] environment in
      try SQLiteNormalizedCache(path: inMemory ? ":memory:" : environment.newFilePath(), options: sizingOptions)
    }
    var bounded = StoreMaker(description: description, limit: .sqlite, budget: budget) { environment in
      var bounded = unboundedOptions
      bounded.budget = try environment.budget(budget, unbounded: sizing)
      return try SQLiteNormalizedCache(path: inMemory ? ":memory:" : environment.newFilePath(), options: bounded)
    }
    bounded.floor = floor
    return bounded
  }

  private static let defaultOpening = SQLiteNormalizedCache.Options()

  /// How the file is opened: `"openedAs": "apollo"` (Apollo iOS's way: no memory map, SQLite's
  /// default page cache, `FULLMUTEX`) or `"openedAs": "cachebench"` (ours, the default), then any
  /// of `mmapBytes`, `pageCacheKiB` and `mutex` on top (docs/workloads.md#stores).
  private static func decodeOpening(
    _ options: inout StoreOptions, into sqlite: inout SQLiteNormalizedCache.Options
  ) throws(WorkloadError) {
    switch try options.string("openedAs") {
    case nil, "cachebench": break
    case "apollo": sqlite = sqlite.openedAsApollo
    case let other?: throw options.error("openedAs", "must be one of cachebench, apollo, got \"\(other)\"")
    }
    sqlite.memoryMapBytes = try options.int("mmapBytes", in: 0...(1 << 40)) ?? sqlite.memoryMapBytes
    sqlite.pageCacheKibibytes = try options.int("pageCacheKiB", in: 1...(1 << 30)) ?? sqlite.pageCacheKibibytes
    sqlite.mutex = try options.choice("mutex", of: SQLiteNormalizedCache.MutexMode.self) ?? sqlite.mutex
  }

  /// `{"kind": "chain", "front": {"kind": "memory", "maxSizeBytes": "10%"}, "back": {"kind": "sqlite"}}`:
  /// a memory store in front of another store (see ``ChainedNormalizedCache``).
  static let decodeChain: Decode = { options throws(WorkloadError) in
    guard let front = try options.store("front") else { throw options.error("front", "is required: the memory store in front") }
    guard front.kind == "memory", case .cache(let frontMaker) = front.role, let makeFront = frontMaker.makeMemory else {
      throw options.error("front.kind", "must be memory: the chain's front is an in-memory store, got \"\(front.kind)\"")
    }
    guard let back = try options.store("back") else { throw options.error("back", "is required: the store behind the front") }
    guard back.kind != "chain", case .cache(let backMaker) = back.role else {
      throw options.error("back.kind", "must not be another chain")
    }
    for (part, spec) in [("front", front), ("back", back)] where spec.dates {
      throw options.error("\(part).dates", "goes on the chain itself: a write goes to both parts, dated alike")
    }
    // The front serves its copies without asking the back, so it must not outlive the back's expiry.
    if let backExpiry = backMaker.budget?.expireAfterSteps, (frontMaker.budget?.expireAfterSteps ?? .max) > backExpiry {
      throw options.error(
        "front",
        "needs an expireAfterSteps of at most the back's \(backExpiry): the front serves its copies without asking the back, which would hand out records the back has expired"
      )
    }
    var chain = StoreMaker(
      description: "chain(\(frontMaker.description), \(backMaker.description))", budget: frontMaker.budget ?? backMaker.budget
    ) { environment in
      chained(front: try makeFront(environment), back: try backMaker(environment))
    }
    // A budget error may come from either part.
    chain.budgetKeyPath = options.keyPath
    return chain
  }

  /// A chain in front of a store whose type is known only now: the chain of that type, whose
  /// capabilities follow from the back's.
  private static func chained(front: InMemoryNormalizedCache, back: any NormalizedCache) -> any NormalizedCache {
    func chain<Back: NormalizedCache>(_ back: Back) -> any NormalizedCache { ChainedNormalizedCache(front: front, back: back) }
    return chain(back)
  }
}

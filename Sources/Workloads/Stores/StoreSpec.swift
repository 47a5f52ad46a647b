import NormalizedCache
import SQLiteCache

/// A store a workload measures: `{"kind": "sqlite", "journal": "wal", "label": "sqlite-wal"}`,
/// decoded into how to make a fresh one.
public struct StoreSpec: Sendable {
  /// The name of the store in results; default: the kind.
  public let label: String
  /// `memory`, `sqlite`, `chain`, a registered kind, or a limit store's label (`limit-dictionary`,
  /// `limit-sqlite`, `limit-rows-delete-full`).
  public let kind: String
  /// Where the workload file describes it (`stores[1]`), for messages; empty for the limit stores.
  public let keyPath: String
  /// Where a budget error of the store points (`stores[1].maxSizeBytes`; a chain's: the chain).
  public var budgetKeyPath: String
  public let role: Role

  public enum Role: Sendable {
    /// A cache, made by its kind's maker.
    case cache(StoreMaker)
    /// A limit store (docs/metrics.md, `"limits": true`), which the workbench makes itself.
    case limit(LimitStore)
  }

  public init(label: String, kind: String, keyPath: String, role: Role) {
    self.label = label
    self.kind = kind
    self.keyPath = keyPath
    self.role = role
    budgetKeyPath = keyPath
  }

  /// The limit store of the given kind.
  public init(limit: LimitStore) {
    self.init(label: limit.label, kind: limit.label, keyPath: "", role: .limit(limit))
  }

  /// A limit store (not a cache).
  public var isLimit: Bool {
    if case .limit = role { return true }
    return false
  }

  /// The limit store this one is measured against with `"limits": true`, if any.
  public var limit: LimitStore? {
    if case .cache(let maker) = role { return maker.limit }
    return nil
  }

  /// Whether the workbench writes into the store with dates (`"dates": true`, docs/ttl.md): every
  /// normalize of a write dated by the run's clock. Never for the limit stores.
  public var dates: Bool {
    if case .cache(let maker) = role { return maker.dates }
    return false
  }

  /// The same store measured against its layout's floor, where it has one (`"limits": "layouts"`).
  var measuredAgainstFloor: StoreSpec {
    guard case .cache(var maker) = role, let floor = maker.floor else { return self }
    maker.limit = .floor(floor)
    var spec = StoreSpec(label: label, kind: kind, keyPath: keyPath, role: .cache(maker))
    spec.budgetKeyPath = budgetKeyPath
    return spec
  }

  /// Whether the store keeps to a budget (`maxSizeBytes` or `expireAfterSteps`).
  public var isBounded: Bool {
    if case .cache(let maker) = role { return maker.budget != nil }
    return false
  }
}

/// The stores every store is measured against with `"limits"` (docs/metrics.md): the cost of
/// storing the same records' bytes at all.
public enum LimitStore: Sendable, Hashable {
  /// Each record's encoded bytes in a plain `[CacheKey: [UInt8]]`: the in-memory store's limit.
  case dictionary
  /// A plain SQLite table through one prepared statement: the SQLite store's limit (`"limits": true`).
  case sqlite
  /// The SQL a SQLite layout needs, with nothing around it, in its journal and synchronous mode:
  /// its floor (`"limits": "layouts"`, docs/metrics.md#layout-floors).
  case floor(LayoutFloor)

  /// The limit stores of `"limits": true`.
  public static let plain: [LimitStore] = [.dictionary, .sqlite]

  /// Its store label: `limit-dictionary`, `limit-sqlite`, `limit-compact-delete-full`.
  public var label: String {
    switch self {
    case .dictionary: "limit-dictionary"
    case .sqlite: "limit-sqlite"
    case .floor(let floor): floor.label
    }
  }
}

/// How to make a fresh store of one spec, and what the workbench needs to know of it.
///
/// ```swift
/// StoreMaker(description: "dictionary") { environment in DictionaryStore() }
/// ```
public struct StoreMaker: Sendable {
  /// The store it makes, for messages (`memory`, `sqlite compact wal normal`).
  public let description: String
  /// What makes two makers make the same store: the key under which the size of an unbounded one
  /// is remembered, for budgets given as a share. A maker that gives none is known by its
  /// description.
  public let identity: Identity
  /// The limit store this store is measured against, if any.
  public var limit: LimitStore?
  /// The floor of its SQLite layout, which it is measured against instead with `"limits": "layouts"`.
  public var floor: LayoutFloor?
  /// The budget as the file gives it, if the store keeps to one.
  public var budget: BudgetOption?
  /// Where a budget error of the store points, when not at its own `maxSizeBytes` (a chain's: the
  /// chain, since either part may throw it).
  public var budgetKeyPath: String?
  /// Whether the workbench dates what it writes into the store (the store option `dates`, which
  /// ``StoreKinds`` reads for every kind): a store keeps the dates its records carry.
  public var dates = false
  let make: @Sendable (StoreEnvironment) throws -> any NormalizedCache
  /// A memory store's maker, typed: what makes a chain's front (``StoreKinds``), which must be an
  /// ``InMemoryNormalizedCache``. Nil for every other kind.
  var makeMemory: (@Sendable (StoreEnvironment) throws -> InMemoryNormalizedCache)?

  /// Two makers of one identity make stores that hold the same bytes for the same records: a kind
  /// and the settings that change what it stores (`sqlite` with `compact`, `wal`, ...).
  public struct Identity: Sendable, Hashable {
    public let kind: String
    public let settings: [String]

    public init(kind: String, settings: [String] = []) {
      self.kind = kind
      self.settings = settings
    }
  }

  public init(
    description: String, identity: Identity? = nil, limit: LimitStore? = nil, budget: BudgetOption? = nil,
    make: @escaping @Sendable (StoreEnvironment) throws -> any NormalizedCache
  ) {
    self.description = description
    self.identity = identity ?? Identity(kind: description)
    self.limit = limit
    self.budget = budget
    self.make = make
  }

  public func callAsFunction(_ environment: StoreEnvironment) throws -> any NormalizedCache {
    try make(environment)
  }
}

/// What a store being made gets from the run: file paths, and the sizes budgets given as a share
/// are resolved against.
public struct StoreEnvironment {
  private let filePath: () -> String
  private let unboundedBytes: (StoreMaker) throws -> Int

  /// - Parameters:
  ///   - filePath: a fresh path for a database file, each of one fixed length (SQLite keeps the
  ///     path on its heap, and `sqlite_heap_bytes` must not depend on it).
  ///   - unboundedBytes: the accounted bytes of the store this maker makes, without a budget,
  ///     once the configuration's responses are all written into it.
  public init(filePath: @escaping () -> String, unboundedBytes: @escaping (StoreMaker) throws -> Int) {
    self.filePath = filePath
    self.unboundedBytes = unboundedBytes
  }

  /// A fresh file path in the run's temporary directory.
  public func newFilePath() -> String { filePath() }

  /// The budget a store keeps to, its size resolved: a share of what `unbounded` makes holds
  /// after the configuration's writes. Nil for no budget.
  /// - Throws: what measuring the unbounded store throws.
  public func budget(_ option: BudgetOption?, unbounded: StoreMaker) throws -> CacheBudget? {
    guard let option else { return nil }
    var size: Int?
    switch option.size {
    case .bytes(let bytes)?: size = bytes
    case .share(let share)?: size = max(1, Int((Double(try unboundedBytes(unbounded)) * share).rounded()))
    case nil: size = nil
    }
    return CacheBudget(
      maxSizeBytes: size, evictTo: option.evictTo, policy: option.policy, expireAfterSteps: option.expireAfterSteps,
      reportsEvictedKeys: true)
  }
}

/// A store's budget as a workload file gives it (store options `maxSizeBytes`, `evictTo`,
/// `policy`, `expireAfterSteps`; docs/bounded-and-concurrent.md).
public struct BudgetOption: Sendable, Hashable {
  public enum Size: Sendable, Hashable, CustomStringConvertible {
    /// `"maxSizeBytes": 5000000`.
    case bytes(Int)
    /// `"maxSizeBytes": "25%"`: a share of what the same store holds, unbounded, once every
    /// response of the configuration is written.
    case share(Double)

    public var description: String {
      switch self {
      case .bytes(let bytes): String(bytes)
      case .share(let share): Self.percent(share)
      }
    }

    /// `25%`, `2.5%`.
    static func percent(_ share: Double) -> String {
      let value = share * 100
      return (value == value.rounded() ? String(Int(value)) : String(value)) + "%"
    }
  }

  /// Nil: no size limit (expiry only).
  public var size: Size?
  public var evictTo: Double
  public var policy: EvictionPolicy
  public var expireAfterSteps: Int?

  public init(size: Size?, evictTo: Double = 0.9, policy: EvictionPolicy = .lru, expireAfterSteps: Int? = nil) {
    self.size = size
    self.evictTo = evictTo
    self.policy = policy
    self.expireAfterSteps = expireAfterSteps
  }
}

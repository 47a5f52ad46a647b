import GraphQLLanguage
import NormalizedCache

/// One store's object in a workload file, read key by key: what a registered store kind's decoder
/// gets. Errors name the file, the line and the key path (`stores[2].capacity`); a key nobody
/// reads is an error too, with a suggestion for a near miss.
///
/// ```swift
/// registry.stores.register("dictionary") { options in
///   let capacity = try options.int("capacity", in: 1...1_000_000) ?? 1_024
///   return StoreMaker(description: "dictionary \(capacity)") { _ in DictionaryStore(capacity: capacity) }
/// }
/// ```
public struct StoreOptions {
  var config: ConfigObject
  let kinds: StoreKinds

  init(_ config: ConfigObject, kinds: StoreKinds) {
    self.config = config
    self.kinds = kinds
  }

  /// The store's place in the file: `stores[1]`, `stores[0].front`.
  public var keyPath: String { config.path }

  /// The store's object as the file gives it.
  public var json: JSONObject { config.object }

  /// An error about one of the store's keys (nil: the store itself), with its line.
  public func error(_ key: String?, _ message: String) -> WorkloadError { config.error(key, message) }

  public mutating func string(_ key: String) throws(WorkloadError) -> String? { try config.string(key) }
  public mutating func bool(_ key: String) throws(WorkloadError) -> Bool? { try config.bool(key) }
  public mutating func int(_ key: String, in range: ClosedRange<Int>) throws(WorkloadError) -> Int? {
    try config.int(key, in: range)
  }
  public mutating func double(_ key: String, in range: ClosedRange<Double>) throws(WorkloadError) -> Double? {
    try config.double(key, in: range)
  }
  /// A string that must be one of `T`'s raw values.
  public mutating func choice<T: RawRepresentable & CaseIterable>(_ key: String, of type: T.Type) throws(WorkloadError) -> T?
  where T.RawValue == String {
    try config.choice(key, of: type)
  }

  /// The budget keys every bounded store reads alike: `maxSizeBytes` (bytes, or a share of the
  /// unbounded store's size such as `"25%"`), `evictTo` (0 < x ≤ 1, default 0.9), `policy`
  /// (`lru`, `fifo`, `lfu`; default `lru`) and `expireAfterSteps`. Nil when none is given.
  /// - Parameter recordOverhead: what the store counts per record beyond its key and fields: a
  ///   byte budget must exceed it, or not even one record fits.
  public mutating func budget(recordOverhead: Int) throws(WorkloadError) -> BudgetOption? {
    let size = try budgetSize(recordOverhead: recordOverhead)
    let evictTo = try config.double("evictTo", in: 0...1)
    if evictTo == 0 { throw error("evictTo", "must be more than 0 (the fraction of the budget an eviction leaves)") }
    let policy = try config.choice("policy", of: EvictionPolicy.self)
    let expire = try config.int("expireAfterSteps", in: 1...Int(Int32.max))
    guard size != nil || expire != nil else {
      if evictTo != nil { throw error("evictTo", "needs \"maxSizeBytes\": an eviction brings a store down to a share of its budget") }
      if policy != nil { throw error("policy", "needs \"maxSizeBytes\" (or \"expireAfterSteps\"): an unbounded store evicts nothing") }
      return nil
    }
    return BudgetOption(size: size, evictTo: evictTo ?? 0.9, policy: policy ?? .lru, expireAfterSteps: expire)
  }

  private mutating func budgetSize(recordOverhead: Int) throws(WorkloadError) -> BudgetOption.Size? {
    guard let value = config.value("maxSizeBytes"), value != .null else { return nil }
    switch value {
    case .string(let text) where text.hasSuffix("%"):
      guard let percent = Double(text.dropLast()), percent > 0, percent <= 1_000 else {
        throw error("maxSizeBytes", "a share must be a percentage above 0 and at most 1000%, got \"\(text)\"")
      }
      return .share(percent / 100)
    case .int, .double:
      guard let bytes = try config.int("maxSizeBytes", in: 1...Int.max) else { return nil }
      guard bytes > recordOverhead else {
        throw error(
          "maxSizeBytes",
          "\(bytes) bytes is smaller than one record: this store counts \(recordOverhead) bytes per record beyond its key and fields")
      }
      return .bytes(bytes)
    default:
      throw error("maxSizeBytes", "must be a number of bytes or a share such as \"25%\", not \(value.kindDescription)")
    }
  }

  /// A store nested under `key` (a chain's `front` and `back`), decoded with the same kinds.
  public mutating func store(_ key: String) throws(WorkloadError) -> StoreSpec? {
    guard let nested = try config.object(key) else { return nil }
    return try kinds.decode(nested)
  }

  /// Rejects the keys nobody read.
  func finish() throws(WorkloadError) { try config.finish() }
}

import Generator
import GraphQLLanguage
import NormalizedCache
import SQLiteCache
import Support

/// One workload file (docs/workloads.md): where the responses come from, which stores and key
/// strategies to measure, and how.
public struct Workload: Sendable {
  /// The file it was read from; paths inside are relative to its directory.
  public let file: String
  public let name: String
  public let seed: UInt64
  public let description: String?
  public var source: Source
  /// The key strategies to measure, resolved: a programmatic one carries its resolver.
  public let keys: [NamedStrategy]
  /// The name of the resolver that plain `programmatic` uses, as the file gives it (default `id`).
  public let resolver: String
  /// The programmatic field-policy provider the programmatic strategies read with, if the file
  /// names one (`"fieldPolicyProvider"`).
  public let fieldPolicyProvider: NamedProvider?

  /// A field-policy provider and the name it is registered under.
  public struct NamedProvider: Sendable {
    public let name: String
    public let provider: any FieldPolicyProvider
  }
  public let stores: [StoreSpec]
  /// Measure the limit stores too (`"limits": true`, docs/metrics.md): `limit-dictionary` and
  /// `limit-sqlite`.
  public var limits: Bool
  /// With ``limits``, measure each SQLite store against its layout's floor instead of
  /// `limit-sqlite` (`"limits": "layouts"`, docs/metrics.md#layout-floors).
  public var layoutFloors = false
  public internal(set) var sweep: Sweep?
  public var repetitions: Int
  public var warmup: Int
  public var read: ReadSettings
  /// An app session over the workload's operations (`"traffic"`, docs/bounded-and-concurrent.md),
  /// or nil.
  public var traffic: TrafficSettings?
  /// Reads on several threads while writes land (`"concurrency"`), or nil.
  public var concurrency: ConcurrencySettings? = nil
  /// Settings the file gives that change nothing in this workload, each as
  /// `file:line:column: key: why` (`validate` and `run` print them as warnings): the traffic's
  /// clock without a store with dates.
  public var warnings: [String] = []

  public enum Source: Sendable {
    /// Synthetic responses from the generator.
    case generator(GeneratorConfig)
    /// Real recorded responses.
    case recorded(RecordedSource)
    /// The store-level benchmark: records built directly, no normalizer.
    case storeRecords(StoreRecordsConfig)
    /// Apollo iOS's five Tier-2 cache scenarios (docs/apollo.md): their records, built directly.
    case apolloTier2(ApolloTier2Config)
    /// Apollo iOS's Tier-3 "SQLite raw operations" (docs/apollo.md#tier-3): a store of many
    /// records built once per layout, six scenarios on it.
    case apolloTier3(ApolloTier3Config)
    /// Records with list fields of N elements read, written and changed at one element
    /// (docs/workloads.md#lists): built directly, no normalizer.
    case lists(ListsConfig)

    public var kindName: String {
      switch self {
      case .generator: "generator"
      case .recorded: "recorded"
      case .storeRecords: "storeRecords"
      case .apolloTier2: "apolloTier2"
      case .apolloTier3: "apolloTier3"
      case .lists: "lists"
      }
    }

    /// Why a source has no operations to read (traffic, concurrency, fragments and watchers need
    /// them), for messages: `the store-level benchmark reads no operations`; nil for the sources
    /// that have some.
    public var noOperations: String? {
      switch self {
      case .generator, .recorded: nil
      case .storeRecords: "the store-level benchmark reads no operations"
      case .apolloTier2: "Apollo's Tier-2 scenarios read no operations"
      case .apolloTier3: "Apollo's Tier-3 scenarios read no operations"
      case .lists: "the list scenarios read no operations"
      }
    }
  }

  /// One knob and the values to run it at: `{"generator.duplication": [0, 0.5, 0.9]}`, every
  /// bounded store's budget: `{"stores.maxSizeBytes": ["10%", "25%", "50%"]}`, or any key of the
  /// `read` or `traffic` section: `{"read.projectedReads": [false, true]}`.
  public struct Sweep: Sendable {
    public enum Knob: Sendable {
      case generator(GeneratorConfig.Knob)
      /// `maxSizeBytes` of every store that has one (a chain's parts included).
      case budget
      /// A key of the `read` section: `read.projectedReads`, `read.watchers`, …
      case read(ReadSettings.Knob)
      /// A key of the `traffic` section: `traffic.secondsPerStep`, `traffic.ttl`, `traffic.steps`, …
      case traffic(TrafficSettings.Knob)
    }

    /// What one point of a sweep sets, decoded and checked once, when the file is read.
    public enum Setting: Sendable {
      /// A budget sweep's stores at the point.
      case stores([StoreSpec])
      /// The read section at the point.
      case read(ReadSettings)
      /// The traffic section at the point.
      case traffic(TrafficSettings)
      /// The generator's settings at the point.
      case generator(GeneratorConfig)
    }

    /// One point: its value as the file gives it (its variant's name) and what it sets.
    public struct Point: Sendable {
      public let value: JSONValue
      public var setting: Setting
    }

    public let knob: Knob
    /// The points, in the file's order.
    public internal(set) var points: [Point]

    /// The values as the file gives them.
    public var values: [JSONValue] { points.map(\.value) }

    init(knob: Knob, points: [Point]) {
      self.knob = knob
      self.points = points
    }

    /// The knob as the file and the variant names spell it: `duplication`, `maxSizeBytes`,
    /// `projectedReads`.
    public var knobName: String {
      switch knob {
      case .generator(let knob): knob.rawValue
      case .budget: "maxSizeBytes"
      case .read(let knob): knob.rawValue
      case .traffic(let knob): knob.rawValue
      }
    }

    /// The variant name of one point: `duplication=0.5`, `maxSizeBytes=25%`, `projectedReads=true`.
    public func variant(_ value: JSONValue) -> String {
      if case .string(let text) = value { return "\(knobName)=\(text)" }
      return "\(knobName)=\(FieldKey.render(json: value))"
    }
  }

  public struct ReadSettings: Sendable {
    /// Check every read-back against the response it came from (a mismatch is an error).
    public var verify = true
    /// Lookups of one random existing key each.
    public var pointLookups = 1000
    /// Reads of one entity through a root field's field policy.
    public var fieldPolicyLookups = 200
    /// Random records with keys of their own, each read back by its key through the selection set
    /// it was written under (phase `fragment`).
    public var fragments = 0
    /// Operation reads kept as watchers (phase `watch`): after the responses are written, each is
    /// written again as a refetch with a share of its values changed, and the watchers it touches
    /// read again.
    public var watchers = 0
    /// The share of scalar values a refetch changes.
    public var churn = 0.02
    /// Whether reads tell the store the fields each record must hold (projected loads,
    /// docs/stores.md#projected-loads); false: whole records.
    public var projectedReads = false

    public init() {}

    /// The keys of the `read` section, by the names the file and a sweep use
    /// (`"sweep": {"read.projectedReads": [false, true]}`). The decoder reads each by this name,
    /// and nothing else.
    public enum Knob: String, Sendable, CaseIterable {
      case verify, pointLookups, fieldPolicyLookups, fragments, watchers, churn, projectedReads
    }
  }

  /// One variant of a run: a sweep point's source, stores, read and traffic settings, or the
  /// workload's own.
  public struct Variant: Sendable {
    /// `duplication=0.5`, `maxSizeBytes=25%`, `projectedReads=true`, or empty.
    public let name: String
    public let source: Source
    /// The stores measured, limit stores last (with `"limits": true`).
    public let stores: [StoreSpec]
    /// The read section at this point (a sweep of a read key sets it).
    public let read: ReadSettings
    /// The traffic section at this point (a sweep of a traffic key sets it), or nil.
    public let traffic: TrafficSettings?

    public init(name: String, source: Source, stores: [StoreSpec], read: ReadSettings, traffic: TrafficSettings?) {
      self.name = name
      self.source = source
      self.stores = stores
      self.read = read
      self.traffic = traffic
    }
  }

  /// The stores a run measures: the file's, then the limit stores when ``limits`` is on.
  public var measuredStores: [StoreSpec] { withLimits(stores) }

  private func withLimits(_ stores: [StoreSpec]) -> [StoreSpec] {
    guard limits else { return stores }
    guard layoutFloors else { return stores + LimitStore.plain.map(StoreSpec.init(limit:)) }
    // Each SQLite store against its layout's floor; the floors, one per layout and mode, in the
    // order of the stores that need them.
    let measured = stores.map { $0.measuredAgainstFloor }
    var limits: [LimitStore] = []
    for limit in measured.compactMap(\.limit) where !limits.contains(limit) { limits.append(limit) }
    return measured + limits.map(StoreSpec.init(limit:))
  }

  /// The variants to run: one per point of the sweep (its settings decoded when the file was
  /// read), or one unnamed.
  public var variants: [Variant] {
    guard let sweep else { return [Variant(name: "", source: source, stores: measuredStores, read: read, traffic: traffic)] }
    return sweep.points.map { point in
      let name = sweep.variant(point.value)
      return switch point.setting {
      case .stores(let stores): Variant(name: name, source: source, stores: withLimits(stores), read: read, traffic: traffic)
      case .read(let settings): Variant(name: name, source: source, stores: measuredStores, read: settings, traffic: traffic)
      case .traffic(let settings): Variant(name: name, source: source, stores: measuredStores, read: read, traffic: settings)
      case .generator(let config): Variant(name: name, source: .generator(config), stores: measuredStores, read: read, traffic: traffic)
      }
    }
  }
}

/// An app session over the workload's operations (docs/bounded-and-concurrent.md, `traffic`): a
/// deterministic sequence of steps drawn from the seed. Each step is a cache-first read of an
/// operation chosen by popularity (Zipf over the operations, in an order drawn from the seed),
/// written as a network fetch would when the read misses; or, with probability ``refetchShare``, a
/// refetch of one (a write of it again, with a share ``churn`` of its values changed by the
/// server).
public struct TrafficSettings: Sendable {
  public var steps = 20_000
  /// The skew of popularity: 0 reads every operation alike; 1 reads the k-th most popular about
  /// 1/k as often as the first.
  public var zipf = 1.0
  /// The share of steps that refetch an operation instead of reading it.
  public var refetchShare = 0.1
  /// The share of scalar values a refetch finds changed on the server; as many lists lose their
  /// last element (an item removed), which leaves records no response reaches any more.
  public var churn = 0.02
  /// The most popular operations whose last read is watched: evictions of the records they read
  /// are counted (`watched_evictions`).
  public var watchers = 10
  /// Run garbage collection (phase `gc`) on the store the traffic leaves.
  public var gc = true
  /// The session's clock for stores with dates (docs/ttl.md#the-workbenchs-clock): step `s` is at
  /// `startAt + s × secondsPerStep` seconds, every write of the step dated then and every read
  /// made then.
  public var secondsPerStep = 60
  /// The date, in seconds since 1970, of the session's first step and of every write of the write
  /// and read phases into a store with dates: by default 2026-01-01T00:00:00Z, so that dates take
  /// the bytes a real epoch date takes.
  public var startAt = TrafficSettings.defaultStartAt
  /// How a read of a store with dates treats an expired field: strict makes it a miss (fetched
  /// again), permissive serves it stale and revalidates it (docs/ttl.md#traffic-with-dates).
  public var ttl = TTLEnforcement.strict
  /// Stores with dates: each watched operation also sets a timer to the earliest expiry among the
  /// fields its last read found fresh, and then reads cache-first and strict, fetching when that
  /// misses (Apollo iOS 3.0's `automaticallyRefreshOnExpiry`, ADR 0004). Without it a watcher
  /// only reads again, permissively, when a write changes a key it depends on
  /// (docs/ttl.md#watchers-under-ttl).
  public var refreshOnExpiry = false

  public static let defaultStartAt = 1_767_225_600
  /// `secondsPerStep`'s range: at least a second, at most GraphQL's largest Int.
  public static let secondsPerStepRange = 1...Int(Int32.max)
  /// `startAt`'s range: from 1970 to the end of year 9999.
  public static let startAtRange = 0...253_402_300_799

  public init() {}

  /// The keys of the `traffic` section, by the names the file and a sweep use
  /// (`"sweep": {"traffic.secondsPerStep": [...]}`). The decoder reads each by this name, and
  /// nothing else.
  public enum Knob: String, Sendable, CaseIterable {
    case steps, zipf, refetchShare, churn, watchers, gc, secondsPerStep, startAt, ttl, refreshOnExpiry

    /// The session's clock: it changes nothing without a store with dates (docs/workloads.md#traffic).
    public var isClock: Bool {
      switch self {
      case .secondsPerStep, .startAt, .ttl, .refreshOnExpiry: true
      case .steps, .zipf, .refetchShare, .churn, .watchers, .gc: false
      }
    }
  }

  /// The most response bytes a session reads and writes without `--allow-large`: 20 GB, some
  /// minutes per store and key strategy in a release build (`calendar.json`'s 634 kB response
  /// at 20,000 steps is 12.7 GB).
  public static let largeBytes = 2e10

  /// Why a session over responses of `bytesPerResponse` on average is too large to run without
  /// `--allow-large`; nil when it is not.
  public func tooLarge(bytesPerResponse: Double) -> String? {
    let bytes = Double(steps) * bytesPerResponse
    guard bytes > Self.largeBytes else { return nil }
    return "\(steps) steps over responses of about \(GeneratorConfig.Estimate.bytes(bytesPerResponse)) would read and write about "
      + "\(GeneratorConfig.Estimate.bytes(bytes)) per store and key strategy; the limit is \(GeneratorConfig.Estimate.bytes(Self.largeBytes))"
  }
}

/// Reads on several threads while writes land (`"concurrency"`): for each reader count, the
/// readers read operations chosen by popularity (Zipf, as the traffic's) until they have read
/// ``operations`` between them, once alone and once while ``writers`` threads merge the
/// operations' responses again, refetched with a share ``churn`` of their values changed; then
/// once more alone on hot records: every reader the same operations, in the same order, drawn
/// among the ``hotOperations`` most popular.
public struct ConcurrencySettings: Sendable {
  /// The reader thread counts to run, each a variant of its own (`readers=2`).
  public var readers = [1, 2, 4]
  /// Writer threads in the runs with writers.
  public var writers = 1
  /// Reads per run, shared evenly among its readers.
  public var operations = 20_000
  /// The hot run's operations: its readers all read the same draws among this many of the most
  /// popular (1: the most popular, over and over), so that they walk the same records at once.
  public var hotOperations = 1
  /// The skew of popularity, as the traffic's.
  public var zipf = 1.0
  /// The share of values a refetch finds changed.
  public var churn = 0.02
  /// Microseconds a writer waits after each merge: 0 (the default) merges back to back; an app
  /// merging a response every few milliseconds sets a few thousand.
  public var writePauseMicroseconds = 0

  public init() {}
}

/// The store-level benchmark: `count` records of the ten-field `Item` shape, merged and loaded
/// without the normalizer.
public struct StoreRecordsConfig: Sendable {
  public var count = 100_000
  /// Keys per load in the batched-load phase.
  public var batch = 100
  public var pointLoads = 10_000

  public init() {}

  /// Key and encoded fields of one `Item` record, on average (254 at 400,000 records; a test
  /// holds it to the records the benchmark makes). The run holds them about 3.6 times over at its
  /// peak (the record set, the store, the keys): 365 MB of RSS for 400,000 records in memory.
  public static let payloadBytesPerRecord = 254

  /// The largest run without `--allow-large`: as the generator's limits, 20 million records or
  /// 2 GB of them in all.
  public static let largeLimits = (records: 20_000_000, bytes: 2e9)

  /// Why the records are too many to run without `--allow-large`; nil when they are not.
  public var tooLarge: String? {
    let bytes = Double(count) * Double(Self.payloadBytesPerRecord)
    guard count > Self.largeLimits.records || bytes > Self.largeLimits.bytes else { return nil }
    return "\(count) records would take about \(GeneratorConfig.Estimate.bytes(bytes)) (about "
      + "\(GeneratorConfig.Estimate.bytes(bytes * 3.6)) of memory at the run's peak); the limit is "
      + "\(GeneratorConfig.Estimate.count(Double(Self.largeLimits.records))) records or \(GeneratorConfig.Estimate.bytes(Self.largeLimits.bytes))"
  }
}

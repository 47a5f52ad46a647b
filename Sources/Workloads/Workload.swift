import Results
import GraphQLLanguage
import NormalizedCache
import SQLiteCache
import Generator

/// One workload file (SPEC §4): where the responses come from, which stores and key strategies to
/// measure, and how.
public struct Workload: Sendable {
  /// The file it was read from; paths inside are relative to its directory.
  public let file: String
  public let name: String
  public let seed: UInt64
  public let description: String?
  public var source: Source
  /// The key strategies to measure, resolved: the programmatic one carries its resolver.
  public let keys: [KeyStrategy]
  /// The name of the programmatic strategy's resolver, as the file gives it (for messages).
  public let resolver: String
  /// The programmatic field-policy provider the programmatic strategy reads with, if the file
  /// names one (`"fieldPolicyProvider"`).
  public let fieldPolicyProvider: NamedProvider?

  /// A field-policy provider and the name it is registered under.
  public struct NamedProvider: Sendable {
    public let name: String
    public let provider: any FieldPolicyProvider
  }
  public let stores: [StoreSpec]
  /// Measure the limit stores too (`"limits": true`, SPEC §5): `limit-dictionary` and `limit-sqlite`.
  public var limits: Bool
  public let sweep: Sweep?
  public var repetitions: Int
  public var warmup: Int
  public var read: ReadSettings

  public enum Source: Sendable {
    /// Synthetic responses from the generator.
    case generator(GeneratorConfig)
    /// Real recorded responses.
    case recorded(RecordedSource)
    /// The store-level benchmark: records built directly, no normalizer.
    case storeRecords(StoreRecordsConfig)

    public var kindName: String {
      switch self {
      case .generator: "generator"
      case .recorded: "recorded"
      case .storeRecords: "storeRecords"
      }
    }
  }

  /// One knob and the values to run it at: `{"generator.duplication": [0, 0.5, 0.9]}`.
  public struct Sweep: Sendable {
    public let knob: GeneratorConfig.Knob
    public let values: [JSONValue]

    /// The variant name of one point: `duplication=0.5`.
    public func variant(_ value: JSONValue) -> String {
      "\(knob.rawValue)=\(FieldKey.render(json: value))"
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
  }

  /// The stores a run measures: the file's, then the limit stores when ``limits`` is on.
  public var measuredStores: [StoreSpec] {
    stores + (limits ? [StoreSpec(kind: .limitDictionary), StoreSpec(kind: .limitSQLite)] : [])
  }

  /// The variants to run: one per sweep value, or one unnamed.
  public var variants: [(name: String, source: Source)] {
    get throws {
      guard let sweep else { return [("", source)] }
      guard case .generator(let base) = source else { return [("", source)] }
      var result: [(String, Source)] = []
      for value in sweep.values {
        var config = base
        do {
          try config.set(sweep.knob, to: value)
          try config.validate()
        } catch {
          throw WorkloadError(
            file: file, location: nil, keyPath: "sweep.generator.\(sweep.knob.rawValue)",
            message: error.problems.map(\.message).joined(separator: "; "))
        }
        result.append((sweep.variant(value), .generator(config)))
      }
      return result
    }
  }
}

/// A store to measure: `{"kind": "sqlite", "journal": "wal", "layout": "compact", "label": "sqlite-wal"}`.
public struct StoreSpec: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// ``InMemoryNormalizedCache``.
    case memory
    /// ``SQLiteNormalizedCache`` with these options, on a file in a temporary directory or, with
    /// `inMemoryDatabase`, on `:memory:`.
    case sqlite(SQLiteNormalizedCache.Options, inMemoryDatabase: Bool)
    /// The in-memory limit: each record's encoded bytes in a plain `[CacheKey: [UInt8]]`.
    case limitDictionary
    /// The SQLite limit: ``PlainRecordTable``, WAL and synchronous NORMAL, on a file.
    case limitSQLite

    /// `memory` or `sqlite`, as workload files spell it; the limit stores' labels.
    public var name: String {
      switch self {
      case .memory: "memory"
      case .sqlite: "sqlite"
      case .limitDictionary: "limit-dictionary"
      case .limitSQLite: "limit-sqlite"
      }
    }

    /// A limit store (SPEC §5, `"limits": true`), not a cache.
    public var isLimit: Bool {
      switch self {
      case .limitDictionary, .limitSQLite: true
      case .memory, .sqlite: false
      }
    }

    /// The limit a store of this kind is measured against: the dictionary for memory, the plain
    /// table for SQLite; nil for the limits themselves.
    public var limit: Kind? {
      switch self {
      case .memory: .limitDictionary
      case .sqlite: .limitSQLite
      case .limitDictionary, .limitSQLite: nil
      }
    }
  }

  public let kind: Kind
  /// The name of the store in results; default: the kind's name.
  public let label: String

  public init(kind: Kind, label: String? = nil) {
    self.kind = kind
    self.label = label ?? kind.name
  }
}

/// The store-level benchmark: `count` records of the ten-field `Item` shape, merged and loaded
/// without the normalizer.
public struct StoreRecordsConfig: Sendable {
  public var count = 100_000
  /// Keys per load in the batched-load phase.
  public var batch = 100
  public var pointLoads = 10_000
}

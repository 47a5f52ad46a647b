import GraphQLLanguage
import NormalizedCache

/// One workload file (SPEC §4): where the responses come from, which stores and key strategies to
/// measure, and how.
public struct Workload: Sendable {
  /// The file it was read from; paths inside are relative to its directory.
  public let file: String
  public let name: String
  public let seed: UInt64
  public let description: String?
  public var source: Source
  public let keys: [KeyStrategyName]
  /// The programmatic strategy's resolver.
  public let resolver: String
  public let stores: [StoreSpec]
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
  public enum Kind: String, Sendable, CaseIterable { case memory, sqlite }
  public enum Layout: String, Sendable, CaseIterable { case compact, apollo }
  public enum Journal: String, Sendable, CaseIterable { case delete, truncate, persist, memory, wal, off }
  public enum Synchronous: String, Sendable, CaseIterable { case off, normal, full, extra }

  public let kind: Kind
  /// The name of the store in results; default: the kind.
  public let label: String
  public let layout: Layout
  public let journal: Journal
  public let synchronous: Synchronous
  /// SQLite: a database file in a temporary directory (default), or `:memory:`.
  public let inMemoryDatabase: Bool

  public init(
    kind: Kind, label: String? = nil, layout: Layout = .compact, journal: Journal = .wal,
    synchronous: Synchronous = .normal, inMemoryDatabase: Bool = false
  ) {
    self.kind = kind
    self.label = label ?? kind.rawValue
    self.layout = layout
    self.journal = journal
    self.synchronous = synchronous
    self.inMemoryDatabase = inMemoryDatabase
  }
}

/// Real responses, each with its operation: `{"schema": [...], "operations": [{"document": ..., "response": ...}]}`.
public struct RecordedSource: Sendable {
  /// Schema and extension files, resolved against the workload's directory.
  public let schema: [String]
  public let operations: [RecordedOperation]
}

public struct RecordedOperation: Sendable {
  /// The operation's file and any fragment files, resolved.
  public let documents: [String]
  public let operationName: String?
  public let variables: JSONObject
  /// The response file, resolved.
  public let response: String
}

/// The store-level benchmark: `count` records of the ten-field `Item` shape, merged and loaded
/// without the normalizer.
public struct StoreRecordsConfig: Sendable {
  public var count = 100_000
  /// Keys per load in the batched-load phase.
  public var batch = 100
  public var pointLoads = 10_000
}

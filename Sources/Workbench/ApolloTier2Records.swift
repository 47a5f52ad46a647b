import NormalizedCache

/// The records of Apollo iOS's Tier-2 cache scenarios (docs/apollo.md), built as
/// `Tests/ApolloPerformanceTests/CacheBenchmarks/BenchmarkWorkloads.swift` and
/// `Tier2CacheBenchmarks.swift` build them on apollo-ios-dev's branch `cache-rewrite/phase-1-plan`
/// (commit 840d6ce8c9d2, as of PR #980): the same keys, field names, values and counts.
///
/// ```swift
/// let records = ApolloTier2Records.synthetic(count: 100)   // record_0 … record_99
/// records.records[0]   // field_0: "value_0_0", field_1: 1, field_2: "value_0_2", …, field_9: 9
/// ```
///
/// Their `Record` holds its fields in a dictionary, in no order; these append them `field_0` to
/// `field_9`.
enum ApolloTier2Records {
  /// `BenchmarkWorkloads.fieldsPerRecord`.
  static let fieldsPerRecord = 10
  /// The pattern delete's records: `User_0` … `User_9999`, then `Other_0` … `Other_999`.
  static let userRecords = 10_000
  static let otherRecords = 1_000
  static let patternDeleteRecords = userRecords + otherRecords
  /// What the pattern delete removes: every key that contains it (`removeRecords(matching:)`).
  static let pattern = "User_"

  /// `BenchmarkWorkloads.syntheticRecords(count:)`: `record_0` … `record_<count-1>`, whose even
  /// fields hold the string `value_<i>_<f>` and odd fields the Int `i * 100 + f`, "so the cache
  /// exercises both scalar paths".
  static func synthetic(count: Int) -> RecordSet {
    RecordSet(
      records: (0..<count).map { index in
        var builder = Record.Builder(key: "record_\(index)", capacity: 160)
        for field in 0..<fieldsPerRecord {
          builder.append("field_\(field)", field % 2 == 0 ? .string("value_\(index)_\(field)") : .int(index * 100 + field))
        }
        return builder.build()
      })
  }

  /// `BenchmarkWorkloads.syntheticKeys(count:)`: the keys of ``synthetic(count:)``. Theirs is a
  /// `Set`, whose order is the hash's; these are in order.
  static func syntheticKeys(count: Int) -> [CacheKey] {
    (0..<count).map { "record_\($0)" }
  }

  /// The single-record merge's record of iteration `iteration` (warm-ups counted, from 0):
  /// `merge_iter_<iteration>`, every field the string `value_<iteration>_<f>`; a distinct key per
  /// iteration, "so each merge is a write, not a no-op upsert".
  static func mergeRecord(iteration: Int) -> RecordSet {
    var builder = Record.Builder(key: mergeKey(iteration: iteration), capacity: 160)
    for field in 0..<fieldsPerRecord {
      builder.append("field_\(field)", .string("value_\(iteration)_\(field)"))
    }
    return RecordSet(records: [builder.build()])
  }

  /// The key of ``mergeRecord(iteration:)``.
  static func mergeKey(iteration: Int) -> CacheKey { "merge_iter_\(iteration)" }

  /// The pattern delete's seed: ``userRecords`` records `User_<i>` of ten string fields
  /// `value_<i>_<f>`, then ``otherRecords`` records `Other_<i>` of the one field
  /// `field_0: "value_<i>"`, which the pattern leaves alone.
  static func patternDeleteSeed() -> RecordSet {
    var records: [Record] = []
    records.reserveCapacity(patternDeleteRecords)
    for index in 0..<userRecords {
      var builder = Record.Builder(key: "User_\(index)", capacity: 160)
      for field in 0..<fieldsPerRecord {
        builder.append("field_\(field)", .string("value_\(index)_\(field)"))
      }
      records.append(builder.build())
    }
    for index in 0..<otherRecords {
      var builder = Record.Builder(key: "Other_\(index)", capacity: 24)
      builder.append("field_0", .string("value_\(index)"))
      records.append(builder.build())
    }
    return RecordSet(records: records)
  }
  // MARK: Background records, for the scenarios at a store size (issue 54's growth)

  /// Background record `index` of `fields` fields: `Background_<index>`, whose even fields hold
  /// the string `value_<index>_<f>` and odd fields the Int `index * 100 + f`, as
  /// ``synthetic(count:)``'s. No key contains ``pattern``: the pattern delete leaves them alone.
  static func background(index: Int, fields: Int) -> Record {
    var builder = Record.Builder(key: backgroundKey(index), capacity: 16 * fields)
    for field in 0..<fields {
      builder.append("field_\(field)", field % 2 == 0 ? .string("value_\(index)_\(field)") : .int(index * 100 + field))
    }
    return builder.build()
  }

  static func backgroundKey(_ index: Int) -> CacheKey { "Background_\(index)" }

  /// The background records a merge writes at once: batches keep memory flat at 500,000 records.
  static let backgroundBatch = 10_000

  /// Merges `records` background records of `fields` fields into `store`, in batches.
  static func mergeBackground(records: Int, fields: Int, into store: any NormalizedCache) throws {
    for start in stride(from: 0, to: records, by: backgroundBatch) {
      let batch = (start..<min(records, start + backgroundBatch)).map { background(index: $0, fields: fields) }
      try store.merge(records: RecordSet(records: batch))
    }
  }

  // MARK: The projected loads of the perf plan's 2026-07-13 amendment

  /// The projected loads' fields: `field_0`, `field_1` and `field_2`, "3 of 10 fields" of
  /// ``synthetic(count:)``'s records, as `tier2rows` of `../shared/tools/apollo3-harness` asks them.
  static let projectedFields = ["field_0", "field_1", "field_2"]

  /// The projected list load's records: ``listRecords`` records `List:<i>` of a `title` and an
  /// `items` list of ``listLength`` references `Item:0` … `Item:99`; the load reads `List:0`. As
  /// `tier2rows` builds ADR 0006's list of 100 references (a store of 10,000 / 100 of them).
  static let listRecords = 100
  static let listLength = 100
  static let listKey: CacheKey = "List:0"
  static let listFields = ["title", "items"]
  static func lists() -> RecordSet {
    let items = RecordValue.list((0..<listLength).map { .reference("Item:\($0)") })
    return RecordSet(
      records: (0..<listRecords).map { index in
        var builder = Record.Builder(key: "List:\(index)", capacity: 1_200)
        builder.append("title", .string("a list"))
        builder.append("items", items)
        return builder.build()
      })
  }

  /// The inline-fragment over-fetch's record: `Node:0`, whose `__typename` is `Case0`, the first of
  /// ``typeCases`` type cases of ``fieldsPerTypeCase`` fields each, holding the fields of its own
  /// case (`case0_field_0` … `case0_field_7`, strings and Ints alternating) and no other: a record
  /// is written from a response of its runtime type.
  static let typeCases = 5
  static let fieldsPerTypeCase = 8
  static let overfetchKey: CacheKey = "Node:0"
  static func overfetchRecord() -> RecordSet {
    var builder = Record.Builder(key: overfetchKey, capacity: 200)
    builder.append("__typename", .string("Case0"))
    for field in 0..<fieldsPerTypeCase {
      builder.append("case0_field_\(field)", field % 2 == 0 ? .string("value_case0_\(field)") : .int(field))
    }
    return RecordSet(records: [builder.build()])
  }

  /// What the over-fetch asks of `Node:0`: `__typename` and the 40 fields of every type case, as
  /// a projection with `includeAllInlineFragments` semantics asks them before the runtime type is known.
  static var overfetchFields: [String] {
    ["__typename"] + (0..<typeCases).flatMap(typeCaseFields)
  }

  /// What the over-fetch's matched-type-case-only baseline asks of `Node:0`: the 8 fields of its
  /// own type case alone (`case0_field_0` … `case0_field_7`), as a projection asks them once the
  /// runtime type is known; the perf plan's gate compares the over-fetch with it (``OverfetchGate``).
  static var matchedTypeCaseFields: [String] { typeCaseFields(0) }

  /// The fields of type case `typeCase`: `case<t>_field_0` … `case<t>_field_7`.
  static func typeCaseFields(_ typeCase: Int) -> [String] {
    (0..<fieldsPerTypeCase).map { "case\(typeCase)_field_\($0)" }
  }
}

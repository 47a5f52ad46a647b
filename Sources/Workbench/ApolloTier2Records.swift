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
}

/// A store of records (SPEC §3), as Apollo iOS's `NormalizedCache`: the in-memory store and the
/// SQLite store both implement it, and the workbench measures them through it.
///
/// Implementations are safe to share between threads.
public protocol NormalizedCache: AnyObject, Sendable {
  /// The records of these keys that the store has; keys it does not have are absent from the result.
  /// - Throws: the store's error (SQLite's, for the SQLite store).
  func loadRecords(forKeys keys: [CacheKey]) throws -> [CacheKey: Record]

  /// The records of these keys in the order of the keys, nil where the store has none: the
  /// reader's path, which spares building a dictionary.
  func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?]

  /// Merges records field by field (SPEC §2), all at once.
  /// - Returns: the changed keys `recordKey.fieldKey`.
  @discardableResult
  func merge(records: RecordSet) throws -> ChangedKeys

  /// Removes one record; a key the store does not have is not an error.
  func removeRecord(for key: CacheKey) throws

  /// Removes every record whose key contains `pattern`, ignoring ASCII case (SQLite's `LIKE`
  /// rules). `%` and `_` are ordinary characters.
  func removeRecords(matching pattern: String) throws

  /// Removes every record.
  func clear() throws

  /// Removes these records (garbage collection's sweep); keys the store does not have are not an
  /// error. By default one ``removeRecord(for:)`` each; the SQLite store removes them in one transaction.
  func removeRecords(forKeys keys: [CacheKey]) throws
}

extension NormalizedCache {
  public func loadRecordsInOrder(forKeys keys: [CacheKey]) throws -> [Record?] {
    let records = try loadRecords(forKeys: keys)
    return keys.map { records[$0] }
  }

  public func removeRecords(forKeys keys: [CacheKey]) throws {
    for key in keys { try removeRecord(for: key) }
  }
}

/// A store that can list its keys, which garbage collection needs (``GarbageCollection``).
public protocol KeyEnumerableCache: NormalizedCache {
  /// Every key the store holds, in no particular order.
  func allKeys() throws -> [CacheKey]
}

/// The matching rule of ``NormalizedCache/removeRecords(matching:)``, shared so both stores agree.
public enum KeyPattern {
  /// Whether `key` contains `pattern`, comparing ASCII letters without case, everything else exactly.
  public static func matches(_ key: CacheKey, _ pattern: String) -> Bool {
    let needle = Array(pattern.utf8).map(lowercased)
    if needle.isEmpty { return true }
    let haystack = Array(key.utf8)
    guard haystack.count >= needle.count else { return false }
    outer: for start in 0...(haystack.count - needle.count) {
      for offset in 0..<needle.count where lowercased(haystack[start + offset]) != needle[offset] {
        continue outer
      }
      return true
    }
    return false
  }

  @inline(__always)
  static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }
}

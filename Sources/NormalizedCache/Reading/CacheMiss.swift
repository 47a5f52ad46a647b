/// A record or field the cache does not have, or a field that expired (a strict read with a clock).
public struct CacheMiss: Sendable, Hashable, CustomStringConvertible {
  public let recordKey: CacheKey
  /// Nil when the record itself is missing.
  public let fieldKey: String?
  public let path: [String]
  /// Why it is a miss (Apollo iOS 3.0's `MissingValueReason`, ADR 0005).
  public let reason: Reason

  public enum Reason: Sendable, Hashable {
    /// The cache does not have it.
    case absent
    /// It was written at `writtenAt` and its `maxAge` has passed.
    case expired(writtenAt: Int, maxAge: Int)
  }

  public init(recordKey: CacheKey, fieldKey: String?, path: [String], reason: Reason = .absent) {
    self.recordKey = recordKey
    self.fieldKey = fieldKey
    self.path = path
    self.reason = reason
  }

  public var description: String {
    let place = (["data"] + path).joined(separator: ".")
    if case .expired(let writtenAt, let maxAge) = reason {
      return "field \"\(fieldKey ?? "")\" of record \"\(recordKey)\" expired at \(place) (written at \(writtenAt), maxAge \(maxAge))"
    }
    if let fieldKey { return "no field \"\(fieldKey)\" in record \"\(recordKey)\" at \(place)" }
    return "no record \"\(recordKey)\" at \(place)"
  }
}

/// The clock of a read of a store with dates (docs/ttl.md#reads-with-a-clock): the time it reads
/// at, in seconds, and what an expired field makes of it. A read without one checks no date.
///
/// ```swift
/// try reader.read(plan, clock: .strict(at: now))        // an expired field is a miss
/// try reader.read(plan, clock: .permissive(at: now))    // the data, marked stale
/// try reader.read(plan, clock: ReadClock(now: now, ttl: mode))
/// ```
public struct ReadClock: Sendable, Hashable {
  /// The time of the read, in the seconds fields' dates are in.
  public var now: Int
  /// What an expired field does: a miss (strict) or stale data (permissive).
  public var ttl: TTLEnforcement

  public init(now: Int, ttl: TTLEnforcement = .strict) {
    self.now = now
    self.ttl = ttl
  }

  /// A read at `now` that misses on an expired field.
  public static func strict(at now: Int) -> ReadClock { ReadClock(now: now, ttl: .strict) }
  /// A read at `now` that returns stale data for an expired field.
  public static func permissive(at now: Int) -> ReadClock { ReadClock(now: now, ttl: .permissive) }
}

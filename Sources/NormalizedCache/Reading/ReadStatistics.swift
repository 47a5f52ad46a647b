/// What a read cost the store.
public struct ReadStatistics: Sendable, Hashable {
  /// Loads: `lendRecords` calls on the read's snapshot, one per level.
  public var loads = 0
  /// Keys asked for, over every load.
  public var keysRequested = 0
  /// Keys found.
  public var hits = 0
  /// Keys not found.
  public var misses = 0
  /// Fields of the records the loads lent (their dates field not counted), and their bytes: what
  /// a projected load saves. Counted only by a reader that ``CacheReader/countsLoads``; else 0.
  public var fieldsLoaded = 0
  public var bytesLoaded = 0

  public init() {}
}

import GraphQLLanguage

/// Executes an operation against a store and returns the response data, or the first miss.
///
/// ```swift
/// let reader = CacheReader(cache: cache)        // the schema comes with the plan
/// switch try reader.read(plan) {
/// case .hit(let data): ...          // the selected data, aliases restored
/// case .stale(let data): ...        // a permissive read with a clock: some selected field expired
/// case .miss(let miss): ...         // "no field "genre" in record "Book:bk123" at data.favoriteBook.genre"
/// }
/// let fresh = try reader.read(plan, clock: .strict(at: now))   // docs/ttl.md#reads-with-a-clock
/// ```
/// Records are loaded one level of the selection at a time, one load per level, as a data loader
/// batches them: a list of 100 friends costs one load for the level, not 100. Every level reads
/// one committed state of the store (``NormalizedCache/withConsistentRead(_:)``): a merge on
/// another thread lands before the read or after it, never between two levels. The records are
/// lent, not handed out (``RecordSnapshot/lendRecords(forKeys:to:)``): the reader reads the bytes
/// where the store keeps them and writes nothing of the store's, so threads reading the same
/// records share them without moving cache lines between cores.
/// With field policies on (the default), a field with a `@fieldPolicy` or a programmatic policy
/// resolves straight to the record its arguments name, without looking at the parent's field.
///
/// With ``projectsFields``, each load tells the store which fields each record must hold (ADR 0007
/// of Apollo iOS 3.0, as amended: rows filtered, columns not projected): a store that can leaves
/// the others out (docs/stores.md#projected-loads). The data read is the same either way.
public struct CacheReader {
  public let cache: any NormalizedCache
  public let useFieldPolicies: Bool
  public let fieldPolicyProvider: (any FieldPolicyProvider)?
  /// Whether loads name the fields the read needs (``RecordSnapshot/lendRecords(forKeys:projection:to:)``);
  /// false by default: whole records.
  public let projectsFields: Bool
  /// Whether each read counts the fields and bytes its loads lent (``ReadStatistics/fieldsLoaded``),
  /// a walk of every record lent: for counting passes, not timed ones.
  public var countsLoads = false

  public init(
    cache: any NormalizedCache, useFieldPolicies: Bool = true, fieldPolicyProvider: (any FieldPolicyProvider)? = nil,
    projectsFields: Bool = false
  ) {
    self.cache = cache
    self.useFieldPolicies = useFieldPolicies
    self.fieldPolicyProvider = fieldPolicyProvider
    self.projectsFields = projectsFields
  }

  /// Reads the operation back.
  ///
  /// With a clock (``ReadClock``: its `now`, in seconds), every selected field with a `maxAge` (``Schema/maxAge(ofField:on:operation:parentMaxAge:)``)
  /// is checked against the date it was written (docs/ttl.md#reads-with-a-clock): expired when
  /// its `maxAge` is 0 or `writtenAt + maxAge < now`. A strict read with an expired field is a
  /// miss; a permissive one (``ReadClock/ttl``) returns the data as ``ReadResult/Outcome/stale(_:)``. A read with a
  /// clock goes on past what it lacks, so that it reports every expired and missing path; without
  /// one it stops at its first miss, and nothing is checked.
  /// - Returns: the data or the first miss, with the counts of loads, keys, hits and misses.
  /// - Throws: the store's errors; ``NormalizationError`` for a bad variable or directive.
  /// - Throws: ``ReadError`` for a null where the schema says non-null.
  public func read(_ plan: OperationPlan, clock: ReadClock? = nil) throws -> ReadResult {
    try cache.withConsistentRead { snapshot in
      var execution = Execution(
        reader: self, snapshot: snapshot, plan: plan, rootKey: plan.rootKey, rootSelection: plan.root,
        rootTypeName: plan.rootTypeName, clock: clock)
      return try execution.run()
    }
  }
}

extension CacheReader {
  /// Reads a selection set from the record of `key` and, one level at a time, the records it
  /// references, with field policies as ``read(_:)``.
  /// - Returns: the object's selected data or the first miss; a key the store does not have is a miss.
  /// - Throws: the store's errors; ``ReadError`` for a null where the schema says non-null.
  public func read(
    _ selection: ObjectSelection, key: CacheKey, clock: ReadClock? = nil
  ) throws -> ReadResult {
    try cache.withConsistentRead { snapshot in
      var execution = Execution(
        reader: self, snapshot: snapshot, plan: selection.plan, rootKey: key, rootSelection: selection.selection,
        rootTypeName: selection.selection.inferredType, clock: clock)
      return try execution.run()
    }
  }
}

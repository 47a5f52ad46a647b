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
/// let fresh = try reader.read(plan, at: now, ttl: .strict)   // docs/ttl.md#reads-with-a-clock
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
  /// With a clock (`now`, in seconds), every selected field with a `maxAge` (``Schema/maxAge(ofField:on:operation:parentMaxAge:)``)
  /// is checked against the date it was written (docs/ttl.md#reads-with-a-clock): expired when
  /// its `maxAge` is 0 or `writtenAt + maxAge < now`. A strict read with an expired field is a
  /// miss; a permissive one returns the data as ``ReadResult/Outcome/stale(_:)``. A read with a
  /// clock goes on past what it lacks, so that it reports every expired and missing path; without
  /// one it stops at its first miss, and nothing is checked.
  /// - Returns: the data or the first miss, with the counts of loads, keys, hits and misses.
  /// - Throws: the store's errors; ``NormalizationError`` for a bad variable or directive.
  /// - Throws: ``ReadError`` for a null where the schema says non-null.
  public func read(_ plan: OperationPlan, at now: Int? = nil, ttl: TTLEnforcement = .strict) throws -> ReadResult {
    try cache.withConsistentRead { snapshot in
      var execution = Execution(
        reader: self, snapshot: snapshot, plan: plan, rootKey: plan.rootKey, rootSelection: plan.root,
        rootTypeName: plan.rootTypeName, clock: now, enforcement: ttl)
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
    _ selection: ObjectSelection, key: CacheKey, at now: Int? = nil, ttl: TTLEnforcement = .strict
  ) throws -> ReadResult {
    try cache.withConsistentRead { snapshot in
      var execution = Execution(
        reader: self, snapshot: snapshot, plan: selection.plan, rootKey: key, rootSelection: selection.selection,
        rootTypeName: selection.selection.inferredType, clock: now, enforcement: ttl)
      return try execution.run()
    }
  }
}

/// How a read with a clock treats an expired field (Apollo iOS 3.0's `TTLEnforcement`, ADR 0003):
/// strict makes the read a miss; permissive returns the data, marked stale. A field that is absent
/// is a miss either way.
public enum TTLEnforcement: String, Sendable, Hashable, CaseIterable {
  case strict, permissive
}

/// The outcome of a read: the data, or what was missing.
public struct ReadResult: Sendable {
  public enum Outcome: Sendable, Equatable {
    case hit(JSONObject)
    /// A permissive read with a clock: every field there, some expired (Apollo's
    /// `Source.cache(containsStaleFields: true)`).
    case stale(JSONObject)
    case miss(CacheMiss)
  }

  public let outcome: Outcome
  public let statistics: ReadStatistics
  /// Every `recordKey.fieldKey` the read looked at, up to a miss.
  public let dependentKeys: DependentKeys
  /// A read with a clock: the response paths (list indexes included) of every selected field
  /// that expired, and of every field or object the cache lacks, each sorted by its dotted
  /// spelling (``ReadResult/spelled(_:)``). Empty without a clock.
  public var expired: [[String]] = []
  public var missing: [[String]] = []

  init(outcome: Outcome, statistics: ReadStatistics, dependentKeys: DependentKeys) {
    self.outcome = outcome
    self.statistics = statistics
    self.dependentKeys = dependentKeys
  }

  /// The data of a hit or of a stale read.
  public var data: JSONObject? {
    switch outcome {
    case .hit(let data), .stale(let data): data
    case .miss: nil
    }
  }

  /// A path as `books.0.author.name`.
  public static func spelled(_ path: [String]) -> String { path.joined(separator: ".") }

  public var miss: CacheMiss? {
    if case .miss(let miss) = outcome { return miss }
    return nil
  }
}

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

/// A read that cannot give a response: a field the schema declares non-null holds null, as
/// Apollo iOS's executor fails such a read.
public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The response path of the null: `["hero", "name"]`, list indexes included.
  public let path: [String]
  public let recordKey: CacheKey
  public let fieldKey: String
  /// The field's type, as the schema declares it: `String!`, `[Episode!]`.
  public let type: String

  public var description: String {
    "null at non-null \(path.joined(separator: ".")) (\(type)), field \"\(fieldKey)\" of record \"\(recordKey)\""
  }
}

/// A response path as a chain back to the root: the number of a node in ``Execution/paths``, one
/// per object placed (-1 is the root), spelled out as an array only for a miss, a null error or a
/// field-policy provider.
private typealias ResponsePath = Int

/// One step of a response path: a field's response key, or a list index (spelled out only with
/// the path). The field is not retained: the plan holding it outlives the read.
private enum PathComponent {
  case key(Unmanaged<PlannedField>)
  case index(Int)

  var spelled: String {
    switch self {
    case .key(let field): field.takeUnretainedValue().responseKey
    case .index(let index): String(index)
    }
  }
}

/// A record lent for one level of a read: its key and its bytes, valid until the next level's load.
private struct LentRecord {
  let key: CacheKey
  let bytes: UnsafeRawBufferPointer
}

/// What a field with a selection holds, where objects come from records not loaded yet: objects
/// are numbered (``Execution/nodes``) and put in place when the response is assembled.
private enum PendingValue {
  case null
  case object(Int)
  case list([PendingValue])
}

private struct Execution {
  struct Pending {
    let key: CacheKey
    /// Unowned: the operation's plan, which the execution holds, holds every selection plan.
    let plan: Unmanaged<SelectionPlan>
    /// The object's number in ``nodes``.
    let node: Int
    let path: ResponsePath
  }

  /// A member of an object that holds objects: its value waits for them, as `null` until then.
  struct Fixup {
    /// The object's number and the member's position in it.
    let node: Int
    let member: Int
    let slot: PendingValue
  }

  struct Miss: Error {
    let miss: CacheMiss
  }

  /// The reader's settings, not the reader: holding it would count a reference to the store,
  /// which every thread reading the store writes.
  let useFieldPolicies: Bool
  let fieldPolicyProvider: (any FieldPolicyProvider)?
  /// Whether each load names the fields its records must hold.
  let projectsFields: Bool
  /// Whether each load counts the fields and bytes it lent.
  let countsLoads: Bool
  /// The one committed state of the store that every level's load reads.
  let snapshot: any RecordSnapshot
  /// The records of the level being filled, lent by the snapshot; its room serves every level.
  var lent = LentRecords()
  /// `__typename`, ready to be found in records: its bytes live as long as the program, and the
  /// probe is copied here once a read (a static used per record cost a check and a copy each time).
  static let typename = RecordCodec.FieldName("__typename")
  let typenameProbe: RecordCodec.FieldName.Probe
  /// Whether the reader has a field policy provider (asked once: the optional existential costs a copy).
  let hasPolicyProvider: Bool
  let plan: OperationPlan
  let rootKey: CacheKey
  let rootSelection: SelectionPlan
  /// The type of the root object when its record has no `__typename`.
  let rootTypeName: String?
  var statistics = ReadStatistics()
  var dependentKeys = DependentKeys()
  /// The members of every object of the response so far, by number, as they will be returned:
  /// the root is 0, and an object is numbered after the object holding it, so the response is
  /// assembled from the last up. Leaves go in as they are read; members holding objects are
  /// `null` until assembly puts the objects in (``fixups``).
  var nodes: [[JSONObject.Member]] = []
  /// The members holding objects, in the order of their objects' numbers (objects are filled in
  /// the order they are numbered).
  var fixups: [Fixup] = []
  /// The response paths of the objects placed: each its parent's number and its own component.
  var paths: [(parent: ResponsePath, component: PathComponent)] = []
  /// The walk of a field's objects under way (``fillObjects``), the execution its visitor.
  var objects = ObjectsWalk()
  /// The read's clock (seconds) and mode; nil: no field is checked, and the read stops at its
  /// first miss.
  let clock: Int?
  let enforcement: TTLEnforcement
  /// A read with a clock: every miss, expired field and missing field or record so far.
  var firstMiss: CacheMiss?
  var firstExpired: CacheMiss?
  var expired: [[String]] = []
  var missing: [[String]] = []

  /// The path of `component` under `parent`.
  mutating func path(_ parent: ResponsePath, _ component: PathComponent) -> ResponsePath {
    paths.append((parent, component))
    return paths.count - 1
  }

  /// The components of a path, from the root.
  func components(_ path: ResponsePath) -> [String] {
    var components: [String] = []
    var node = path
    while node >= 0 {
      components.append(paths[node].component.spelled)
      node = paths[node].parent
    }
    return components.reversed()
  }

  init(
    reader: CacheReader, snapshot: any RecordSnapshot, plan: OperationPlan, rootKey: CacheKey, rootSelection: SelectionPlan,
    rootTypeName: String?, clock: Int?, enforcement: TTLEnforcement
  ) {
    self.clock = clock
    self.enforcement = enforcement
    useFieldPolicies = reader.useFieldPolicies
    fieldPolicyProvider = reader.fieldPolicyProvider
    projectsFields = reader.projectsFields
    countsLoads = reader.countsLoads
    self.snapshot = snapshot
    hasPolicyProvider = reader.fieldPolicyProvider != nil
    typenameProbe = Self.typename.probe
    self.plan = plan
    self.rootKey = rootKey
    self.rootSelection = rootSelection
    self.rootTypeName = rootTypeName
  }

  mutating func run() throws -> ReadResult {
    nodes.append([])
    var level = [Pending(key: rootKey, plan: Unmanaged.passUnretained(rootSelection), node: 0, path: -1)]
    do {
      while !level.isEmpty {
        level = try resolve(level)
      }
    } catch let miss as Miss {
      return ReadResult(outcome: .miss(miss.miss), statistics: statistics, dependentKeys: dependentKeys)
    }
    guard clock != nil else { return ReadResult(outcome: .hit(assemble()), statistics: statistics, dependentKeys: dependentKeys) }
    return timedResult()
  }

  /// The result of a read with a clock: a miss when anything is missing (or, strict, expired);
  /// else the data, stale when something expired; with every expired and missing path.
  private mutating func timedResult() -> ReadResult {
    let outcome: ReadResult.Outcome
    if let firstMiss {
      outcome = .miss(firstMiss)
    } else if let firstExpired {
      outcome = enforcement == .strict ? .miss(firstExpired) : .stale(assemble())
    } else {
      outcome = .hit(assemble())
    }
    var result = ReadResult(outcome: outcome, statistics: statistics, dependentKeys: dependentKeys)
    result.expired = Self.sorted(expired)
    result.missing = Self.sorted(missing)
    return result
  }

  private static func sorted(_ paths: [[String]]) -> [[String]] {
    paths.map { (ReadResult.spelled($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// A miss of a read with a clock, which goes on: its path kept (the first miss as the outcome's).
  private mutating func note(_ miss: CacheMiss) {
    if firstMiss == nil { firstMiss = miss }
    missing.append(miss.path)
  }

  /// The response: each object put into its holder's member once the objects it holds are in,
  /// from the last numbered to the root.
  private mutating func assemble() -> JSONObject {
    var built = [JSONObject?](repeating: nil, count: nodes.count)
    var fixup = fixups.count - 1
    for number in nodes.indices.reversed() {
      var members: [JSONObject.Member] = []
      swap(&members, &nodes[number])
      while fixup >= 0, fixups[fixup].node == number {
        members[fixups[fixup].member].value = Self.json(fixups[fixup].slot, built: &built)
        fixup -= 1
      }
      built[number] = JSONObject(members: members)
    }
    fixups = []
    return built[0]!
  }

  /// The JSON of a slot whose objects are built, each taken out of `built`.
  private static func json(_ slot: PendingValue, built: inout [JSONObject?]) -> JSONValue {
    switch slot {
    case .null: return .null
    case .object(let number):
      // Moved out: each object goes into one holder.
      return .object(built[number].take()!)
    case .list(let slots):
      var elements: [JSONValue] = []
      elements.reserveCapacity(slots.count)
      for slot in slots { elements.append(json(slot, built: &built)) }
      return .array(elements)
    }
  }

  /// Loads one level's records in one call, fills their objects, and returns the next level.
  private mutating func resolve(_ level: [Pending]) throws -> [Pending] {
    // Each distinct key once; each pending object remembers where its record comes back.
    var keys: [CacheKey] = []
    var positions: [Int] = []
    keys.reserveCapacity(level.count)
    positions.reserveCapacity(level.count)
    if level.count <= 8 {
      // A few keys (a point read, a fragment): compared with each other, no table.
      for pending in level {
        if let position = keys.firstIndex(of: pending.key) {
          positions.append(position)
        } else {
          positions.append(keys.count)
          keys.append(pending.key)
        }
      }
    } else {
      var index = KeyIndex(capacity: level.count)
      for pending in level {
        let place = index.find(pending.key) { keys[$0] }
        if let position = place.position {
          positions.append(position)
        } else {
          positions.append(keys.count)
          index.insert(keys.count, at: place)
          keys.append(pending.key)
        }
      }
    }
    if projectsFields {
      try snapshot.lendRecords(forKeys: keys, projection: projection(of: level, positions: positions, keyCount: keys.count), to: &lent)
    } else {
      try snapshot.lendRecords(forKeys: keys, to: &lent)
    }
    let found = lent.found
    statistics.loads += 1
    statistics.keysRequested += keys.count
    statistics.hits += found
    statistics.misses += keys.count - found
    if countsLoads { countLoaded(keys.count) }
    var next: [Pending] = []
    for (pending, position) in zip(level, positions) {
      guard let bytes = lent[position] else {
        let miss = CacheMiss(recordKey: pending.key, fieldKey: nil, path: components(pending.path))
        guard clock != nil else { throw Miss(miss: miss) }
        note(miss)
        continue
      }
      try fill(pending, record: LentRecord(key: pending.key, bytes: bytes), next: &next)
    }
    return next
  }

  /// Adds the fields and bytes of the records lent for a load of `keyCount` keys to the statistics.
  private mutating func countLoaded(_ keyCount: Int) {
    for position in 0..<keyCount {
      guard let bytes = lent[position] else { continue }
      statistics.bytesLoaded += bytes.count
      var offset = RecordDates.fieldsStart(bytes)
      while offset < bytes.count {
        _ = RecordCodec.readField(bytes, &offset)
        statistics.fieldsLoaded += 1
      }
    }
  }

  /// The fields each key of a level's load must hold: those its place's selection may read
  /// (``OperationPlan/projectedFields(_:)``); a key read at two places, the union of theirs.
  private func projection(of level: [Pending], positions: [Int], keyCount: Int) throws -> FieldProjection {
    var places: [(plan: Unmanaged<SelectionPlan>, set: Int)] = []
    var sets: [FieldSet] = []
    var unions: [(a: Int, b: Int, set: Int)] = []
    var setIndices = [Int](repeating: -1, count: keyCount)
    for (pending, position) in zip(level, positions) {
      let set: Int
      if let known = places.first(where: { $0.plan.toOpaque() == pending.plan.toOpaque() }) {
        set = known.set
      } else {
        set = sets.count
        sets.append(try plan.projectedFields(pending.plan.takeUnretainedValue()))
        places.append((pending.plan, set))
      }
      let before = setIndices[position]
      if before < 0 || before == set {
        setIndices[position] = set
      } else if let union = unions.first(where: { $0.a == before && $0.b == set }) {
        setIndices[position] = union.set
      } else {
        unions.append((before, set, sets.count))
        setIndices[position] = sets.count
        sets.append(sets[before].union(sets[set]))
      }
    }
    return FieldProjection(sets: sets, setIndices: setIndices)
  }

  /// Fills the object of `pending` from its record's bytes: leaves straight
  /// from the bytes, objects numbered for the next level. Each step of the selection is a field
  /// a policy resolves (``fillFromPolicy``), a leaf (``fillLeaf``) or a field holding objects
  /// (``fillObjects``). The steps are inlined here: a call per field is what they cost apart.
  private mutating func fill(_ pending: Pending, record: LentRecord, next: inout [Pending]) throws {
    let bytes = record.bytes
    let place = pending.plan.takeUnretainedValue()
    let (runtimeType, selection) = try self.selection(at: place, of: pending, typenameIn: bytes)
    var members: [JSONObject.Member] = []
    members.reserveCapacity(selection.fields.count)
    // A field a policy resolves is not looked at in this record: left out of the dependent keys.
    var policyFields: Set<String> = []
    // Records list fields in the order the selection wrote them: each is looked for after the
    // last, from the first field after the dates field, if the record has one.
    var hint = RecordDates.fieldsStart(bytes)
    let dates = clock == nil ? nil : RecordDates.View(bytes)
    defer {
      dependentKeys.append(
        recordKey: record.key,
        fieldKeys: policyFields.isEmpty ? selection.fieldKeys : selection.fieldKeys.filter { !policyFields.contains($0) })
    }
    let parentType = runtimeType ?? place.staticType
    let policies =
      useFieldPolicies
      && (hasPolicyProvider || selection.hasFieldPolicies(on: parentType, schema: plan.schema))
    let steps = selection.readSteps()
    for position in steps.indices {
      // Read in place: a copy of the step would retain its response key.
      let step = steps.baseAddress! + position
      if policies, step.pointee.child != nil,
        try fillFromPolicy(step, parentType: parentType, pending: pending, members: &members, policyFields: &policyFields, next: &next)
      {
        continue
      }
      guard var offset = RecordCodec.find(step.pointee.name, in: bytes, hint: &hint) else {
        if step.pointee.isConditional { continue }
        let miss = miss(record, step.pointee.field, parent: pending.path)
        guard clock != nil else { throw miss }
        note(miss.miss)
        continue
      }
      if let now = clock, step.pointee.maxAge >= 0 {
        check(step, valueAt: offset, of: record, dates: dates, now: now, parent: pending.path)
      }
      do {
        if let child = step.pointee.child {
          try fillObjects(
            step, child: child, bytes, &offset, record: record, parent: pending.path, node: pending.node, members: &members,
            next: &next)
        } else {
          try fillLeaf(step, bytes, &offset, record: record, pending: pending, members: &members)
        }
      } catch let miss as Miss where clock != nil {
        note(miss.miss)
      }
    }
    nodes[pending.node] = members
  }

  /// A selected field's date against its `maxAge` (docs/ttl.md#reads-with-a-clock): expired when
  /// the `maxAge` is 0 or `writtenAt + maxAge < now`; a record without dates counts as written at 0.
  private mutating func check(
    _ step: UnsafePointer<ReadSteps.Step>, valueAt offset: Int, of record: LentRecord, dates: RecordDates.View?, now: Int,
    parent: ResponsePath
  ) {
    let maxAge = step.pointee.maxAge
    let writtenAt: Int
    if let dates {
      writtenAt =
        dates.isUniform
        ? dates.base : dates.date(ofFieldAt: RecordDates.position(ofValueAt: offset, in: record.bytes), in: record.bytes)
    } else {
      writtenAt = 0
    }
    // A date past Int.max - maxAge (a hostile file's: dates are checked to be 0 or more, no more)
    // never expires rather than trapping.
    let (freshUntil, overflows) = writtenAt.addingReportingOverflow(maxAge)
    guard maxAge == 0 || !overflows && freshUntil < now else { return }
    let field = step.pointee.field.takeUnretainedValue()
    let path = components(parent) + [field.responseKey]
    expired.append(path)
    if firstExpired == nil {
      firstExpired = CacheMiss(
        recordKey: record.key, fieldKey: field.fieldKey, path: path, reason: .expired(writtenAt: writtenAt, maxAge: maxAge))
    }
  }

  /// The runtime type of the object of `pending` and the fields to read for it: by its record's
  /// `__typename` (the last type seen at this place compared in place first), else the place's.
  @inline(__always)
  private func selection(
    at place: SelectionPlan, of pending: Pending, typenameIn bytes: UnsafeRawBufferPointer
  ) throws -> (runtimeType: String?, selection: PlannedSelection) {
    var typenameHint = 0
    guard let found = RecordCodec.find(typenameProbe, in: bytes, hint: &typenameHint), bytes[found] == RecordCodec.stringTag else {
      let runtimeType = pending.path < 0 ? rootTypeName : place.inferredType
      return (runtimeType, try plan.selection(place, runtimeType: runtimeType))
    }
    var offset = found + 1
    let length = Int(Varint.read(bytes, &offset))
    let typename = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    // Objects at one place are mostly of one type: the last one's, compared in place.
    if let lastType = place.lastType, let last = place.lastSelection,
      lastType.withUTF8InPlace({ RecordCodec.bytes(typename, 0..<typename.count, equal: UnsafeRawBufferPointer($0)) })
    {
      return (lastType, last)
    }
    let runtimeType = String(decoding: typename, as: UTF8.self)
    return (runtimeType, try plan.selection(place, runtimeType: runtimeType))
  }

  /// A member holding objects: null until assembly puts them in.
  @inline(__always)
  private mutating func hold(_ slot: PendingValue, as responseKey: String, node: Int, in members: inout [JSONObject.Member]) {
    fixups.append(Fixup(node: node, member: members.count, slot: slot))
    members.append(JSONObject.Member(key: responseKey, value: .null))
  }

  /// A field with a selection that a field policy resolves to record keys, without looking at the
  /// record: its objects placed for the next level. False when no policy applies to it.
  @inline(__always)
  private mutating func fillFromPolicy(
    _ step: UnsafePointer<ReadSteps.Step>, parentType: String?, pending: Pending, members: inout [JSONObject.Member],
    policyFields: inout Set<String>, next: inout [Pending]
  ) throws -> Bool {
    let field = step.pointee.field.takeUnretainedValue()
    guard let child = step.pointee.child, let keys = try policyKeys(for: field, parentType: parentType, path: pending.path) else {
      return false
    }
    let fieldPath = path(pending.path, .key(step.pointee.field))
    policyFields.insert(field.fieldKey)
    let slot: PendingValue
    switch keys {
    case .single(let key):
      slot = placeholder(for: key, plan: child.takeUnretainedValue(), path: fieldPath, next: &next)
    case .list(let keys):
      var slots: [PendingValue] = []
      slots.reserveCapacity(keys.count)
      for (index, key) in keys.enumerated() {
        let elementPath = path(fieldPath, .index(index))
        slots.append(placeholder(for: key, plan: child.takeUnretainedValue(), path: elementPath, next: &next))
      }
      slot = .list(slots)
    }
    hold(slot, as: step.pointee.responseKey, node: pending.node, in: &members)
    return true
  }

  /// A leaf: its JSON straight from the record's bytes at `offset`, nulls checked against the
  /// schema where the step says so.
  @inline(__always)
  private func fillLeaf(
    _ step: UnsafePointer<ReadSteps.Step>, _ bytes: UnsafeRawBufferPointer, _ offset: inout Int, record: LentRecord, pending: Pending,
    members: inout [JSONObject.Member]
  ) throws {
    guard let json = RecordCodec.readJSON(bytes, &offset) else { throw miss(record, step.pointee.field, parent: pending.path) }
    if step.pointee.checksNulls {
      switch json {
      case .null, .array:
        let field = step.pointee.field.takeUnretainedValue()
        if let type = step.pointee.type {
          try checkNulls(json, type: type, record: record, field: field, parent: pending.path)
        }
      default:
        break
      }
    }
    members.append(JSONObject.Member(key: step.pointee.responseKey, value: json))
  }

  /// A field with a selection, at `offset` in the record: null, a reference to an object for the
  /// next level, or a list of them, walked with the execution as the visitor (``ObjectsWalk``).
  @inline(__always)
  private mutating func fillObjects(
    _ step: UnsafePointer<ReadSteps.Step>, child: Unmanaged<SelectionPlan>, _ bytes: UnsafeRawBufferPointer, _ offset: inout Int,
    record: LentRecord, parent: ResponsePath, node: Int, members: inout [JSONObject.Member], next: inout [Pending]
  ) throws {
    let slot: PendingValue
    objects.begin(step: step, child: child, parent: parent)
    // The next level's objects move into the walk and back: no copy.
    swap(&objects.next, &next)
    defer { swap(&objects.next, &next) }
    do throws(ObjectsWalk.Failure) {
      slot = try RecordValueWalk.walk(bytes, &offset, &self)
    } catch {
      throw failure(error, record: record, field: step.pointee.field.takeUnretainedValue())
    }
    if case .null = slot {
      members.append(JSONObject.Member(key: step.pointee.responseKey, value: .null))
    } else {
      hold(slot, as: step.pointee.responseKey, node: node, in: &members)
    }
  }

  /// The error of a walk of a field's objects that failed, now that the record is known.
  @inline(never)
  private func failure(_ failure: ObjectsWalk.Failure, record: LentRecord, field: PlannedField) -> any Error {
    switch failure {
    case .null(let type, let path): nullError(record: record, field: field, type: type, path: path)
    case .scalar(let path): Miss(miss: CacheMiss(recordKey: record.key, fieldKey: field.fieldKey, path: path))
    }
  }

  /// The miss of a field the record lacks, or holds in a form the operation cannot read.
  private func miss(_ record: LentRecord, _ field: Unmanaged<PlannedField>, parent: ResponsePath) -> Miss {
    let field = field.takeUnretainedValue()
    return Miss(miss: CacheMiss(recordKey: record.key, fieldKey: field.fieldKey, path: components(parent) + [field.responseKey]))
  }

  private mutating func placeholder(for key: CacheKey, plan child: SelectionPlan, path: ResponsePath, next: inout [Pending]) -> PendingValue {
    let number = nodes.count
    nodes.append([])
    next.append(Pending(key: key, plan: Unmanaged.passUnretained(child), node: number, path: path))
    return .object(number)
  }

  /// Fails the read where a leaf value holds null at a position its type declares non-null: the
  /// field under `parent`, at the list `indexes` within its value. The path is spelled out only
  /// for an error: most lists hold no null.
  private func checkNulls(
    _ value: JSONValue, type: TypeReference, record: LentRecord, field: PlannedField, parent: ResponsePath, indexes: [Int] = []
  ) throws {
    switch value {
    case .null:
      if case .nonNull = type {
        let path = components(parent) + [field.responseKey] + indexes.map { String($0) }
        throw nullError(record: record, field: field, type: type, path: path)
      }
    case .array(let elements):
      guard let elementType = Self.elementType(of: type) else { return }
      for (index, element) in elements.enumerated() {
        switch element {
        case .null, .array:
          try checkNulls(element, type: elementType, record: record, field: field, parent: parent, indexes: indexes + [index])
        default: continue
        }
      }
    default:
      return
    }
  }

  private func nullError(record: LentRecord, field: PlannedField, type: TypeReference, path: [String]) -> ReadError {
    ReadError(
      path: path, recordKey: record.key, fieldKey: field.fieldKey,
      type: field.definition.map { "\($0.type)" } ?? "\(type)")
  }

  /// The type of a list's elements; nil when the type is not a list.
  static func elementType(of type: TypeReference) -> TypeReference? { ReadSteps.elementType(of: type) }

  /// The key or keys a field policy gives this field, provider first, then the directive.
  private func policyKeys(for field: PlannedField, parentType: String?, path parentPath: ResponsePath) throws -> FieldPolicyKeys.Result? {
    guard let parentType else { return nil }
    let directive = plan.schema.fieldPolicy(forField: field.name, on: parentType)
    guard directive != nil || hasPolicyProvider, let definition = field.definition else { return nil }
    let returnTypeName = definition.type.namedType
    let returnsList = definition.type.isList
    var arguments = JSONObject()
    for argument in field.arguments {
      if let value = try plan.variables.resolve(argument.value) { arguments.append(key: argument.name, value: value) }
    }
    if let provider = fieldPolicyProvider {
      let path = components(parentPath) + [field.responseKey]
      let policyField = FieldPolicyField(
        parentType: parentType, name: field.name, returnTypeName: returnTypeName, returnsList: returnsList)
      if returnsList {
        if let infos = provider.cacheKeyList(for: policyField, inputData: arguments, path: path) {
          return .list(infos.map { $0.cacheKey(typename: returnTypeName) })
        }
      } else if let info = provider.cacheKey(for: policyField, inputData: arguments, path: path) {
        return .single(info.cacheKey(typename: returnTypeName))
      }
    }
    guard let directive else { return nil }
    return FieldPolicyKeys.keys(
      policy: directive, arguments: arguments, returnTypeName: returnTypeName, returnsList: returnsList)
  }
}

/// A field with a selection, read from its record's bytes by the walk of the value grammar
/// (invariant 7 of `RecordBytes.swift`): null, a reference to an object (placed for the next
/// level), or a list of them, nested. A null where the schema says non-null fails the read; a
/// scalar where the operation selects objects is a miss. The execution is the visitor (it places
/// the objects); this is where the walk is. The paths of a list's elements are spelled only where
/// an object or an error needs one.
private struct ObjectsWalk {
  /// What fails the read, spelled out for the caller, which knows the record: a null where the
  /// schema says non-null (its type and path), or a scalar where objects are selected (a miss).
  enum Failure: Error {
    case null(TypeReference, path: [String])
    case scalar(path: [String])
  }

  /// A list being read: its slots so far, and where the walk was around it.
  struct List {
    var slots: [PendingValue]
    let outer: Place
  }

  /// Where the walk is: in the field's value itself, or in a list of it, reading one element.
  struct Place {
    var inList = false
    /// The list's path.
    var listPath: ResponsePath = 0
    /// The type of the list's elements as the schema gives it.
    var elementType: TypeReference?
    /// The element being read.
    var index = 0
  }

  /// The field's step and the plan of its objects; nil between walks.
  var step: UnsafePointer<ReadSteps.Step>?
  var child: Unmanaged<SelectionPlan>?
  /// The path of the object whose field this is.
  var parent: ResponsePath = -1
  var place = Place()
  /// The objects of the next level, moved in for the walk.
  var next: [Execution.Pending] = []

  /// A walk of another field begins (field by field, so that nothing is released and made again).
  @inline(__always)
  mutating func begin(step: UnsafePointer<ReadSteps.Step>, child: Unmanaged<SelectionPlan>, parent: ResponsePath) {
    self.step = step
    self.child = child
    self.parent = parent
    place.inList = false
  }
}

extension Execution: RecordValueVisitor {
  typealias Value = PendingValue
  typealias List = ObjectsWalk.List
  typealias Failure = ObjectsWalk.Failure

  static var source: RecordValueSource { .trusted }

  /// The path of the value being read, made now (it costs an entry in ``paths``).
  @inline(__always)
  private mutating func walkPath() -> ResponsePath {
    guard objects.place.inList else { return path(objects.parent, .key(objects.step!.pointee.field)) }
    return path(objects.place.listPath, .index(objects.place.index))
  }

  /// The path of the value being read, spelled out: for an error.
  private mutating func spelledWalkPath() -> [String] {
    guard objects.place.inList else { return components(objects.parent) + [objects.step!.pointee.responseKey] }
    // The path made first: `components` reads the paths after it was added.
    let path = walkPath()
    return components(path)
  }

  @inline(__always)
  mutating func null(_ token: Range<Int>) throws(Failure) -> PendingValue {
    guard objects.place.inList else {
      let step = objects.step!
      if step.pointee.checksNulls, let type = step.pointee.type, case .nonNull = type {
        throw .null(type, path: spelledWalkPath())
      }
      return .null
    }
    if case .nonNull? = objects.place.elementType { throw .null(objects.place.elementType!, path: spelledWalkPath()) }
    return .null
  }

  @inline(__always)
  mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) -> PendingValue {
    // As ``placeholder(for:plan:path:next:)`` does, into the walk's next level.
    let path = walkPath()
    let number = nodes.count
    nodes.append([])
    objects.next.append(Pending(key: String(decoding: key, as: UTF8.self), plan: objects.child!, node: number, path: path))
    return .object(number)
  }

  @inline(__always)
  mutating func beginList(count: Int, _ token: Range<Int>) -> List {
    let elementType =
      if objects.place.inList {
        objects.place.elementType.flatMap(Self.elementType(of:))
      } else {
        // The step's own copy of the type: reading the schema's would write its reference counts.
        objects.step!.pointee.elementType
      }
    // The list's own path, where the walk is around it.
    let path = walkPath()
    var slots: [PendingValue] = []
    slots.reserveCapacity(count)
    defer { objects.place = ObjectsWalk.Place(inList: true, listPath: path, elementType: elementType) }
    return List(slots: slots, outer: objects.place)
  }

  @inline(__always)
  mutating func append(_ element: consuming PendingValue, to list: inout List) {
    list.slots.append(element)
    objects.place.index += 1
  }

  @inline(__always)
  mutating func endList(_ list: consuming List) -> PendingValue {
    objects.place = list.outer
    return .list(list.slots)
  }

  // A scalar where the operation selects an object: the cache cannot answer this field.
  mutating func bool(_ value: Bool, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }
  mutating func int(_ value: Int, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }
  mutating func double(_ value: Double, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }
  mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }

  /// Trusted bytes: never called.
  func malformed(_ value: MalformedValue) -> Failure { .scalar(path: []) }
}

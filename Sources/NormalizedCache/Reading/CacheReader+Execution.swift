import GraphQLLanguage

/// A response path as a chain back to the root: the number of a node in ``Execution/paths``, one
/// per object placed (-1 is the root), spelled out as an array only for a miss, a null error or a
/// field-policy provider.
typealias ResponsePath = Int

/// One step of a response path: a field's response key, or a list index (spelled out only with
/// the path). The field is not retained: the plan holding it outlives the read.
enum PathComponent {
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
struct LentRecord {
  let key: CacheKey
  let bytes: UnsafeRawBufferPointer
}

/// What a field with a selection holds, where objects come from records not loaded yet: objects
/// are numbered (``Execution/nodes``) and put in place when the response is assembled.
enum PendingValue {
  case null
  case object(Int)
  case list([PendingValue])
}

struct Execution {
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
  /// The read's time (seconds); nil: no field is checked, and the read stops at its first miss.
  let clock: Int?
  /// What an expired field makes of a read with a clock.
  let enforcement: TTLEnforcement
  /// A read with a clock: every miss, expired field and missing field or record so far.
  var firstMiss: CacheMiss?
  var firstExpired: CacheMiss?
  var expired: [[String]] = []
  var missing: [[String]] = []
  /// A read with a clock: the earliest second at which a fresh field it selected expires.
  var expiresAt: Int?

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
    rootTypeName: String?, clock: ReadClock?
  ) {
    self.clock = clock?.now
    self.enforcement = clock?.ttl ?? .strict
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
    result.expiresAt = expiresAt
    return result
  }

  private static func sorted(_ paths: [[String]]) -> [[String]] {
    paths.map { (ReadResult.spelled($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
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
}

import GraphQLLanguage

extension Execution {
  /// A miss of a read with a clock, which goes on: its path kept (the first miss as the outcome's).
  private mutating func note(_ miss: CacheMiss) {
    if firstMiss == nil { firstMiss = miss }
    missing.append(miss.path)
  }

  /// Loads one level's records in one call, fills their objects, and returns the next level.
  mutating func resolve(_ level: [Pending]) throws -> [Pending] {
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
    guard maxAge == 0 || !overflows && freshUntil < now else {
      // Fresh: it expires at the first second past its freshness (one that never expires, never).
      if !overflows, freshUntil < Int.max { expiresAt = min(expiresAt ?? .max, freshUntil + 1) }
      return
    }
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
    guard let found = RecordCodec.find(typenameProbe, in: bytes, hint: &typenameHint), let typename = RecordCodec.string(bytes, at: found)
    else {
      let runtimeType = pending.path < 0 ? rootTypeName : place.inferredType
      return (runtimeType, try plan.selection(place, runtimeType: runtimeType))
    }
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

  private mutating func placeholder(for key: CacheKey, plan child: SelectionPlan, path: ResponsePath, next: inout [Pending]) -> PendingValue
  {
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

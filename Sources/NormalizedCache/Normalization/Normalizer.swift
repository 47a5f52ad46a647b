import GraphQLLanguage

/// Turns a response into records, walking the operation's selections over it as Apollo iOS does:
/// only selected fields are stored, under field keys rendered from the operation's arguments, and
/// every object gets a record of its own, keyed by the strategy (docs/keys.md).
///
/// ```swift
/// let plan = try OperationPlan(document: document, schema: schema)
/// let normalized = try Normalizer(strategy: .typePolicy).normalize(response, plan: plan)
/// normalized.records["Book:bk123"]?["title"]   // .string("Les guerriers du silence")
/// ```
/// `__typename` is stored whenever the response has it, selected or not, as Apollo iOS's generated
/// selection sets always select it.
public struct Normalizer: Sendable {
  public let strategy: KeyStrategy

  public init(strategy: KeyStrategy) {
    self.strategy = strategy
  }

  /// Normalizes one response: `{"data": {...}}` or the data object itself.
  /// - Parameter writtenAt: the time of the write, in seconds (Apollo iOS's `TimeProvider`): every
  ///   record then keeps it as the date of each of its fields (docs/records.md#dates); nil (the
  ///   default) writes records without dates.
  /// - Throws: ``NormalizationError`` with the response path at fault: a selected field missing,
  ///   an object where a scalar belongs or the reverse, a missing variable.
  /// - Complexity: O(size of the selected part of the response).
  public func normalize(
    _ response: JSONValue, plan: OperationPlan, writtenAt: Int? = nil
  ) throws(NormalizationError) -> NormalizedResponse {
    let data = try Self.data(of: response)
    var walk = Walk(plan: plan, strategy: strategy)
    walk.writtenAt = writtenAt
    let rootType = data["__typename"]?.stringValue ?? plan.rootTypeName
    try walk.root(data, plan: plan.root, key: plan.rootKey, typename: rootType)
    return NormalizedResponse(records: walk.records, objectCount: walk.objectCount)
  }

  /// The objects of a response that get a key of their own (not a path key), each with the
  /// selection set it was written under: what can be read back by key (``ObjectSelection``).
  /// An object met twice is listed twice.
  public func keyedObjects(in response: JSONValue, plan: OperationPlan) throws(NormalizationError) -> [KeyedObject] {
    let data = try Self.data(of: response)
    var walk = Walk(plan: plan, strategy: strategy)
    walk.keyedObjects = []
    let rootType = data["__typename"]?.stringValue ?? plan.rootTypeName
    try walk.root(data, plan: plan.root, key: plan.rootKey, typename: rootType)
    return walk.keyedObjects ?? []
  }

  /// The data object of a response: the value of `data` in an envelope of `data`, `errors` and
  /// `extensions`, else the response itself.
  public static func data(of response: JSONValue) throws(NormalizationError) -> JSONObject {
    guard case .object(let object) = response else {
      throw NormalizationError("a response must be a JSON object, not \(response.kindDescription)", path: [])
    }
    let envelopeKeys: Set<String> = ["data", "errors", "extensions"]
    if let data = object["data"], object.keys.allSatisfy(envelopeKeys.contains) {
      guard case .object(let dataObject) = data else {
        throw NormalizationError("the response's \"data\" is \(data.kindDescription), not an object", path: [])
      }
      return dataObject
    }
    return object
  }
}

/// The records of one response, and how many objects it held (the root data object not counted).
public struct NormalizedResponse: Sendable {
  public var records: RecordSet
  public var objectCount: Int
}

/// An object of a response with a key of its own, and the selection set it was written under.
public struct KeyedObject {
  public let key: CacheKey
  public let object: JSONObject
  public let selection: ObjectSelection
}

/// One normalization in progress.
private struct Walk {
  let plan: OperationPlan
  let strategy: KeyStrategy
  var records = RecordSet()
  var objectCount = 0
  var objectTypes: [String: ObjectType] = [:]
  /// The fields of the records being built.
  let writer = RecordWriter()
  /// Collected only when asked for (not nil).
  var keyedObjects: [KeyedObject]?
  /// The date every record's fields are written at; nil: no dates.
  var writtenAt: Int?

  init(plan: OperationPlan, strategy: KeyStrategy) {
    self.plan = plan
    self.strategy = strategy
  }

  /// The root object, keyed `key`.
  mutating func root(_ object: JSONObject, plan selectionPlan: SelectionPlan, key: CacheKey, typename: String?) throws(NormalizationError) {
    try self.object(
      object, selection: try plan.selection(selectionPlan, runtimeType: typename), key: key,
      responseTypename: object["__typename"]?.stringValue)
  }

  /// Writes an object's record; `responseTypename` is the object's `__typename` as its response
  /// has it (looked up once, by the caller), stored even when not selected.
  mutating func object(
    _ object: JSONObject, selection: PlannedSelection, key: CacheKey, responseTypename: String?
  ) throws(NormalizationError) {
    let position = records.reservePosition(for: key)
    let start = writer.count
    if let writtenAt { RecordDates.appendField(writtenAt: writtenAt, to: writer) }
    if !selection.selectsTypename, let responseTypename {
      writer.appendField(name: "__typename", .string(responseTypename))
    }
    // Responses list fields in the order the selection does: each is looked for after the last.
    var hint = 0
    for field in selection.fields {
      guard let index = object.index(ofKey: field.responseKey, from: hint) else {
        if field.isConditional { continue }
        throw NormalizationError("missing field \"\(field.responseKey)\"", path: [])
      }
      hint = index + 1
      let value = object.members[index].value
      do {
        // The value is written straight after the field's name; a child object's record is
        // written above it and taken out before the reference to it is written.
        let fieldStart = writer.count
        let lengthOffset = writer.beginField(name: field.fieldKey)
        if let child = field.child {
          try writeCompleted(value, plan: child, path: PathKey(base: key, component: field.fieldKey), field: field, level: 0)
        } else {
          try writeLeaf(value, field: field)
        }
        writer.endField(lengthOffset)
        // Another alias of the same field key (rare): its value takes the earlier one's place.
        if field.repeatsFieldKey { writer.replaceEarlierField(at: fieldStart, recordStart: start) }
      } catch {
        throw NormalizationError(error.message, path: [field.responseKey] + error.path)
      }
    }
    records.fill(position, with: Record(key: key, uncheckedEncodedFields: writer.take(from: start)))
  }

  /// Writes the value of a field with a selection: null, a reference to the object's record (after
  /// walking the object), or a list of them.
  ///
  /// - Parameter level: how many lists down the value is (0 for the field's value): against the
  ///   schema's type (``PlannedField/listDepth``), a list where it says an object, or an object
  ///   where it says a list, is an error rather than a record of another shape.
  private mutating func writeCompleted(
    _ value: JSONValue, plan selectionPlan: SelectionPlan, path: PathKey, field: PlannedField, level: Int
  ) throws(NormalizationError) {
    switch value {
    case .null:
      writer.appendNull()
    case .object(let child):
      if let depth = field.listDepth, level < depth { throw shapeError(field, level: level, found: "an object") }
      writer.appendReference(try walkChild(child, plan: selectionPlan, path: path))
    case .array(let elements):
      if let depth = field.listDepth, level >= depth { throw shapeError(field, level: level, found: "a list") }
      writer.beginList(count: elements.count)
      for (index, element) in elements.enumerated() {
        do {
          try writeCompleted(element, plan: selectionPlan, path: path.appending(index), field: field, level: level + 1)
        } catch {
          throw NormalizationError(error.message, path: [String(index)] + error.path)
        }
      }
    default:
      throw NormalizationError(
        "field \"\(field.responseKey)\" has a selection set, but the response has \(value.kindDescription)", path: [])
    }
  }

  /// `field "books" is [Book] in the schema, a list, but the response has an object`: the type
  /// `level` lists down from the field's.
  private func shapeError(_ field: PlannedField, level: Int, found: String) -> NormalizationError {
    let type = field.definition!.type.element(levels: level)
    let shape = type.listDepth > 0 ? "a list" : "not a list"
    return NormalizationError("field \"\(field.responseKey)\" is \(type) in the schema, \(shape), but the response has \(found)", path: [])
  }

  /// Walks a child object into its record; returns its key.
  private mutating func walkChild(_ child: JSONObject, plan selectionPlan: SelectionPlan, path: PathKey) throws(NormalizationError)
    -> CacheKey
  {
    objectCount += 1
    let responseTypename = child["__typename"]?.stringValue
    let typename = responseTypename ?? selectionPlan.inferredType
    let selection = try plan.selection(selectionPlan, runtimeType: typename)
    let key = cacheKey(for: child, typename: typename, policy: selection.typePolicy, path: path)
    if keyedObjects != nil, key != path.key {
      keyedObjects?.append(KeyedObject(key: key, object: child, selection: ObjectSelection(plan: plan, selection: selectionPlan)))
    }
    try object(child, selection: selection, key: key, responseTypename: responseTypename)
    return key
  }

  /// Writes a leaf value: a scalar, or a list of them.
  private func writeLeaf(_ value: JSONValue, field: PlannedField) throws(NormalizationError) {
    switch value {
    case .null: writer.appendNull()
    case .bool(let flag): writer.appendBool(flag)
    case .int(let int): writer.appendInt(int)
    case .double(let double): writer.appendDouble(double)
    case .string(let string): writer.appendStringValue(string)
    case .array(let elements):
      writer.beginList(count: elements.count)
      for element in elements { try writeLeaf(element, field: field) }
    case .object:
      throw NormalizationError(
        "field \"\(field.responseKey)\" has no selection set, but the response has an object", path: [])
    }
  }

  /// The key of an object: programmatic, then type policy (the type's own or inherited, else the
  /// policy of the interface the selection is on), then path, as the strategy allows.
  private mutating func cacheKey(
    for object: JSONObject, typename: String?, policy: TypePolicy?, path: PathKey
  ) -> CacheKey {
    guard let typename else { return path.key }
    switch strategy {
    case .path:
      return path.key
    case .programmatic(let resolver):
      if let info = resolver(objectType(typename), ObjectData(object)) { return info.cacheKey(typename: typename) }
      fallthrough
    case .typePolicy:
      if let policy, let id = TypePolicyKey.id(of: object, keyFields: policy.keyFields) {
        return TypePolicyKey.join(typename, id)
      }
      return path.key
    }
  }

  private mutating func objectType(_ name: String) -> ObjectType {
    if let cached = objectTypes[name] { return cached }
    let type = ObjectType(name: name, schema: plan.schema)
    objectTypes[name] = type
    return type
  }
}

/// A path key not yet spelled out: `Book:bk123` + `author`, then list indexes. Most objects get a
/// key of their own under a policy, so the string is built only for those that fall back to it.
private struct PathKey {
  let base: CacheKey
  let component: String
  var indexes: [Int] = []

  init(base: CacheKey, component: String) {
    self.base = base
    self.component = component
  }

  func appending(_ index: Int) -> PathKey {
    var copy = self
    copy.indexes.append(index)
    return copy
  }

  /// `base.component.i.j`, written straight into one string of its length.
  var key: CacheKey {
    var base = base
    var component = component
    var indexLength = 0
    for index in indexes { indexLength += 1 + Self.digits(index) }
    return base.withUTF8 { baseBytes in
      component.withUTF8 { componentBytes in
        let length = baseBytes.count + 1 + componentBytes.count + indexLength
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
          var offset = 0
          func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (buffer.baseAddress! + offset).update(from: source, count: bytes.count)
            offset += bytes.count
          }
          write(baseBytes)
          buffer[offset] = UInt8(ascii: ".")
          offset += 1
          write(componentBytes)
          for index in indexes {
            buffer[offset] = UInt8(ascii: ".")
            offset += 1
            let digits = Self.digits(index)
            var value = index
            for position in stride(from: offset + digits - 1, through: offset, by: -1) {
              buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
              value /= 10
            }
            offset += digits
          }
          // Built from bytes by String(decoding:), whose all-ASCII check runs a word at a time;
          // String(unsafeUninitializedCapacity:) validated a byte at a time.
          return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<offset]), as: UTF8.self)
        }
      }
    }
  }

  /// The decimal digits of a list index (never negative).
  private static func digits(_ value: Int) -> Int {
    var digits = 1
    var value = value
    while value >= 10 {
      digits += 1
      value /= 10
    }
    return digits
  }
}

/// The cache ID of an object under a `@typePolicy` (docs/keys.md).
public enum TypePolicyKey {
  /// The values of the key fields, in order, each escaped (`\` to `\\`, then `+` to `\+`), joined
  /// by `+`: `Ray+Bradbury`. Nil when a key field is missing or not a String, ID, Int or Float.
  public static func id(of object: JSONObject, keyFields: [String]) -> String? {
    if keyFields.count == 1 {
      guard let value = object[keyFields[0]], let id = CacheKeyInfo.idString(value) else { return nil }
      return escape(id)
    }
    var parts: [String] = []
    parts.reserveCapacity(keyFields.count)
    for field in keyFields {
      guard let value = object[field], let id = CacheKeyInfo.idString(value) else { return nil }
      parts.append(escape(id))
    }
    return parts.joined(separator: "+")
  }

  /// `typename:id`, made in one buffer of its size (`+` twice made an intermediate string), by
  /// `String(decoding:)` as ``PathKey`` makes path keys: see there why.
  @inline(__always)
  static func join(_ typename: String, _ id: String) -> String {
    typename.withUTF8InPlace { typename in
      id.withUTF8InPlace { id in
        let length = typename.count + 1 + id.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
          let base = buffer.baseAddress!
          if let start = typename.baseAddress { base.initialize(from: start, count: typename.count) }
          base[typename.count] = UInt8(ascii: ":")
          if let start = id.baseAddress { (base + typename.count + 1).initialize(from: start, count: id.count) }
          return String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self)
        }
      }
    }
  }

  /// `\` becomes `\\`, then `+` becomes `\+`.
  public static func escape(_ component: String) -> String {
    let plain = component.withUTF8InPlace { bytes in
      for byte in bytes where byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "+") { return false }
      return true
    }
    guard !plain else { return component }
    var result = ""
    result.reserveCapacity(component.utf8.count + 2)
    for character in component.unicodeScalars {
      switch character {
      case "\\": result += "\\\\"
      case "+": result += "\\+"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}

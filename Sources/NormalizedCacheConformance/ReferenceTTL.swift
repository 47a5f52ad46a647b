import GraphQLLanguage
import NormalizedCache

/// Time in the cache (docs/ttl.md) written the plain way, to check stores and the reader against:
/// per record its fields in order, each a value and the second it was written; a merge that takes
/// every incoming field with its date; a read that walks an operation over the records, field by
/// field, depth first.
///
/// It shares no code with the stores, the record encoding, the merge, the reader or the schema:
/// the read is given the `@cacheControl` that applies to each field and type, and works out each
/// field's `maxAge` by docs/ttl.md's rules itself, as it walks. Where the two agree over thousands
/// of random steps (``TTLModelCheck``), the stores and the reader do what this says.
struct ReferenceTTL {
  struct Field: Equatable {
    let name: String
    var value: RecordValue
    var writtenAt: Int
  }

  /// A field of a read, as the model walks it.
  struct Selected {
    let name: String
    var alias: String?
    /// The argument `id`, the only one the check's operations take: in the field key as `(id:X)`.
    var id: String?
    /// The type condition of the inline fragment the field is in.
    var onType: String?
    /// The type the field's objects have where the operation cannot tell better (their records'
    /// `__typename` does); nil for a leaf.
    var type: String?
    /// The selection of the field's objects; nil for a leaf.
    var children: [Selected]?
    /// `@cacheControl(maxAge:)` on the field in the operation.
    var operationMaxAge: Int?
    /// The record a field policy names for it (read straight, without its parent's field).
    var policyKey: CacheKey?

    var responseKey: String { alias ?? name }
    var fieldKey: String { id.map { "\(name)(id:\($0))" } ?? name }
  }

  /// What a read gives, as `ReadResult` says it: `hit`, `stale` or `miss`, the data of a hit or a
  /// stale read, and every expired and missing path, spelled and sorted.
  struct Read: Equatable {
    var outcome: String
    var data: JSONObject?
    var expired: [String]
    var missing: [String]
  }

  /// A `@cacheControl` on a field or a type: none, `maxAge: N`, or `inheritMaxAge: true`.
  enum Hint: Equatable, Sendable {
    case none
    case maxAge(Int)
    case inherit
  }

  /// The `@cacheControl` that applies to each field (on a type) and each type.
  struct Controls: Sendable {
    let field: @Sendable (_ type: String, _ field: String) -> Hint
    let type: @Sendable (_ type: String) -> Hint
  }

  private(set) var records: [CacheKey: [Field]] = [:]

  /// Merges the records of one write (dates or not, theirs are ignored), every field written at
  /// `date`: a field the record has takes the new value and the date, a new one goes at the end.
  /// - Returns: the changed keys: `recordKey.fieldKey` of every new field and of every field whose
  ///   value changed (a field rewritten with its value is refreshed, not changed).
  mutating func merge(_ incoming: RecordSet, at date: Int) -> Set<String> {
    var changed: Set<String> = []
    for record in incoming {
      var fields = records[record.key] ?? []
      for (name, value) in record.fields {
        if let position = fields.firstIndex(where: { $0.name == name }) {
          if fields[position].value != value { changed.insert(record.key + "." + name) }
          fields[position].value = value
          fields[position].writtenAt = date
        } else {
          fields.append(Field(name: name, value: value, writtenAt: date))
          changed.insert(record.key + "." + name)
        }
      }
      records[record.key] = fields
    }
    return changed
  }

  /// Reads `selection` from the record of `rootKey` at `now`.
  /// - Parameters:
  ///   - policies: whether fields with a ``Selected/policyKey`` read that record straight.
  ///   - controls: the `@cacheControl`s of the schema; the operation's are the fields' own.
  func read(
    _ selection: [Selected], rootKey: CacheKey, rootType: String, at now: Int, ttl: TTLEnforcement, policies: Bool,
    controls: Controls
  ) -> Read {
    var walk = Walk(records: records, now: now, policies: policies, controls: controls)
    let data = walk.object(rootKey, type: rootType, selection: selection, path: [], parentMaxAge: nil)
    let expired = walk.expired.map { $0.joined(separator: ".") }.sorted()
    let missing = walk.missing.map { $0.joined(separator: ".") }.sorted()
    if !missing.isEmpty { return Read(outcome: "miss", data: nil, expired: expired, missing: missing) }
    guard case .object(let object) = data else { preconditionFailure("a root record that is there reads as an object") }
    if expired.isEmpty { return Read(outcome: "hit", data: object, expired: [], missing: []) }
    if ttl == .strict { return Read(outcome: "miss", data: nil, expired: expired, missing: []) }
    return Read(outcome: "stale", data: object, expired: expired, missing: [])
  }

  /// One read under way: what it found expired and missing so far.
  private struct Walk {
    let records: [CacheKey: [Field]]
    let now: Int
    let policies: Bool
    let controls: Controls
    var expired: [[String]] = []
    var missing: [[String]] = []

    /// A field's `maxAge`, by docs/ttl.md's rules: the field's own directive (the operation's, else
    /// the schema's); with `inheritMaxAge` on it, or on the type of an object-typed field, its
    /// parent field's; a leaf without either takes its parent field's too; an object-typed field
    /// without either has none, and the fields below it take their object's type's own `maxAge`.
    /// - Returns: the `maxAge` the field is checked by, and the one its fields take (nil: their
    ///   object's type's own).
    func maxAge(of selected: Selected, on type: String, parentMaxAge: Int?) -> (checked: Int?, passed: Int??) {
      let hint = selected.operationMaxAge.map(Hint.maxAge) ?? controls.field(type, selected.name)
      switch hint {
      case .maxAge(let seconds): return (seconds, .some(seconds))
      case .inherit: return (parentMaxAge, .some(parentMaxAge))
      case .none:
        guard let objectType = selected.type, selected.children != nil else { return (parentMaxAge, .some(parentMaxAge)) }
        return controls.type(objectType) == .inherit ? (parentMaxAge, .some(parentMaxAge)) : (nil, nil)
      }
    }

    /// The object of the record `key`, or null (and its path missing) when there is none.
    /// - Parameter parentMaxAge: the `maxAge` of the field above it that its fields take; nil
    ///   (at the root too): its type's own.
    mutating func object(_ key: CacheKey, type: String, selection: [Selected], path: [String], parentMaxAge: Int??) -> JSONValue {
      guard let fields = records[key] else {
        missing.append(path)
        return .null
      }
      var runtimeType = type
      if case .string(let typename)? = fields.first(where: { $0.name == "__typename" })?.value { runtimeType = typename }
      let inherited: Int?
      if let parentMaxAge {
        inherited = parentMaxAge
      } else if case .maxAge(let seconds) = controls.type(runtimeType) {
        inherited = seconds
      } else {
        inherited = nil
      }
      var object = JSONObject()
      for selected in selection where selected.onType == nil || selected.onType == runtimeType {
        let fieldPath = path + [selected.responseKey]
        let age = maxAge(of: selected, on: runtimeType, parentMaxAge: inherited)
        if policies, let key = selected.policyKey, let children = selected.children {
          object.append(
            key: selected.responseKey,
            value: self.object(key, type: selected.type!, selection: children, path: fieldPath, parentMaxAge: age.passed))
          continue
        }
        guard let field = fields.first(where: { $0.name == selected.fieldKey }) else {
          missing.append(fieldPath)
          continue
        }
        if let checked = age.checked, checked == 0 || field.writtenAt + checked < now {
          expired.append(fieldPath)
        }
        guard let children = selected.children else {
          object.append(key: selected.responseKey, value: field.value.jsonValue)
          continue
        }
        object.append(
          key: selected.responseKey,
          value: value(field.value, type: selected.type!, selection: children, path: fieldPath, parentMaxAge: age.passed))
      }
      return .object(object)
    }

    /// A value where the operation selects objects: null, a reference, a list of them; a scalar
    /// there is missing.
    mutating func value(_ value: RecordValue, type: String, selection: [Selected], path: [String], parentMaxAge: Int??) -> JSONValue {
      switch value {
      case .null:
        return .null
      case .reference(let reference):
        return object(reference.key, type: type, selection: selection, path: path, parentMaxAge: parentMaxAge)
      case .list(let elements):
        return .array(
          elements.enumerated().map {
            self.value($1, type: type, selection: selection, path: path + [String($0)], parentMaxAge: parentMaxAge)
          })
      default:
        missing.append(path)
        return .null
      }
    }
  }
}

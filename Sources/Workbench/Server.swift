import Generator
import GraphQLLanguage
import NormalizedCache
import Support

/// The server behind a workload's responses, whose data moves on.
///
/// Before a changing response (a refetch) the server changes a share (`churn`) of the scalar
/// values that response returns; a value keeps its change until the server changes it again. Any
/// response returns the server's current values. Whether a value changes is drawn per entity
/// (`__typename` and `id`, else the place in its response) and field, so every key strategy sees
/// the same changes of the same data. `__typename`, `id` and every key field of a `@typePolicy`
/// never change (an object keeps its key; an object without `__typename` in its response is keyed
/// by its field's type, which the response does not name).
///
/// With `shrinksLists` (the traffic's server), a changing response also drops the last element of
/// a share `churn` of its lists of objects, for good (one element is always kept): the records
/// those elements wrote are then named by no response, which is what garbage collection finds.
struct Server {
  let keyFields: Set<String>
  let threshold: UInt64
  let seed: UInt64
  let shrinksLists: Bool
  private var version = 0
  /// The values the server has changed, by entity and field: the version of the last change.
  private var changed: [FieldOfEntity: Int] = [:]
  /// The elements each list of objects lost, by its place.
  private var removed: [String: Int] = [:]

  /// A value the server may change: an entity (`__typename:id`, else its place in its response)
  /// and one of its fields, or ``listLength`` for a list at that place.
  private struct FieldOfEntity: Hashable {
    /// The field that stands for a list's length, which a changing response may shrink: no
    /// GraphQL name holds a `#`.
    static let listLength = "#"

    var entity: String
    var field: String
  }

  init(schema: Schema, churn: Double, seed: UInt64, shrinksLists: Bool) {
    keyFields = schema.allKeyFields.union(["__typename", "id"])
    threshold = churn >= 1 ? .max : UInt64(churn * 18_446_744_073_709_551_616.0)
    self.seed = seed
    self.shrinksLists = shrinksLists
  }

  /// The item's response as the server returns it at `version` (versions only grow); with
  /// `changing`, the server first changes a share of its values (a refetch).
  mutating func respond(_ item: ResponseItem, place: String, version: Int, changing: Bool) throws -> JSONValue {
    try respond(data: try Normalizer.data(of: try item.response()), place: place, version: version, changing: changing)
  }

  /// As ``respond(_:place:version:changing:)``, from a response's data already at hand.
  mutating func respond(data: JSONObject, place: String, version: Int, changing: Bool) throws -> JSONValue {
    self.version = version
    return .object(respond(data, place: place, changing: changing))
  }

  private mutating func respond(_ object: JSONObject, place: String, changing: Bool) -> JSONObject {
    let typename = object["__typename"]?.stringValue
    let identity: String
    if let id = try? CacheKeyInfo(jsonValue: object["id"]).id {
      identity = (typename ?? "") + ":" + id
    } else {
      identity = place
    }
    var result = JSONObject()
    result.reserveCapacity(object.count)
    for member in object {
      let childPlace = place + "." + member.key
      switch member.value {
      case .object(let child):
        result.append(key: member.key, value: .object(respond(child, place: childPlace, changing: changing)))
      case .array(let elements) where elements.contains(where: { if case .object = $0 { true } else { false } }):
        result.append(key: member.key, value: respond(list: elements, place: childPlace, changing: changing))
      case .string, .int, .double, .bool:
        guard !keyFields.contains(member.key) else {
          result.append(key: member.key, value: member.value)
          continue
        }
        let field = FieldOfEntity(entity: identity, field: member.key)
        if changing, draw(field) { changed[field] = version }
        result.append(key: member.key, value: changed[field].map { Self.value(member.value, changedAt: $0) } ?? member.value)
      default:
        result.append(key: member.key, value: member.value)
      }
    }
    return result
  }

  private mutating func respond(list elements: [JSONValue], place: String, changing: Bool) -> JSONValue {
    var kept = elements
    if shrinksLists {
      let length = FieldOfEntity(entity: place, field: FieldOfEntity.listLength)
      if changing, elements.count - (removed[place] ?? 0) > 1, draw(length) { removed[place, default: 0] += 1 }
      kept.removeLast(min(removed[place] ?? 0, max(0, elements.count - 1)))
    }
    return .array(
      kept.enumerated().map { index, element in
        switch element {
        case .object(let child): .object(respond(child, place: place + "." + String(index), changing: changing))
        case .array(let inner): respond(list: inner, place: place + "." + String(index), changing: changing)
        default: element
        }
      })
  }

  /// Whether the server changes this field (or list) before this response: a draw seeded by
  /// the FNV-1a hash of the entity's bytes, a 0x1F, and the field's bytes.
  private func draw(_ field: FieldOfEntity) -> Bool {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
    func mix(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    for byte in field.entity.utf8 { mix(byte) }
    mix(0x1F)
    for byte in field.field.utf8 { mix(byte) }
    var random = SplitMix64(seed: hash ^ UInt64(version) &* 0x9E37_79B9_7F4A_7C15)
    return random.next() < threshold
  }

  static func value(_ value: JSONValue, changedAt version: Int) -> JSONValue {
    switch value {
    case .string(let string): .string(string + "~" + String(version))
    case .int(let int): .int(int &+ version)
    case .double(let double): .double(double + Double(version))
    case .bool(let flag): .bool(!flag)
    default: value
    }
  }
}

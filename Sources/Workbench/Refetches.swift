import Generator
import GraphQLLanguage
import NormalizedCache

/// What the watchers see written (`read.watchers`, phase `watch`): every response again, as a
/// refetch from a server whose data moved on.
///
/// Before refetch `i` the server changes a share (`churn`) of the scalar values that response
/// returns; a value keeps its change until the server changes it again. A refetch returns the
/// server's current values. Whether a value changes is drawn per entity (`__typename` and `id`,
/// else the place in its response) and field, so every key strategy sees the same changes of the
/// same data. `__typename`, `id` and every key field of a `@typePolicy` never change (an object
/// keeps its key; an object without `__typename` in its response is keyed by its field's type,
/// which the response does not name).
struct Refetches {
  private var server: ServerState

  init(schema: Schema, churn: Double, seed: UInt64) {
    server = ServerState(schema: schema, churn: churn, seed: seed)
  }

  /// The refetch of the source's response `index`; refetches must be asked in order, from 0, as
  /// the server's changes accumulate. One at a time: nothing of earlier ones is kept but which
  /// values changed.
  mutating func refetch(_ item: ResponseItem, index: Int) throws -> JSONValue {
    server.version = index + 1
    let data = try Normalizer.data(of: try item.response())
    return .object(server.refetch(data, place: "\(index)"))
  }

  /// The values the server has changed, by entity and field: the version of the last change.
  private struct ServerState {
    let keyFields: Set<String>
    let threshold: UInt64
    let seed: UInt64
    var version = 0
    var changed: [String: Int] = [:]

    init(schema: Schema, churn: Double, seed: UInt64) {
      keyFields = schema.allKeyFields.union(["__typename", "id"])
      threshold = churn >= 1 ? .max : UInt64(churn * 18_446_744_073_709_551_616.0)
      self.seed = seed
    }

    mutating func refetch(_ object: JSONObject, place: String) -> JSONObject {
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
          result.append(key: member.key, value: .object(refetch(child, place: childPlace)))
        case .array(let elements) where elements.contains(where: { if case .object = $0 { true } else { false } }):
          result.append(key: member.key, value: refetch(list: elements, place: childPlace))
        case .string, .int, .double, .bool:
          guard !keyFields.contains(member.key) else {
            result.append(key: member.key, value: member.value)
            continue
          }
          let field = identity + "\u{1F}" + member.key
          if draw(field) { changed[field] = version }
          result.append(key: member.key, value: changed[field].map { Self.value(member.value, changedAt: $0) } ?? member.value)
        default:
          result.append(key: member.key, value: member.value)
        }
      }
      return result
    }

    mutating func refetch(list elements: [JSONValue], place: String) -> JSONValue {
      .array(elements.enumerated().map { index, element in
        switch element {
        case .object(let child): .object(refetch(child, place: place + "." + String(index)))
        case .array(let inner): refetch(list: inner, place: place + "." + String(index))
        default: element
        }
      })
    }

    /// Whether the server changes this field before this refetch.
    func draw(_ field: String) -> Bool {
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
      for byte in field.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
      }
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
}

/// The watchers of one strategy: which operations watch, and how the refetches are made.
struct WatchPlan {
  /// Indexes of the source's items whose operations are watched: spread evenly over them.
  let watchers: [Int]
  let churn: Double
  let seed: UInt64

  /// Nil when the workload keeps no watchers.
  static func make(source: PreparedSource, watchers: Int, churn: Double, seed: UInt64) -> WatchPlan? {
    guard watchers > 0, !source.items.isEmpty else { return nil }
    let count = source.items.count
    let chosen = (0..<min(watchers, count)).map { $0 * count / min(watchers, count) }
    return WatchPlan(watchers: chosen, churn: churn, seed: seed)
  }
}

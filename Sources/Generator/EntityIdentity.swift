import GraphQLLanguage
import Support

/// Where every object's 64-bit identity comes from. An object's content (key fields, scalar
/// values, list lengths, the objects below it) is a pure function of its identity and the field
/// keys selected, so an entity that recurs is the same entity each time.
///
/// - new objects: `mix(salt ^ (response << 32 | ordinal))`, the ordinal counting the objects of
///   one response in writing order. `mix` is a bijection and the inputs are distinct (top bit 0),
///   so new objects never share an identity, and so never a key: the object ratio at duplication
///   0 is exactly 1.
/// - pool entities: `mix(salt ^ (1 << 63 | type << 40 | rank))`: distinct from each other and from
///   every new object.
/// - objects below a pool entity that are not pool entities themselves: a hash of the parent's
///   identity, the field key and the list index, so they recur with their parent.
struct IdentitySpace: Sendable {
  let salt: UInt64

  func new(response: Int, ordinal: Int) -> UInt64 {
    precondition(ordinal < 1 << 32, "more than 2^32 objects in one response")
    return SplitMix64.mix(salt ^ (UInt64(response) << 32 | UInt64(ordinal)))
  }

  func pooled(type: Int, rank: Int) -> UInt64 {
    SplitMix64.mix(salt ^ (1 << 63 | UInt64(type) << 40 | UInt64(rank)))
  }
}

extension KeyFieldModel {
  /// The bits of the identity this key field shows.
  func slice(of identity: UInt64) -> UInt64 {
    bits >= 64 ? identity : (identity >> UInt64(shift)) & ((1 << UInt64(bits)) - 1)
  }

  /// The key field's value for an entity: distinct identities give distinct combinations of values.
  func value(of identity: UInt64) -> JSONValue {
    switch kind {
    case .uuid: .string(Self.uuid(identity))
    case .string(let prefix): .string(prefix + Self.hex(slice(of: identity), digits: (bits + 3) / 4))
    case .int: .int(Int(slice(of: identity)))
    }
  }

  /// `8-4-4-4-12` hexadecimal digits: the identity, then a hash of it.
  static func uuid(_ identity: UInt64) -> String {
    let high = hex(identity, digits: 16)
    let low = hex(SplitMix64.mix(identity ^ 0x5555_5555_5555_5555), digits: 16)
    var result = ""
    result.reserveCapacity(36)
    for (index, character) in (high + low).enumerated() {
      if index == 8 || index == 12 || index == 16 || index == 20 { result.append("-") }
      result.append(character)
    }
    return result
  }

  static func hex(_ value: UInt64, digits: Int) -> String {
    let alphabet = Array("0123456789abcdef".utf8)
    var bytes = [UInt8](repeating: 0, count: digits)
    var rest = value
    for index in stride(from: digits - 1, through: 0, by: -1) {
      bytes[index] = alphabet[Int(rest & 0xF)]
      rest >>= 4
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

import GraphQLLanguage
import Support

/// Writes one response as compact JSON straight from the compiled operation, without building a
/// ``JSONValue`` tree, so a response costs only its bytes.
///
/// Every object's content derives from its identity (``IdentitySpace``): its key fields, each
/// scalar from `(identity, field key)`, each list's length and each child's type, reuse and
/// identity from `(identity, field key, index)`.
struct ResponseWriter {
  let generation: Generation
  let operation: CompiledOperation
  let response: Int
  private(set) var json = JSONWriter()
  /// Objects written below the root data object.
  private(set) var objectCount = 0
  /// New (not pooled) objects identified so far in this response.
  private var ordinal = 0
  private var scratch: [UInt8] = []

  init(generation: Generation, operation: CompiledOperation, response: Int) {
    self.generation = generation
    self.operation = operation
    self.response = response
  }

  /// The identity of the entity a root entity field fetches: drawn before the response is
  /// written, because the operation's variables name it.
  mutating func rootEntity(_ object: Int, random: inout SplitMix64) -> (identity: UInt64, inPool: Bool) {
    let reuse = random.double() < generation.config.duplication
    let rank = random.double()
    if reuse { return (generation.identities.pooled(type: object, rank: generation.zipf.rank(forUniform: rank)), true) }
    defer { ordinal += 1 }
    return (generation.identities.new(response: response, ordinal: ordinal), false)
  }

  /// `{"data":{...}}`; `entities[i]` is the identity of root `i` when it is an entity field.
  mutating func writeResponse(entities: [(identity: UInt64, inPool: Bool)?], random: inout SplitMix64) {
    let responseIdentity = StableHash.combine(generation.responseSalt, UInt64(response), 0xDA7A)
    json.append("{\"data\":{")
    for (index, root) in operation.roots.enumerated() {
      if index > 0 { json.append(",") }
      json.append(root.member)
      switch root.kind {
      case .entity:
        guard let entity = entities[index] else { preconditionFailure("root entity \(index) has no identity") }
        writeObject(root.position, choice: 0, identity: entity.identity, inPool: entity.inPool)
      case .list(let limit):
        var count = random.int(in: generation.config.listLength.range)
        if let limit { count = min(count, limit) }
        json.append("[")
        for element in 0..<count {
          if element > 0 { json.append(",") }
          writeChild(
            root.position, parent: responseIdentity, fieldKeyHash: root.fieldKeyHash, index: element, inPool: false)
        }
        json.append("]")
      }
    }
    json.append("}}")
  }

  /// The object at `index` of a field: its type among the position's possible types, then a pool
  /// entity (with probability `duplication`, keyed types only), else a new object or, below a
  /// pool entity, one derived from its parent.
  private mutating func writeChild(_ position: Int, parent: UInt64, fieldKeyHash: UInt64, index: Int, inPool: Bool) {
    var random = SplitMix64(seed: StableHash.combine(parent, fieldKeyHash, UInt64(index)))
    let possibleTypes = operation.positions[position].possibleTypes
    let choice = possibleTypes.count == 1 ? 0 : random.int(below: possibleTypes.count)
    let object = possibleTypes[choice]
    let reuse = random.double() < generation.config.duplication
    let rank = random.double()
    let derived = random.next()
    if reuse, generation.schema.objects[object].isKeyed {
      let identity = generation.identities.pooled(type: object, rank: generation.zipf.rank(forUniform: rank))
      writeObject(position, choice: choice, identity: identity, inPool: true)
    } else if inPool {
      writeObject(position, choice: choice, identity: derived, inPool: true)
    } else {
      let identity = generation.identities.new(response: response, ordinal: ordinal)
      ordinal += 1
      writeObject(position, choice: choice, identity: identity, inPool: false)
    }
  }

  private mutating func writeObject(_ position: Int, choice: Int, identity: UInt64, inPool: Bool) {
    objectCount += 1
    let object = operation.positions[position].possibleTypes[choice]
    json.append("{")
    for (index, field) in operation.positions[position].fields[choice].enumerated() {
      if index > 0 { json.append(",") }
      json.append(field.member)
      switch field.kind {
      case .typename:
        json.append(generation.typenameJSON[object])
      case .key(let keyIndex):
        json.write(generation.schema.objects[object].keyFields[keyIndex].value(of: identity))
      case .scalar(let kind):
        writeScalar(kind, seed: StableHash.combine(identity, field.fieldKeyHash))
      case .object(let child, let isList, let limit):
        guard isList else {
          writeChild(child, parent: identity, fieldKeyHash: field.fieldKeyHash, index: 0, inPool: inPool)
          continue
        }
        var random = SplitMix64(seed: StableHash.combine(identity, field.fieldKeyHash))
        var count = random.int(in: generation.config.listLength.range)
        if let limit { count = min(count, limit) }
        json.append("[")
        for element in 0..<count {
          if element > 0 { json.append(",") }
          writeChild(child, parent: identity, fieldKeyHash: field.fieldKeyHash, index: element, inPool: inPool)
        }
        json.append("]")
      }
    }
    json.append("}")
  }

  /// A nullable scalar: null 4% of the time, else a value of its kind.
  private mutating func writeScalar(_ kind: ScalarKind, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    if random.chance(0.04) {
      json.append("null")
      return
    }
    switch kind {
    case .string:
      json.writeString(text(length: random.int(in: generation.config.stringLength.range), random: &random))
    case .int:
      json.append(String(random.int(below: 100_000)))
    case .float:
      json.append(JSONWriter.format(Double(random.int(below: 1_000_000)) / 100))
    case .boolean:
      json.append(random.chance(0.5) ? "true" : "false")
    case .enumeration(let name):
      json.append(random.pick(generation.enumValueJSON[name] ?? ["null"]))
    case .stringList:
      json.append("[")
      for index in 0..<random.int(in: 0...4) {
        if index > 0 { json.append(",") }
        json.writeString(text(length: random.int(in: 3...10), random: &random))
      }
      json.append("]")
    }
  }

  /// Word-like text of `length` Unicode scalars; now and then one of them is an accented letter,
  /// a CJK character, an emoji, a quote, a backslash or a control character, so that escaping and
  /// multi-byte UTF-8 are exercised.
  private mutating func text(length: Int, random: inout SplitMix64) -> String {
    scratch.removeAll(keepingCapacity: true)
    var bits: UInt64 = 0
    var available = 0
    for position in 0..<length {
      if available == 0 {
        bits = random.next()
        available = 8
      }
      let byte = UInt8(truncatingIfNeeded: bits)
      bits >>= 8
      available -= 1
      if position > 0, position < length - 1, byte < 40, scratch.last != UInt8(ascii: " ") {
        scratch.append(UInt8(ascii: " "))
      } else {
        scratch.append((position == 0 ? UInt8(ascii: "A") : UInt8(ascii: "a")) + byte % 26)
      }
    }
    if length > 0, random.chance(0.03) {
      let special = random.pick(Self.specials)
      let position = random.int(below: length)
      scratch.replaceSubrange(position...position, with: special.utf8)
    }
    return String(decoding: scratch, as: UTF8.self)
  }

  private static let specials = ["é", "ü", "ñ", "日", "本", "😀", "\"", "\\", "\n", "\t"]
}
